/**
 * Builders of the API's filter objects `{<field>: {<op>: <value>}}` from typed, camelCase
 * filters: template search `select_filters` (spec: Template) and the offer search query
 * (api-facts: Offers). A bare value means `eq`.
 */

import { mbOfGb } from "./units";

/** The operators of a search filter. */
export const FILTER_OPS = ["eq", "neq", "lt", "lte", "gt", "gte", "in", "notin"] as const;

/** One operator of a search filter. */
export type FilterOp = (typeof FILTER_OPS)[number];

/** A value (meaning `eq`) or an object of operators. `in`/`notin` take arrays. */
export type Condition<T> =
  | T
  | { eq?: T; neq?: T; lt?: T; lte?: T; gt?: T; gte?: T; in?: readonly T[]; notin?: readonly T[] };

export type WireFilters = Record<string, Record<string, unknown>>;

/** camelCase to snake_case: `dphTotal` -> `dph_total`, `cudaMaxGood` -> `cuda_max_good`. */
export function toSnakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/([A-Z])([A-Z][a-z])/g, "$1_$2").toLowerCase();
}

function isOperatorObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** One condition to its wire form, checking operators and array operands; `scale` converts units. */
export function conditionToWire(field: string, condition: unknown, scale?: (v: number) => number): Record<string, unknown> {
  const conv = (v: unknown) => (scale && typeof v === "number" ? scale(v) : v);
  if (Array.isArray(condition)) {
    throw new Error(`filter ${field}: a list needs an operator, for example {in: [...]}`);
  }
  if (!isOperatorObject(condition)) return { eq: conv(condition) };
  const out: Record<string, unknown> = {};
  for (const [op, value] of Object.entries(condition)) {
    if (value === undefined) continue;
    if (!(FILTER_OPS as readonly string[]).includes(op)) {
      throw new Error(`filter ${field}: unknown operator "${op}"; use one of ${FILTER_OPS.join(", ")}`);
    }
    const isList = op === "in" || op === "notin";
    if (isList !== Array.isArray(value)) {
      throw new Error(`filter ${field}: operator ${op} ${isList ? "needs an array" : "takes a single value, not an array"}`);
    }
    out[op] = Array.isArray(value) ? value.map(conv) : conv(value);
  }
  if (Object.keys(out).length === 0) throw new Error(`filter ${field}: no operator given`);
  return out;
}

/** Typed filters of one list to `select_filters`, refusing fields the list does not filter on. */
function selectFilters(filters: object, fields: ReadonlySet<string>, what: string, refusal: string): WireFilters {
  const out: WireFilters = {};
  for (const [field, condition] of Object.entries(filters)) {
    if (condition === undefined) continue;
    if (!fields.has(field)) throw new Error(`${what} "${field}" is not ${refusal}; use one of ${[...fields].join(", ")}`);
    out[toSnakeCase(field)] = conditionToWire(field, condition);
  }
  return out;
}

// ---- templates ---------------------------------------------------------------------------

/** Fields usable in template search (spec: Template, select_filters). */
export interface TemplateFilters {
  creatorId?: Condition<number>;
  /** UTC epoch seconds. */
  createdAt?: Condition<number>;
  /** Instances created from the template (popularity). */
  countCreated?: Condition<number>;
  defaultTag?: Condition<string>;
  dockerLoginRepo?: Condition<string>;
  id?: Condition<number>;
  image?: Condition<string>;
  jupDirect?: Condition<boolean>;
  hashId?: Condition<string>;
  name?: Condition<string>;
  /** UTC epoch seconds. */
  recentCreateDate?: Condition<number>;
  /** GB. */
  recommendedDiskSpace?: Condition<number>;
  recommended?: Condition<boolean>;
  sshDirect?: Condition<boolean>;
  tag?: Condition<string>;
  useSsh?: Condition<boolean>;
}

const TEMPLATE_FIELDS: ReadonlySet<string> = new Set([
  "creatorId", "createdAt", "countCreated", "defaultTag", "dockerLoginRepo", "id", "image", "jupDirect",
  "hashId", "name", "recentCreateDate", "recommendedDiskSpace", "recommended", "sshDirect", "tag", "useSsh",
]);

/**
 * Template filters to `select_filters`. Unknown fields are refused: the API answers a filter
 * mistake with an empty result rather than an error (spec: Templates).
 */
export function buildSelectFilters(filters: TemplateFilters): WireFilters {
  return selectFilters(filters, TEMPLATE_FIELDS, "template filter", "searchable");
}

// ---- the paged instance list -----------------------------------------------------------

