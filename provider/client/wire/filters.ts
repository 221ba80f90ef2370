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

/** Offer fields with their units; any other camelCase field is passed through as snake_case. */
export interface OfferFilters {
  gpuName?: Condition<string>;
  numGpus?: Condition<number>;
  /** GB per GPU (sent as `gpu_ram` in MB). */
  gpuRamGb?: Condition<number>;
  /** GB over all GPUs (sent as `gpu_total_ram` in MB). */
  gpuTotalRamGb?: Condition<number>;
  /** GB (sent as `cpu_ram` in MB). */
  cpuRamGb?: Condition<number>;
  cpuCores?: Condition<number>;
  /** $/hour. */
  dphTotal?: Condition<number>;
  /** 0..1. */
  reliability?: Condition<number>;
  verified?: Condition<boolean>;
  rentable?: Condition<boolean>;
  rented?: Condition<boolean>;
  geolocation?: Condition<string>;
  /** GB. */
  diskSpace?: Condition<number>;
  cudaMaxGood?: Condition<number>;
  computeCap?: Condition<number>;
  /** Mb/s. */
  inetUp?: Condition<number>;
  /** Mb/s. */
  inetDown?: Condition<number>;
  directPortCount?: Condition<number>;
  machineId?: Condition<number>;
  [field: string]: Condition<unknown> | undefined;
}

/** The documented offer fields (others pass through as snake_case). */
export const OFFER_FILTER_FIELDS = [
  "gpuName", "numGpus", "gpuRamGb", "gpuTotalRamGb", "cpuRamGb", "cpuCores", "dphTotal", "reliability", "verified",
  "rentable", "rented", "geolocation", "diskSpace", "cudaMaxGood", "computeCap", "inetUp", "inetDown",
  "directPortCount", "machineId",
] as const satisfies readonly (keyof OfferFilters)[];

/** The kind of rental an offer search looks for. */
export type OfferType = "on-demand" | "bid" | "reserved";

/** An offer search: typed filters, order, offer type and limit (camelCase, in GB and $/hour; the client converts to the wire's units). */
export interface OfferQuery {
  filters?: OfferFilters;
  /** Sort keys (camelCase), for example `[["dphTotal", "asc"]]`. */
  order?: Array<[string, "asc" | "desc"]>;
  /** Default `on-demand`. */
  type?: OfferType;
  /** Most offers to return. */
  limit?: number;
}

/** The official CLI's implicit filters, for callers that want the same results. */
export const CLI_DEFAULT_OFFER_FILTERS: OfferFilters = { verified: true, rentable: true, rented: false };

const GB_FIELDS: Readonly<Record<string, string>> = { gpuRamGb: "gpu_ram", gpuTotalRamGb: "gpu_total_ram", cpuRamGb: "cpu_ram" };

/** An offer query to the body of `POST /api/v0/bundles/`. */
export function buildOfferQuery(query: OfferQuery): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, condition] of Object.entries(query.filters ?? {})) {
    if (condition === undefined) continue;
    const gbField = GB_FIELDS[field];
    const wireField = gbField ?? toSnakeCase(field);
    out[wireField] = conditionToWire(field, condition, gbField ? mbOfGb : undefined);
  }
  if (query.order) out.order = query.order.map(([field, dir]) => [GB_FIELDS[field] ?? toSnakeCase(field), dir]);
  out.type = query.type ?? "on-demand";
  if (query.limit !== undefined) {
    if (!Number.isInteger(query.limit) || query.limit < 1) throw new Error(`offer query limit must be a positive integer, got ${query.limit}`);
    out.limit = query.limit;
  }
  return out;
}
