/** What `costs` reports: one row a resource. Apart from costs.ts so the report's text (ends.ts) reads it without a circle. */
/** The kinds the report lists. */
export const COSTED_TYPES = ["Instance", "Fleet", "Volume", "NetworkVolume", "Endpoint"] as const;

/** One resource of a given stack with its costs. */
export interface CostRow {
  /** The stack and project, from the resource's URN. */
  stack: string;
  project: string;
  /** The resource's name in the program. */
  name: string;
  type: (typeof COSTED_TYPES)[number];
  id: string;
  /** $ per hour now; null when the service's rows do not say, or the state file's field it needs could not be read (`unreadable`); 0 when the object is gone. */
  hourlyCost: number | null;
  /** $ charged since the start of the range; null when the state file's field it needs could not be read (`unreadable`). */
  spentUsd: number | null;
  /**
   * What the report could not read from the state file for this row (an encrypted Pulumi
   * secret), naming the file, the resource and the field, and what is unknown for it.
   */
  unreadable?: string;
}