/** Columns of the paged instance list that the service filters and sorts on (stored on the contract). */
export interface InstanceListFilters {
  id?: Condition<number>;
  label?: Condition<string>;
  actualStatus?: Condition<string>;
  intendedStatus?: Condition<string>;
  gpuName?: Condition<string>;
  machineId?: Condition<number>;
  templateHashId?: Condition<string>;
}

/** A column the instance list can be filtered on. */
export type InstanceListColumn = keyof InstanceListFilters;

const INSTANCE_LIST_FIELDS = new Set<string>(["id", "label", "actualStatus", "intendedStatus", "gpuName", "machineId", "templateHashId"]);

/** Typed instance-list filters to `select_filters`; computed columns (dph_total, ...) are refused by the service. */
export function buildInstanceFilters(filters: InstanceListFilters): WireFilters {
  return selectFilters(filters, INSTANCE_LIST_FIELDS, "instance list filter", "filterable");
}

/** Sort directives to `order_by` (the service appends `id` as the tiebreaker). */
export function buildInstanceOrder(order: ReadonlyArray<[InstanceListColumn, "asc" | "desc"]>): Array<{ col: string; dir: string }> {
  return order.map(([col, dir]) => {
    if (!INSTANCE_LIST_FIELDS.has(col)) throw new Error(`instance list order "${col}" is not a sortable column`);
    return { col: toSnakeCase(col), dir };
  });
}

// ---- offers ------------------------------------------------------------------------------

/** GB to MB as the official CLI converts (x1000); the REST API takes MB. */
export { MB_PER_GB } from "./units";

/** How one offer field is written, checked and sent (units are stated in `unit`). */
export interface OfferFieldSpec {
  /** The service's name of the field. */
  wire: string;
  type: "string" | "number" | "integer" | "boolean";
  /** The unit users give (converted to the service's by `scale`). */
  unit?: string;
  /** Smallest and largest sensible value, in the user's unit: values outside are unit mistakes. */
  min?: number;
  max?: number;
  /** User's unit to the service's (GB to MB, days to seconds). */
  scale?: (v: number) => number;
  /** A string value's form (checked before sending), and the rule's words for a refusal. */
  pattern?: RegExp;
  rule?: string;
  /** The only values the service knows for this field. */
  values?: readonly string[];
  /** The value as the vendor's client encodes it on the wire (driver version `535.86.05` to 535086005). */
  encode?: (v: string) => number;
}

/** Seconds per day: `duration` is filtered in seconds, and the vendor's client takes days (x 86400). */
export const SECONDS_PER_DAY = 24 * 60 * 60;

function secondsOfDays(days: number): number {
  return days * SECONDS_PER_DAY;
}

/** A driver version the vendor's client can encode: three dot-separated parts of 1 to 3 digits. */
export const DRIVER_VERSION_FORM = /^\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/**
 * A driver version as the vendor's client sends it (`numeric_version`): each part padded to 3
 * digits and the whole read as a number, so `535.86.05` is 535086005 and versions order as
 * numbers (the service compares the numeric `driver_vers`; as text, 550.107.02 sorts below
 * 550.54.15).
 */
export function driverVersionNumber(version: string): number {
  if (!DRIVER_VERSION_FORM.test(version)) throw new Error(`driver version ${JSON.stringify(version)} is not of the form 535.86.05`);
  return Number(version.split(".").map((part) => part.padStart(3, "0")).join(""));
}

/**
 * The offer vocabulary: every field a search may name, with its unit and bounds, defined once
 * here and used by `searchOffers`, Instance and Fleet `offer` filters and WorkerGroup
 * `searchParams` (vendor: search offers query fields). Names are camelCase; GB fields are sent
 * in MB.
 */
