/**
 * What one step (preview, up, destroy) did to each resource, and a table that shows several
 * steps. The offline engine reports in these terms; so does the demo when it runs the CLI.
 */

export type Outcome = "created" | "updated" | "replaced" | "deleted" | "unchanged" | "failed";

/** What a step did to one resource: its type, name and outcome. */
export interface ResourceOutcome {
  /** Resource type without the package prefix, e.g. `Template`. */
  type: string;
  /** The resource's logical name in the program. */
  name: string;
  /** In a preview: what `up` would do. */
  outcome: Outcome;
  /**
   * After `up`: the resource's output properties that are secret (secret inputs and
   * `additionalSecretOutputs`), as the engine would store them encrypted.
   */
  secretOutputs?: string[];
  /** Deleted from the stack but left on the service (`retainOnDelete: true`). */
  retained?: boolean;
  /** Why the step failed for this resource (outcome `failed`). */
  error?: string;
}

/** What a preview, up or destroy did: each resource's outcome and the stack outputs. */
export interface StepReport {
  outcomes: ResourceOutcome[];
  /** Stack outputs after the step, as plain values (empty after destroy; known ones only in a preview). */
  outputs: Record<string, unknown>;
  /** Names of the stack outputs that are secret (`pulumi stack output` would hide them). */
  secretOutputs: string[];
}

/** One row of a step's report table. */
export interface StepRow {
  title: string;
  outcomes: ResourceOutcome[];
  ms: number;
}

/**
 * A step that failed part-way: `report` says what was done (the resources created, updated or
 * deleted before the failure), which resources failed (outcome `failed`, with `error`), and the
 * message names each failed resource as `Type name`. State keeps what may exist on the service,
 * so a later `destroy` removes it.
 */
export class StepFailedError extends Error {
  constructor(
    readonly step: "preview" | "up" | "destroy",
    readonly report: StepReport,
    readonly causes: unknown[],
  ) {
    const failed = report.outcomes.filter((o) => o.outcome === "failed");
    const done = report.outcomes.filter((o) => o.outcome !== "failed" && o.outcome !== "unchanged");
    const lines = failed.length > 0 ? failed.map((o) => `  ${o.type} ${o.name}: ${o.error}`) : causes.map((c) => `  ${messageOf(c)}`);
    super(
      [
        `${step} failed:`,
        ...lines,
        `done before the failure: ${done.length > 0 ? done.map((o) => `${o.type} ${o.name} ${o.outcome}`).join(", ") : "nothing"}`,
      ].join("\n"),
    );
    this.name = "StepFailedError";
  }
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The type token's last part: `pulumi-nodejs:dynamic/vastai:Template` -> `Template`. */
export function shortType(type: string): string {
  return type.slice(type.lastIndexOf(":") + 1);
}

/**
 * Types the package registers for its own bookkeeping (the stack identity every resource
 * depends on), not the user's: reports leave them out.
 */
export const BOOKKEEPING_TYPES: readonly string[] = ["StackIdentity"];

/**
 * Folds a step's raw operations into one outcome per resource (a replace has several ops),
 * leaving out the package's bookkeeping resources.
 */
export function mergeOutcomes(ops: ResourceOutcome[]): ResourceOutcome[] {
  const rank: Record<Outcome, number> = { unchanged: 0, updated: 1, created: 2, deleted: 2, replaced: 3, failed: 4 };
  const byKey = new Map<string, ResourceOutcome>();
  for (const op of ops) {
    if (BOOKKEEPING_TYPES.includes(op.type)) continue;
    const key = `${op.type}::${op.name}`;
    const seen = byKey.get(key);
    if (!seen || rank[op.outcome] > rank[seen.outcome]) byKey.set(key, op);
  }
  return [...byKey.values()];
}

/**
 * One row per step, one column per resource (in the order resources first appear):
 *
 *   step    SshKey laptop  Template pytorch  Instance gpu  time
 *   1. up   created        created           created       2.7 s
 */
export function formatTable(rows: StepRow[]): string {
  const columns: string[] = [];
  for (const row of rows) {
    for (const o of row.outcomes) {
      const label = `${o.type} ${o.name}`;
      if (!columns.includes(label)) columns.push(label);
    }
  }
  const header = ["step", ...columns, "time"];
  const body = rows.map((row) => [
    row.title,
    ...columns.map((label) => row.outcomes.find((o) => `${o.type} ${o.name}` === label)?.outcome ?? "-"),
    `${(row.ms / 1000).toFixed(1)} s`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
}
