/** Wire schemas of the volume endpoints (vendor document: Volume, VolumeOffer). */
import { z } from "zod";
import { anyBoolean, anyNumber, anyString, idNumber, mapped, rowsOf, type Rows } from "./schema-helpers";
import type { CreatedVolume, Volume, VolumeKind, VolumeOffer } from "./types-volumes";

const SECONDS_PER_DAY = 24 * 60 * 60;
const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

const volumeOfferSchema: z.ZodType<VolumeOffer> = mapped(
  {
    id: idNumber,
    machine_id: anyNumber,
    host_id: anyNumber,
    cluster_id: anyNumber,
    disk_space: z.number(),
    storage_cost: anyNumber,
    storage_total_cost: anyNumber,
    reliability: anyNumber,
    reliability2: anyNumber,
    verified: anyBoolean,
    verification: anyString,
    geolocation: anyString,
    inet_up: anyNumber,
    inet_down: anyNumber,
    duration: anyNumber,
  },
  (o, raw) => ({
    id: o.id,
    machineId: orNull(o.machine_id),
    hostId: orNull(o.host_id),
    clusterId: orNull(o.cluster_id),
    diskSpaceGb: o.disk_space,
    storageCostPerGbMonth: orNull(o.storage_cost),
    storageTotalCostPerHour: orNull(o.storage_total_cost),
    reliability: orNull(o.reliability ?? o.reliability2),
    verified: o.verified ?? (o.verification === undefined ? null : o.verification === "verified"),
    geolocation: orNull(o.geolocation),
    inetUpMbps: orNull(o.inet_up),
    inetDownMbps: orNull(o.inet_down),
    durationDays: o.duration === undefined ? null : o.duration / SECONDS_PER_DAY,
    raw,
  }),
);

/** Offers are someone else's rows: one that does not validate is skipped, never fatal. */
export const volumeOfferSearchResponse: z.ZodType<Rows<VolumeOffer>> = z.looseObject({ offers: rowsOf(volumeOfferSchema) }).transform((r) => r.offers);

function kindOf(type: string | undefined, clusterId: number | undefined): VolumeKind | null {
  if (type === "network_volume" || type === "network") return "network";
  if (type === "local_volume" || type === "local") return "local";
  return clusterId === undefined ? null : "network";
}

const instanceIdOf = (v: unknown): number | undefined => {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v === "string" && /^\d+$/.test(v)) return Number(v);
  if (v && typeof v === "object") return instanceIdOf((v as Record<string, unknown>).id);
  return undefined;
};

// The list proves which volumes exist: a row that does not validate fails the read rather
// than read as "gone".
const volumeSchema: z.ZodType<Volume> = mapped(
  {
    id: idNumber,
    type: anyString,
    label: anyString,
    name: anyString,
    disk_space: anyNumber,
    status: anyString,
    machine_id: anyNumber,
    cluster_id: anyNumber,
    host_id: anyNumber,
    geolocation: anyString,
    instances: z.unknown().optional(),
    start_date: anyNumber,
    storage_total_cost: anyNumber,
  },
  (v, raw) => ({
    id: v.id,
    kind: kindOf(v.type, v.cluster_id),
    name: v.label ?? v.name ?? null,
    sizeGb: orNull(v.disk_space),
    status: orNull(v.status),
    machineId: orNull(v.machine_id),
    clusterId: orNull(v.cluster_id),
    hostId: orNull(v.host_id),
    geolocation: orNull(v.geolocation),
    instanceIds: Array.isArray(v.instances) ? v.instances.map(instanceIdOf).filter((id): id is number => id !== undefined) : [],
    startDate: orNull(v.start_date),
    storageTotalCostPerHour: orNull(v.storage_total_cost),
    raw,
  }),
);

export const volumeListResponse: z.ZodType<Volume[]> = z.looseObject({ volumes: z.array(volumeSchema) }).transform((r) => r.volumes);

/** `{success, volume_name: "V.20118481"}`: the id is the number in the name. */
export const volumeCreateResponse: z.ZodType<CreatedVolume> = z
  .looseObject({ volume_name: anyString, id: anyNumber, volume_id: anyNumber })
  .transform((r) => {
    const m = r.volume_name === undefined ? null : /^V\.(\d+)$/.exec(r.volume_name);
    return { id: r.volume_id ?? r.id ?? (m ? Number(m[1]) : null), volumeName: r.volume_name ?? null };
  });