export const OFFER_VOCABULARY = {
  id: { wire: "id", type: "integer", min: 1 },
  gpuName: { wire: "gpu_name", type: "string" },
  numGpus: { wire: "num_gpus", type: "integer", unit: "GPUs", min: 0, max: 64 },
  gpuRamGb: { wire: "gpu_ram", type: "number", unit: "GB per GPU", min: 0, max: 1_000, scale: mbOfGb },
  gpuTotalRamGb: { wire: "gpu_total_ram", type: "number", unit: "GB over all GPUs", min: 0, max: 10_000, scale: mbOfGb },
  gpuMemBw: { wire: "gpu_mem_bw", type: "number", unit: "GB/s", min: 0 },
  gpuArch: { wire: "gpu_arch", type: "string" },
  computeCap: { wire: "compute_cap", type: "integer", unit: "CUDA compute capability x 100 (890 for 8.9)", min: 100, max: 2_000 },
  cudaMaxGood: { wire: "cuda_max_good", type: "number", unit: "CUDA version, for example 12.4", min: 1, max: 100 },
  /** "535.86.05"; sent as the number 535086005, as the vendor's client encodes it. */
  driverVersion: {
    wire: "driver_version",
    type: "string",
    pattern: DRIVER_VERSION_FORM,
    rule: "a driver version of three parts of 1 to 3 digits, such as \"535.86.05\"",
    encode: driverVersionNumber,
  },
  totalFlops: { wire: "total_flops", type: "number", unit: "TFLOPS", min: 0 },
  dlperf: { wire: "dlperf", type: "number", unit: "DLPerf score", min: 0 },
  dlperfPerDphtotal: { wire: "dlperf_per_dphtotal", type: "number", unit: "DLPerf per $/hour", min: 0 },
  score: { wire: "score", type: "number", unit: "the service's ranking score", min: 0 },
  cpuCores: { wire: "cpu_cores", type: "number", unit: "virtual CPUs", min: 0, max: 4_096 },
  cpuCoresEffective: { wire: "cpu_cores_effective", type: "number", unit: "virtual CPUs of the offer", min: 0, max: 4_096 },
  cpuRamGb: { wire: "cpu_ram", type: "number", unit: "GB", min: 0, max: 100_000, scale: mbOfGb },
  cpuArch: { wire: "cpu_arch", type: "string" },
  diskSpace: { wire: "disk_space", type: "number", unit: "GB", min: 0, max: 1_000_000 },
  diskBw: { wire: "disk_bw", type: "number", unit: "MB/s", min: 0 },
  pcieBw: { wire: "pcie_bw", type: "number", unit: "GB/s", min: 0 },
  inetUp: { wire: "inet_up", type: "number", unit: "Mb/s", min: 0 },
  inetDown: { wire: "inet_down", type: "number", unit: "Mb/s", min: 0 },
  inetUpCost: { wire: "inet_up_cost", type: "number", unit: "$/GB", min: 0 },
  inetDownCost: { wire: "inet_down_cost", type: "number", unit: "$/GB", min: 0 },
  directPortCount: { wire: "direct_port_count", type: "integer", unit: "ports", min: 0, max: 65_535 },
  dphTotal: { wire: "dph_total", type: "number", unit: "$/hour", min: 0, max: 10_000 },
  minBid: { wire: "min_bid", type: "number", unit: "$/hour", min: 0, max: 10_000 },
  storageCost: { wire: "storage_cost", type: "number", unit: "$/GB/month", min: 0 },
  reliability: { wire: "reliability", type: "number", unit: "0..1", min: 0, max: 1 },
  verified: { wire: "verified", type: "boolean" },
  rentable: { wire: "rentable", type: "boolean" },
  rented: { wire: "rented", type: "boolean" },
  external: { wire: "external", type: "boolean" },
  /** Datacenter hosts only ("secure cloud"). */
  datacenter: { wire: "datacenter", type: "boolean" },
  /** 0 consumer host, 1 datacenter. */
  hostingType: { wire: "hosting_type", type: "integer", unit: "0 consumer, 1 datacenter", min: 0, max: 1 },
  staticIp: { wire: "static_ip", type: "boolean" },
  geolocation: { wire: "geolocation", type: "string" },
  machineId: { wire: "machine_id", type: "integer", min: 1 },
  hostId: { wire: "host_id", type: "integer", min: 1 },
  /** The physical cluster the machine is in (an overlay network spans one cluster). */
  clusterId: { wire: "cluster_id", type: "integer", unit: "cluster id", min: 1 },
  /** Days the offer stays available from now; sent as `duration` in seconds (x 86400, as the vendor's client). */
  durationDays: { wire: "duration", type: "number", unit: "days", min: 0, max: 36_500, scale: secondsOfDays },
  pciGen: { wire: "pci_gen", type: "number", unit: "PCIe generation", min: 1, max: 10 },
  hasAvx: { wire: "has_avx", type: "boolean" },
  bwNvlink: { wire: "bw_nvlink", type: "number", unit: "GB/s", min: 0 },
  cpuGhz: { wire: "cpu_ghz", type: "number", unit: "GHz", min: 0, max: 20 },
  flopsPerDphtotal: { wire: "flops_per_dphtotal", type: "number", unit: "TFLOPS per $/hour", min: 0 },
  /** Whether a display is attached to the GPU. */
  gpuDisplayActive: { wire: "gpu_display_active", type: "boolean" },
  /** The offer's share of the machine's GPUs. */
  gpuFrac: { wire: "gpu_frac", type: "number", unit: "0..1", min: 0, max: 1 },
  gpuMaxPower: { wire: "gpu_max_power", type: "number", unit: "W", min: 0, max: 10_000 },
  gpuMaxTemp: { wire: "gpu_max_temp", type: "number", unit: "degrees C", min: 0, max: 200 },
  moboName: { wire: "mobo_name", type: "string" },
  /** The host's Ubuntu release, for example "22.04". */
  ubuntuVersion: { wire: "ubuntu_version", type: "string" },
  verification: { wire: "verification", type: "string", values: ["verified", "unverified", "deverified"] },
  /** Machines that can run VM instances. */
  vmsEnabled: { wire: "vms_enabled", type: "boolean" },
} as const satisfies Record<string, OfferFieldSpec>;

