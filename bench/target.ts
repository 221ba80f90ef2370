/** What the report and its parts share: a target met or missed, and how a time is printed. */

export interface Target {
  name: string;
  pass: boolean;
  detail: string;
}

/** A duration for the table: two decimals under 10 s, one above. */
export const secs = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 1000).toFixed(2)} s`);
