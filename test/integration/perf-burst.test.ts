/**
 * Pacing shared per process across every resource: a parallel create burst of instances,
 * templates, SSH keys and environment variables against the service's realistic rate limits,
 * with the client's default intervals and no retries allowed, is refused not once.
 *
 * The simulator runs in a process of its own, as the service does (test/support/sim-process.ts).
 */
import { randomBytes } from "crypto";
import { providers } from "../../provider/providers";
import { useSimulatorProcess } from "../support/sim-process";
import { drive } from "./account-resources-support";

type Props = Record<string, unknown>;

function ed25519Key(): string {
  const sshString = (b: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(b.length);
    return Buffer.concat([length, b]);
  };
  return `ssh-ed25519 ${Buffer.concat([sshString(Buffer.from("ssh-ed25519")), sshString(randomBytes(32))]).toString("base64")}`;
}

const BURST: Array<[keyof typeof providers, (i: number) => Props, number]> = [
  ["instance", (i) => ({ offerId: 700001 + i, image: "pytorch/pytorch", label: `burst-${i}` }), 12],
  ["template", (i) => ({ name: `burst-template-${i}`, image: "pytorch/pytorch" }), 4],
  ["sshKey", () => ({ publicKey: ed25519Key() }), 3],
  ["envVar", (i) => ({ key: `BURST_${i}`, value: `v${i}` }), 4],
];

const { log } = useSimulatorProcess();

it("creates a mixed burst in parallel under the realistic limits with no request refused", async () => {
  const creates = BURST.flatMap(([kind, inputs, count]) =>
    Array.from({ length: count }, async (_, i) => {
      const p = drive(providers[kind]);
      const { inputs: checked } = await p.check({}, { __provider: "perf-test", ...inputs(i) });
      return p.create(checked as Props);
    }),
  );
  const results = await Promise.all(creates);
  expect(results.every((r) => r.id !== "")).toBe(true);
  const requests = await log();
  expect(requests.filter((r) => r.status === 429)).toEqual([]);
  // One create call per object and one status read per instance: nothing was sent twice.
  expect(requests.filter((r) => r.method !== "GET")).toHaveLength(12 + 4 + 3 + 4);
  expect(requests.filter((r) => r.method === "GET" && /^\/api\/v0\/instances\/\d+\/?$/.test(r.path))).toHaveLength(12);
}, 30_000);