export type OfferField = keyof typeof OFFER_VOCABULARY;

type ValueOf<S extends OfferFieldSpec> = S["type"] extends "string" ? string : S["type"] extends "boolean" ? boolean : number;

/** Offer filters: each field a value (meaning `eq`) or operators; units as `OFFER_VOCABULARY` states. */
export type OfferFilters = { [K in OfferField]?: Condition<ValueOf<(typeof OFFER_VOCABULARY)[K]>> };

/** The offer fields (the vocabulary's names). */
export const OFFER_FILTER_FIELDS = Object.keys(OFFER_VOCABULARY) as OfferField[];

function valueProblem(spec: OfferFieldSpec, v: unknown): string | undefined {
  const unit = spec.unit ? ` (${spec.unit})` : "";
  if (spec.type === "string") {
    if (typeof v !== "string" || v === "") return `must be a non-empty string, got ${JSON.stringify(v)}`;
    if (spec.pattern && !spec.pattern.test(v)) return `must be ${spec.rule ?? `of the form ${String(spec.pattern)}`}, got ${JSON.stringify(v)}`;
    if (spec.values && !spec.values.includes(v)) return `must be one of ${spec.values.join(", ")}, got ${JSON.stringify(v)}`;
    return undefined;
  }
  if (spec.type === "boolean") return typeof v === "boolean" ? undefined : `must be true or false, got ${JSON.stringify(v)}`;
  if (typeof v !== "number" || !Number.isFinite(v)) return `must be a number${unit}, got ${JSON.stringify(v)}`;
  if (spec.type === "integer" && !Number.isInteger(v)) return `must be a whole number${unit}, got ${v}`;
  if (spec.min !== undefined && v < spec.min) return `must be at least ${spec.min}${unit}, got ${v}`;
  if (spec.max !== undefined && v > spec.max) return `must be at most ${spec.max}${unit}, got ${v}`;
  return undefined;
}

