/**
 * GPU names the market is known to list (the vendor client's query names and the simulator's
 * seed), so a misspelt `offer.gpuName` ("RTX4090") fails check with a suggestion instead of
 * matching no offer at `up`. A name far from every known one passes: new GPUs appear.
 */
import type * as pulumi from "@pulumi/pulumi";
import { editDistance } from "./names";

export const KNOWN_GPU_NAMES: readonly string[] = [
  "A10",
  "A100 PCIE",
  "A100 SXM",
  "A100 SXM4",
  "A100X",
  "A10g",
  "A16",
  "A30",
  "A40",
  "A800 PCIE",
  "B200",
  "CMP 170HX",
  "CMP 50HX",
  "GH200 SXM",
  "GTX 1050",
  "GTX 1050 Ti",
  "GTX 1060",
  "GTX 1070",
  "GTX 1070 Ti",
  "GTX 1080",
  "GTX 1080 Ti",
  "GTX 1650",
  "GTX 1650 S",
  "GTX 1650 Ti",
  "GTX 1660",
  "GTX 1660 S",
  "GTX 1660 Ti",
  "GTX 750 Ti",
  "GTX TITAN X",
  "GeForce 970",
  "H100 NVL",
  "H100 PCIE",
  "H100 SXM",
  "H200",
  "H200 NVL",
  "InstinctMI100",
  "InstinctMI210",
  "InstinctMI250X",
  "InstinctMI50",
  "L4",
  "L40",
  "L40S",
  "P104-100",
  "P106-100",
  "PRO W6800",
  "PRO W7800",
  "PRO W7900",
  "Pro V620",
  "Q RTX 4000",
  "Q RTX 5000",
  "Q RTX 6000",
  "Q RTX 8000",
  "Quadro GP100",
  "Quadro GV100",
  "Quadro K2200",
  "Quadro K620",
  "Quadro P2000",
  "Quadro P4000",
  "Quadro P5000",
  "Quadro P6000",
  "RTX 2000Ada",
  "RTX 2060",
  "RTX 2060S",
  "RTX 2070",
  "RTX 2070S",
  "RTX 2080",
  "RTX 2080 Ti",
  "RTX 2080S",
  "RTX 3050",
  "RTX 3060",
  "RTX 3060 Ti",
  "RTX 3060 laptop",
  "RTX 3070",
  "RTX 3070 Ti",
  "RTX 3070 laptop",
  "RTX 3080",
  "RTX 3080 Ti",
  "RTX 3090",
  "RTX 3090 Ti",
  "RTX 4000Ada",
  "RTX 4060",
  "RTX 4060 Ti",
  "RTX 4060 laptop",
  "RTX 4070",
  "RTX 4070 Ti",
  "RTX 4070 laptop",
  "RTX 4070S",
  "RTX 4070S Ti",
  "RTX 4080",
  "RTX 4080 laptop",
  "RTX 4080S",
  "RTX 4090",
  "RTX 4090 Ti",
  "RTX 4090D",
  "RTX 4500Ada",
  "RTX 5000Ada",
  "RTX 5060",
  "RTX 5060 Ti",
  "RTX 5070",
  "RTX 5070 Ti",
  "RTX 5080",
  "RTX 5090",
  "RTX 5090 Ti",
  "RTX 5880Ada",
  "RTX 6000Ada",
  "RTX A2000",
  "RTX A4000",
  "RTX A4500",
  "RTX A5000",
  "RTX A6000",
  "RTX PRO 4000",
  "RTX PRO 4000 Mobile",
  "RTX PRO 4500",
  "RTX PRO 5000",
  "RTX PRO 6000",
  "RTX PRO 6000 Max-Q",
  "RTX PRO 6000 S",
  "RTX PRO 6000 WS",
  "RX 6800",
  "RX 6800 XT",
  "RX 6900 XT",
  "RX 6950 XT",
  "RX 7600",
  "RX 7700 XT",
  "RX 7800 XT",
  "RX 7900 GRE",
  "RX 7900 XT",
  "RX 7900 XTX",
  "Radeon Pro VII",
  "Radeon VII",
  "TITAN V CEO",
  "Tesla K20c",
  "Tesla K80",
  "Tesla M40",
  "Tesla P100",
  "Tesla P4",
  "Tesla P40",
  "Tesla P6",
  "Tesla T4",
  "Tesla V100",
  "Titan RTX",
  "Titan V",
  "Titan X",
  "Titan Xp",
];

const normalize = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, "");
const KNOWN = new Set(KNOWN_GPU_NAMES);

/** The known name a GPU name was probably meant as, or undefined (known as written, or far from all). */
export function suggestGpuName(name: string): string | undefined {
  if (KNOWN.has(name)) return undefined;
  const n = normalize(name);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const known of KNOWN_GPU_NAMES) {
    const d = editDistance(n, normalize(known));
    if (d < bestDistance) [best, bestDistance] = [known, d];
  }
  return bestDistance <= 1 ? best : undefined;
}

/** A check failure for a misspelt `offer.gpuName`, naming the field, the value and the suggestion. */
export function gpuNameFailures(news: Record<string, unknown>): pulumi.dynamic.CheckFailure[] {
  const offer = news.offer;
  const name = offer && typeof offer === "object" ? (offer as Record<string, unknown>).gpuName : undefined;
  if (typeof name !== "string") return [];
  const near = suggestGpuName(name);
  if (!near) return [];
  return [{ property: "offer.gpuName", reason: `offer.gpuName: "${name}" is not a GPU name the market lists; did you mean ${near}?` }];
}
