/**
 * Units: the REST API counts GPU and CPU memory in MB where users (and the vendor's CLI)
 * speak GB. Conversion happens here and nowhere above the client.
 */

/** MB per GB, as the vendor's CLI converts. */
export const MB_PER_GB = 1000;

/** GB to the API's MB. */
export function mbOfGb(gb: number): number {
  return gb * MB_PER_GB;
}

/** The API's MB to GB, one decimal; null when the API has no value. */
export function gbOfMb(mb: number | null | undefined): number | null {
  return typeof mb === "number" ? Math.round((mb / MB_PER_GB) * 10) / 10 : null;
}

/** The service's times (epoch seconds) to ISO 8601; strings pass through; undefined for anything else. */
export function isoOfEpochSeconds(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return new Date(value * 1000).toISOString();
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Unix seconds of a time the service sends as a number or as text; undefined when unreadable. */
export function epochSecondsOf(value: number | string | null | undefined): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string" || value.trim() === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms / 1000;
}
