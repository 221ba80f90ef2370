/**
 * `npx pulumi-vastai check-live --max-spend-usd 1` (`npm run check:live` in a checkout): settles
 * the assumptions of checks.ts against the service the key and URL point at, within a spend cap
 * given explicitly, cleans up everything it made (each removal confirmed by a read), and writes a
 * redacted report (no key, no secret: every text passes the client's scrub, and the rented
 * instance's own key is registered as a secret before anything can print it).
 *
 * Exit codes: 0 every check confirmed or not checked; 3 a check was refuted (the package rests on
 * something the service does not do: the report says what it saw); 1 a check failed to run, or a
 * clean-up could not be confirmed (the report names what may be left); 2 bad arguments.
 */
import * as fs from "node:fs";
import { registerSecret, scrub, type VastClient } from "../../client";
import { CHECKS, type Check, type CheckContext, type CheckOutcome } from "./checks";

export interface LiveCheckOptions {
  client: VastClient;
  apiUrl: string;
  maxSpendUsd: number;
  inviteEmail?: string;
  /** Only these checks (ids); default all. */
  only?: readonly string[];
  pollMs?: number;
  waitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** The checks to run (tests); default CHECKS. */
  checks?: readonly Check[];
}

export interface CleanupOutcome {
  what: string;
  id: number;
  /** `removed` only when a read showed it gone. */
  result: "removed" | "left";
  detail: string;
}

export interface LiveCheckReport {
  service: string;
  startedAt: string;
  spendCapUsd: number;
  spendEstimateUsd: number;
  checks: CheckOutcome[];
  cleanup: CleanupOutcome[];
  exitCode: number;
}

/** Largest cap taken: the checks need cents; a typo of 1000 for 1.000 should not be taken. */
export const MAX_SPEND_CAP_USD = 20;

/** Why `--max-spend-usd` is not a cap this command takes, or undefined. */
export function spendCapProblem(value: string | undefined): string | undefined {
  if (value === undefined) return "--max-spend-usd is required: the checks rent the cheapest interruptible instance for a few minutes (for example --max-spend-usd 1)";
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > MAX_SPEND_CAP_USD || value.trim() === "") {
    return `--max-spend-usd must be a number of dollars from 0 to ${MAX_SPEND_CAP_USD} (got ${JSON.stringify(value)})`;
  }
  return undefined;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs the checks one after another, then cleans up; never throws for a check's failure. */
export async function runLiveCheck(options: LiveCheckOptions): Promise<LiveCheckReport> {
  const ctx: CheckContext = {
    client: options.client,
    apiUrl: options.apiUrl,
    sleep: options.sleep ?? realSleep,
    now: options.now ?? Date.now,
    pollMs: options.pollMs ?? 10_000,
    waitMs: options.waitMs ?? 10 * 60_000,
    spendLeftUsd: options.maxSpendUsd,
    spendEstimateUsd: 0,
    made: { instances: [], jobs: [], overlays: [] },
    inviteEmail: options.inviteEmail,
  };
  const startedAt = new Date(ctx.now()).toISOString();
  const checks: CheckOutcome[] = [];
  for (const check of options.checks ?? CHECKS) {
    const head = { id: check.id, assumption: check.assumption, reliedOnBy: check.reliedOnBy };
    if (options.only && !options.only.includes(check.id)) {
      checks.push({ ...head, result: "not checked", detail: "not asked for (--only)" });
      continue;
    }
    try {
      const outcome = await check.run(ctx);
      if (ctx.rented?.instanceKey) registerSecret(ctx.rented.instanceKey);
      checks.push({ ...head, ...outcome, detail: scrub(outcome.detail) });
    } catch (error) {
      if (ctx.rented?.instanceKey) registerSecret(ctx.rented.instanceKey);
      checks.push({ ...head, result: "failed", detail: scrub(`${(error as Error).name}: ${(error as Error).message}`) });
    }
  }
  const cleanup = await cleanUp(ctx);
  const exitCode =
    checks.some((c) => c.result === "failed") || cleanup.some((c) => c.result === "left") ? 1 : checks.some((c) => c.result === "refuted") ? 3 : 0;
  return {
    service: new URL(options.apiUrl).host,
    startedAt,
    spendCapUsd: options.maxSpendUsd,
    spendEstimateUsd: Math.round(ctx.spendEstimateUsd * 1e6) / 1e6,
    checks,
    cleanup,
    exitCode,
  };
}

/** Jobs first (a job acts on the instance), then overlays, then instances; each counted removed only when a read shows it gone. */
async function cleanUp(ctx: CheckContext): Promise<CleanupOutcome[]> {
  const out: CleanupOutcome[] = [];
  for (const id of ctx.made.overlays) {
    out.push(await removal("overlay", id, () => ctx.client.clusters.deleteOverlay(id), async () => (await ctx.client.clusters.overlays()).some((o) => o.id === id)));
  }
  for (const id of ctx.made.jobs) {
    out.push(await removal("scheduled job", id, () => ctx.client.scheduledJobs.delete(id), async () => (await ctx.client.scheduledJobs.list()).some((j) => j.id === id)));
  }
  for (const id of ctx.made.instances) {
    out.push(await removal("instance", id, () => ctx.client.instances.destroy(id), async () => (await ctx.client.instances.get(id)) !== null));
  }
  return out;
}

async function removal(what: string, id: number, remove: () => Promise<unknown>, stillThere: () => Promise<boolean>): Promise<CleanupOutcome> {
  let failure = "";
  // Two tries: a refusal under load (429, 5xx after the client's own retries) gets one more.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await remove();
    } catch (error) {
      failure = (error as Error).message;
    }
    try {
      if (!(await stillThere())) return { what, id, result: "removed", detail: "a read shows it gone" };
    } catch (error) {
      failure = `could not be read back: ${(error as Error).message}`;
    }
  }
  return { what, id, result: "left", detail: scrub(`${failure || "still there after the delete"}; delete it by hand`) };
}

/** The report as a table for a terminal. */
export function reportText(report: LiveCheckReport): string {
  const lines = [`check-live against ${report.service}, ${report.startedAt}; spend cap $${report.spendCapUsd}, estimated spend at most $${report.spendEstimateUsd}`, ""];
  for (const c of report.checks) lines.push(`${c.result.padEnd(11)}  ${c.id}: ${c.assumption}\n             ${c.detail}`);
  if (report.cleanup.length > 0) {
    lines.push("", "Clean-up:");
    for (const c of report.cleanup) lines.push(`  ${c.what} ${c.id}: ${c.result} (${c.detail})`);
  }
  const count = (r: string) => report.checks.filter((c) => c.result === r).length;
  lines.push("", `${count("confirmed")} confirmed, ${count("refuted")} refuted, ${count("not checked")} not checked, ${count("failed")} failed`);
  return lines.join("\n");
}

/** Writes the report as JSON (readable by its owner only: it names the account's objects). */
export function writeReport(file: string, report: LiveCheckReport): void {
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`, { mode: 0o600 });
}
