/**
 * Outputs read from the live record that a program needs without a lookup: the image, env
 * names (never values), published ports, the template in use, whether it is a bid (and
 * outbid), the machine's going bid, the disk. Kept apart from outputs.ts so it only adds.
 */
import type { Instance } from "../../client";
import { Props } from "../kit";
import { isOutbid } from "./bid";
import { MARKER_ENV } from "./inputs";

export const SPOT_OUTPUT_KEYS = [
  "imageInUse", "envNames", "portMappings", "templateHashIdInUse", "isBid", "outbid", "minBidPerHour", "diskSpaceGb", "prepaidBalance",
] as const;

const orNull = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);

/** `{"8000/tcp": [{HostIp, HostPort: "20345"}]}` -> `{"8000/tcp": 20345}`; entries without a host port are left out. */
export function portMappingsOf(ports: Record<string, unknown> | null | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, bindings] of Object.entries(ports ?? {})) {
    const first: unknown = Array.isArray(bindings) ? bindings[0] : undefined;
    const hostPort = first && typeof first === "object" ? (first as Record<string, unknown>).HostPort : undefined;
    const n = Number(hostPort);
    if (hostPort !== undefined && Number.isInteger(n) && n > 0 && n < 65536) out[key] = n;
  }
  return out;
}

/** Env names (entries such as `-p 8000:8000` that carry ports are not variables). */
export function envNamesOf(instance: Instance): string[] {
  const names = (instance.extraEnv ?? []).map(([k]) => k).filter((k) => k !== MARKER_ENV && !k.startsWith("-"));
  return [...new Set(names)].sort();
}

export function spotOutputs(instance: Instance): Props {
  return {
    imageInUse: orNull(instance.imageUuid),
    envNames: envNamesOf(instance),
    portMappings: portMappingsOf(instance.ports),
    templateHashIdInUse: orNull(instance.templateHashId),
    isBid: orNull(instance.isBid),
    outbid: isOutbid(instance),
    minBidPerHour: orNull(instance.minBid),
    diskSpaceGb: orNull(instance.diskSpace),
  };
}
