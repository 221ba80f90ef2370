/**
 * The query of the volume offer searches (`POST /api/v0/volumes/search/`,
 * `POST /api/v0/network_volumes/search/`): the same `{field: {op: value}}` form as the offer
 * search, on the fields the vendor's client lets a volume search name (`vol_offers_fields`).
 * Units are in the names: `durationDays` is sent as `duration` in seconds, and `driverVersion`
 * ("535.86.05") as the number 535086005, as the vendor's client converts them.
 */
import { conditionToWire, driverVersionNumber, DRIVER_VERSION_FORM, SECONDS_PER_DAY, toSnakeCase, type Condition } from "./filters";

/** Volume offer fields with their units; unknown fields are refused (the service would ignore or refuse them). */
export interface VolumeOfferFilters {
  id?: Condition<number>;
  machineId?: Condition<number>;
  hostId?: Condition<number>;
  /** Network volumes: the cluster the storage serves. */
  clusterId?: Condition<number>;
  /** GB free for volumes on the offer. */
  diskSpace?: Condition<number>;
  /** $ per GB per month. */
  storageCost?: Condition<number>;
  /** 0..1. */
  reliability?: Condition<number>;
  verified?: Condition<boolean>;
  /** Two-letter country code, or the service's "Sweden, SE" form. */
  geolocation?: Condition<string>;
  /** Mb/s. */
  inetUp?: Condition<number>;
  /** Mb/s. */
  inetDown?: Condition<number>;
  /** MB/s. */
  diskBw?: Condition<number>;
  /** Days the offer stays available (sent as `duration` in seconds). */
  durationDays?: Condition<number>;
  staticIp?: Condition<boolean>;
  cudaMaxGood?: Condition<number>;
  /** "535.86.05"; sent as the number 535086005, as the vendor's client encodes it. */
  driverVersion?: Condition<string>;
  cpuArch?: Condition<string>;
  gpuArch?: Condition<string>;
  datacenter?: Condition<boolean>;
  /** Network volumes: MiB/s. */
  nwDiskMinBw?: Condition<number>;
  nwDiskAvgBw?: Condition<number>;
  nwDiskMaxBw?: Condition<number>;
}

/** The fields a volume offer search may filter on (the vendor client's volume fields). */
export const VOLUME_OFFER_FILTER_FIELDS = [
  "id", "machineId", "hostId", "clusterId", "diskSpace", "storageCost", "reliability", "verified", "geolocation",
  "inetUp", "inetDown", "diskBw", "durationDays", "staticIp", "cudaMaxGood", "driverVersion", "cpuArch", "gpuArch",
  "datacenter", "nwDiskMinBw", "nwDiskAvgBw", "nwDiskMaxBw",
] as const satisfies readonly (keyof VolumeOfferFilters)[];

/** The sort keys of a volume search: the filter fields and the vendor's `score`. */
export type VolumeOfferOrderField = (typeof VOLUME_OFFER_FILTER_FIELDS)[number] | "score";

/** A volume offer search: typed filters, order and limit. */
export interface VolumeOfferQuery {
  filters?: VolumeOfferFilters;
  /** Sort keys (camelCase), for example `[["storageCost", "asc"]]`. Default: best score first. */
  order?: Array<[VolumeOfferOrderField, "asc" | "desc"]>;
  /** Most offers to return. */
  limit?: number;
}

/** The vendor client's implicit volume filters: verified, not external, at least 1 GB free. */
export const DEFAULT_VOLUME_OFFER_FILTERS: Readonly<Record<string, Record<string, unknown>>> = {
  verified: { eq: true },
  external: { eq: false },
  disk_space: { gte: 1 },
};

const WIRE_NAMES: Readonly<Record<string, string>> = { durationDays: "duration" };
const known = new Set<string>([...VOLUME_OFFER_FILTER_FIELDS, "score"]);

/** A volume offer query to its wire body (without the defaults and `allocated_storage`). */
export function buildVolumeOfferQuery(query: VolumeOfferQuery): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, condition] of Object.entries(query.filters ?? {})) {
    if (condition === undefined) continue;
    if (field === "score" || !known.has(field)) {
      throw new Error(`volume offer filter "${field}" is not searchable; use one of ${VOLUME_OFFER_FILTER_FIELDS.join(", ")}`);
    }
    const scale = field === "durationDays" ? (v: number) => v * SECONDS_PER_DAY : undefined;
    const ops = conditionToWire(field, condition, scale);
    if (field === "driverVersion") {
      const encode = (v: unknown) => {
        if (typeof v !== "string" || !DRIVER_VERSION_FORM.test(v)) throw new Error(`volume offer filter driverVersion: must be a driver version such as "535.86.05", got ${JSON.stringify(v)}`);
        return driverVersionNumber(v);
      };
      for (const [op, v] of Object.entries(ops)) ops[op] = Array.isArray(v) ? v.map(encode) : encode(v);
    }
    out[WIRE_NAMES[field] ?? toSnakeCase(field)] = ops;
  }
  if (query.order) {
    out.order = query.order.map(([field, dir]) => {
      if (!known.has(field)) throw new Error(`volume offer order "${field}" is not a sortable field`);
      if (dir !== "asc" && dir !== "desc") throw new Error(`volume offer order "${field}": direction must be "asc" or "desc"`);
      return [WIRE_NAMES[field] ?? toSnakeCase(field), dir];
    });
  }
  if (query.limit !== undefined) {
    if (!Number.isInteger(query.limit) || query.limit < 1) throw new Error(`volume offer query limit must be a positive integer, got ${query.limit}`);
    out.limit = query.limit;
  }
  return out;
}