/** Why `condition` is not a valid filter on offer field `field` (name, rule and value), or undefined. */
export function offerConditionProblem(field: string, condition: unknown): string | undefined {
  const spec = (OFFER_VOCABULARY as Record<string, OfferFieldSpec>)[field];
  if (!spec) return `"${field}" is not an offer field; use one of ${OFFER_FILTER_FIELDS.join(", ")}`;
  let ops: Record<string, unknown>;
  try {
    ops = conditionToWire(field, condition);
  } catch (error) {
    return (error as Error).message.replace(`filter ${field}: `, "");
  }
  for (const value of Object.values(ops)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      const problem = valueProblem(spec, v);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** The service's name of an offer field or sort key; unknown names are refused. */
export function offerWireName(field: string): string {
  const spec = (OFFER_VOCABULARY as Record<string, OfferFieldSpec>)[field];
  if (!spec) throw new Error(`offer field "${field}" is unknown; use one of ${OFFER_FILTER_FIELDS.join(", ")}`);
  return spec.wire;
}

/** Offer filters to the service's `{field: {op: value}}` form, each checked against the vocabulary. */
export function offerFiltersToWire(filters: OfferFilters): WireFilters {
  const out: WireFilters = {};
  for (const [field, condition] of Object.entries(filters)) {
    if (condition === undefined) continue;
    const problem = offerConditionProblem(field, condition);
    if (problem) throw new Error(`offer filter ${field}: ${problem}`);
    const spec = (OFFER_VOCABULARY as Record<string, OfferFieldSpec>)[field];
    out[spec.wire] = encoded(spec, conditionToWire(field, condition, spec.scale));
  }
  return out;
}

/** Every operand of a field the vendor's client encodes, encoded (checked values only). */
function encoded(spec: OfferFieldSpec, ops: Record<string, unknown>): Record<string, unknown> {
  const { encode } = spec;
  if (!encode) return ops;
  const one = (v: unknown) => (typeof v === "string" ? encode(v) : v);
  return Object.fromEntries(Object.entries(ops).map(([op, v]) => [op, Array.isArray(v) ? v.map(one) : one(v)]));
}

const QUERY_OPS: Readonly<Record<string, string>> = { eq: "=", neq: "!=", lt: "<", lte: "<=", gt: ">", gte: ">=", in: " in ", notin: " notin " };

function queryValue(v: unknown): string {
  if (typeof v === "boolean") return v ? "True" : "False";
  // The query language separates terms by spaces: names with spaces use underscores (RTX_4090).
  if (typeof v === "string") return v.replace(/\s+/g, "_");
  return String(v);
}

/**
 * Offer filters in the vendor's search query language (`gpu_ram>=24 num_gpus=2
 * gpu_name=RTX_4090`), as WorkerGroup `search_params` takes them. The language speaks the
 * CLI's units (GB, days), so no field is scaled here; a driver version is written as its
 * number (`driver_version>=535086005`, as the vendor's examples write it).
 */
export function offerFiltersToQuery(filters: OfferFilters): string {
  const terms: string[] = [];
  for (const [field, condition] of Object.entries(filters)) {
    if (condition === undefined) continue;
    const problem = offerConditionProblem(field, condition);
    if (problem) throw new Error(`offer filter ${field}: ${problem}`);
    const spec = (OFFER_VOCABULARY as Record<string, OfferFieldSpec>)[field];
    const wire = spec.wire;
    // The language speaks the CLI's units, but a driver version is written as its number, as the vendor's examples do.
    for (const [op, value] of Object.entries(encoded(spec, conditionToWire(field, condition)))) {
      const text = Array.isArray(value) ? `[${value.map(queryValue).join(",")}]` : queryValue(value);
      terms.push(`${wire}${QUERY_OPS[op]}${text}`);
    }
  }
  return terms.join(" ");
}

/** The kind of rental an offer search looks for. */
export type OfferType = "on-demand" | "bid" | "reserved";

/** An offer search: typed filters, order, offer type and limit (camelCase, in GB and $/hour; the client converts to the wire's units). */
export interface OfferQuery {
  filters?: OfferFilters;
  /** Sort keys (vocabulary names), for example `[["dphTotal", "asc"]]` or `[["score", "desc"]]`. */
  order?: Array<[OfferField, "asc" | "desc"]>;
  /** Default `on-demand`. */
  type?: OfferType;
  /** Most offers to return. */
  limit?: number;
}

/** The official CLI's implicit filters, for callers that want the same results. */
export const CLI_DEFAULT_OFFER_FILTERS: OfferFilters = { verified: true, rentable: true, rented: false };

/** The vendor client's implicit worker-group search terms (appended unless the search names the field). */
export const WORKER_GROUP_SEARCH_DEFAULTS: Readonly<Record<string, string>> = { verified: "True", rentable: "True", rented: "False" };

/**
 * A worker group's `search_params`: typed offer filters in the query language, or a raw query
 * string kept as given; then the vendor client's defaults `verified=True rentable=True
 * rented=False` for each of those fields the search does not name (a user's term wins).
 */
export function workerGroupSearchParams(search: string | OfferFilters | undefined): string {
  const given = search === undefined ? "" : typeof search === "string" ? search.trim() : offerFiltersToQuery(search);
  const terms = [given];
  for (const [field, value] of Object.entries(WORKER_GROUP_SEARCH_DEFAULTS)) {
    if (!new RegExp(`(^|\\s)${field}\\s*(=|!=|<|>|\\s+in\\s|\\s+notin\\s)`, "i").test(given)) terms.push(`${field}=${value}`);
  }
  return terms.filter((t) => t !== "").join(" ");
}

/** An offer query to the body of `POST /api/v0/bundles/`; fields and sort keys are checked against the vocabulary. */
export function buildOfferQuery(query: OfferQuery): Record<string, unknown> {
  const out: Record<string, unknown> = offerFiltersToWire(query.filters ?? {});
  if (query.order) {
    out.order = query.order.map(([field, dir]) => {
      if (dir !== "asc" && dir !== "desc") throw new Error(`offer order "${field}": direction must be "asc" or "desc", got ${JSON.stringify(dir)}`);
      return [offerWireName(field), dir];
    });
  }
  out.type = query.type ?? "on-demand";
  if (query.limit !== undefined) {
    if (!Number.isInteger(query.limit) || query.limit < 1) throw new Error(`offer query limit must be a positive integer, got ${query.limit}`);
    out.limit = query.limit;
  }
  return out;
}
