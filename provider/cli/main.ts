#!/usr/bin/env node
/**
 * `npx pulumi-vastai orphans [state.json ...] [--json] [--delete [--yes]] [--api-url URL]`: the
 * orphan report (orphans.ts). Credentials as everywhere in the package (provider/config.ts):
 * `VAST_API_KEY` or the vendor client's key file; `VAST_URL` or `--api-url` for the endpoint.
 *
 * Safe by default: the report is scoped to the stacks whose exports are given; `--delete`
 * deletes only their orphans (objects made before the export's checkpoint that no export
 * holds), is refused without a state file that scopes it or when the given identities conflict,
 * prints what it will delete and why each is the stack's first (also with `--yes`), and goes
 * ahead only with `--yes` or a "y" typed at a terminal. A delete counts only when a fresh
 * listing no longer shows the object.
 *
 * Exit codes: 0 done (orphans or not), 1 a delete failed or an object is still there after it,
 * 2 bad arguments, an unreadable state file or field (an encrypted secret), a refused or
 * unconfirmed delete, or a failed request. `costs` exits 1 when a field it needs is an
 * encrypted secret: the report names it and leaves that row's figures out (unknown, not zero).
 */
import * as readline from "node:readline/promises";
import { Command, CommanderError } from "commander";
import { createClient, scrub, type VastClient } from "../client";
import { MissingApiKeyError, keyFilePath, resolveConfig } from "../config";
import { costTable, findCosts, readCostedResources, sinceOf } from "./costs";
import { READABLE_EXPORT } from "./export-read";
import { readEnds, withEnds } from "./ends";
import { round6 } from "../resources/kit/costs";
import { reportText, runLiveCheck, spendCapProblem, writeReport } from "./live-check/run";
import { CLOCK_MARGIN_MS, deleteOrphans, findLeftovers, findOrphans, readStackHoldings, type Leftover, type Orphan, type StackHoldings } from "./orphans";

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env?: Record<string, string | undefined>;
  /** Tests: a client instead of one built from the credentials. */
  client?: VastClient;
  /**
   * Asks the user a yes/no question; undefined when no one can answer (no terminal). Default:
   * asks at the terminal when standard input and output are one.
   */
  confirm?: ((question: string) => Promise<boolean>) | undefined;
  /** Tests: this machine's clock in epoch ms (default Date.now). */
  now?: () => number;
  /** Tests: waits between the reads that see deleted objects gone (default a real wait). */
  sleep?: (ms: number) => Promise<void>;
  /** Tests: a fast clock for `check-live`'s waits. */
  liveCheck?: { pollMs?: number; waitMs?: number; sleep?: (ms: number) => Promise<void>; now?: () => number };
}

interface OrphanOptions {
  json?: boolean;
  delete?: boolean;
  yes?: boolean;
  apiUrl?: string;
}

/** A refusal: printed as one line, exit code 2, nothing deleted. */
class Refusal extends Error {}

const money = (n: number) => `$${n.toFixed(3)}/h`;

function table(orphans: readonly Orphan[]): string {
  const rows = [
    ["kind", "id", "name", "status", "cost", "stack", "marker", "created"],
    ...orphans.map((o) => [o.kind, String(o.id), o.name ?? "", o.status ?? "", money(o.costPerHour), o.stack ?? "(earlier release)", o.marker, o.createdAt ?? "(not given)"]),
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c])).join("  ").trimEnd()).join("\n");
}

/** The terminal's confirmation, when standard input and output are a terminal. */
function terminalConfirm(): ((question: string) => Promise<boolean>) | undefined {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return undefined;
  return async (question) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
    try {
      return /^y(es)?$/i.test((await rl.question(question)).trim());
    } finally {
      rl.close();
    }
  };
}

/** Refuses a `--delete` that no given stack scopes, before any request. */
function checkDeleteScope(holdings: StackHoldings | undefined): void {
  if (!holdings) {
    throw new Refusal(
      "--delete needs the state of the stacks whose orphans to delete (files of `pulumi stack export`): without it, any marked object may be another stack's. Nothing was deleted.",
    );
  }
  if (holdings.tags.size === 0) {
    throw new Refusal(
      `--delete: none of the given state files holds a stack identity (their stacks were last updated by an earlier release; run \`pulumi up\` once), so no object can be attributed to them. Nothing was deleted.`,
    );
  }
  if (holdings.conflicts.length > 0) throw new Refusal(`--delete: ${holdings.conflicts.join("; ")}. Nothing was deleted.`);
}

const MARGIN_MIN = CLOCK_MARGIN_MS / 60_000;

/** Why `o` is provably a given stack's orphan: its marker's tag, no holder, its age. */
function provenance(o: Orphan, holdings: StackHoldings): string {
  const given = holdings.stacks.find((s) => s.tag === o.stack);
  const of = given ? `${given.file}${given.ownStack ? ` (stack ${given.ownStack})` : ""}` : "a given export";
  const checkpoint = given?.checkpoint ?? "(unknown)";
  if (o.kind === "scheduledJob") {
    return `acts on instance ${o.instanceId}, an orphan of ${of} listed here; no resource of the given exports holds job ${o.id}; deleted only once that instance is seen gone`;
  }
  return (
    `the tag ${o.stack} of its marker ${o.marker} is that of ${of}; no resource of the given exports holds ${o.kind} ${o.id}; ` +
    `created ${o.createdAt}, at least ${MARGIN_MIN} min before the export's checkpoint ${checkpoint}`
  );
}

function planText(orphans: readonly Orphan[], holdings: StackHoldings): string {
  return orphans.map((o) => `- ${o.kind} ${o.id}: ${provenance(o, holdings)}`).join("\n");
}

/** The leftovers (orphans.ts) as a closing section: reported, never deleted. */
function leftoverText(leftovers: readonly Leftover[]): string | undefined {
  if (leftovers.length === 0) return undefined;
  const total = leftovers.reduce((sum, l) => sum + l.costPerHour, 0);
  const lines = leftovers.map((l) => `${l.kind} ${l.id}${l.name ? ` (${l.name})` : ""}: ${money(l.costPerHour)}; ${l.why}`);
  return `\nAlso billing, ${money(total)} in all, but not tied to a stack by a marker (never deleted by --delete; check and delete by hand):\n${lines.join("\n")}`;
}

function describeStacks(holdings: StackHoldings): string {
  return holdings.stacks
    .map((s) => `${s.file} (${s.tag ? `stack ${s.tag}${s.ownStack ? ` of ${s.ownStack}` : ""}; checkpoint ${s.checkpoint}` : "no stack identity: last updated by an earlier release"})`)
    .join(", ");
}

/** Listed objects of the given stacks that are not orphans of their exports, under their own headings. */
function notProvenText(listed: readonly Orphan[]): string[] {
  const sections: string[] = [];
  const newer = listed.filter((o) => o.attribution === "newer");
  if (newer.length > 0) {
    sections.push(
      `${newer.length} object(s) of the given stacks that no given export holds but that were created after its checkpoint, or less than ${MARGIN_MIN} min before it (the margin for the two clocks): ` +
        `not orphans of that export (a later \`pulumi up\` may hold them), never deleted. Export again after \`pulumi refresh\` to report on them:\n\n${table(newer)}\n`,
    );
  }
  const unknown = listed.filter((o) => o.attribution === "unknownAge");
  if (unknown.length > 0) {
    sections.push(
      `${unknown.length} object(s) of the given stacks that no given export holds but whose creation time the service does not give: ` +
        `they cannot be proved older than the export, so they are never deleted; check them by hand:\n\n${table(unknown)}\n`,
    );
  }
  return sections;
}

async function orphansCommand(files: string[], options: OrphanOptions, io: CliIo): Promise<number> {
  const holdings = files.length > 0 ? readStackHoldings(files, (io.now ?? Date.now)()) : undefined;
  if (options.delete) checkDeleteScope(holdings);
  const client = commandClient(options.apiUrl, io);
  const { listed, otherStacks } = await findOrphans(client, holdings);
  const orphans = listed.filter((o) => o.attribution === "orphan");
  const unattributable = listed.filter((o) => o.attribution === "unattributable");
  const total = listed.reduce((sum, o) => sum + o.costPerHour, 0);
  const leftovers = await findLeftovers(client, files, holdings);
  const more = leftoverText(leftovers);

  let confirmed = false;
  if (options.delete && holdings && orphans.length > 0) {
    const plan = `These ${orphans.length} orphan(s) of the given stacks will be deleted, each provably theirs:\n\n${table(orphans)}\n\n${planText(orphans, holdings)}\n`;
    if (!options.yes) {
      // JSON is for scripts: they confirm with --yes, never at a prompt mixed into the JSON.
      const confirm = options.json ? undefined : "confirm" in io ? io.confirm : terminalConfirm();
      if (!confirm) {
        if (!options.json) io.out(plan.replace("will be deleted", "would be deleted"));
        throw new Refusal(`--delete: confirm with --yes to delete the ${orphans.length} orphan(s) listed (no terminal to ask). Nothing was deleted.`);
      }
      io.out(plan);
      if (!(await confirm(`Delete these ${orphans.length}? [y/N] `))) {
        io.out("Nothing was deleted.");
        return 2;
      }
    } else if (options.json) {
      // Printed before any delete, also with --yes; standard output keeps only the JSON.
      io.err(plan);
    } else {
      io.out(plan);
    }
    confirmed = true;
  }
  const outcomes = confirmed ? await deleteOrphans(client, orphans, { sleep: io.sleep }) : [];
  const failed = outcomes.filter((o) => !o.ok).length;
  if (options.json) {
    io.out(JSON.stringify({
      stateFiles: files,
      stacks: holdings?.stacks ?? [],
      conflicts: holdings?.conflicts ?? [],
      orphans: listed.map((o) => ({
        ...o,
        ...(o.attribution === "orphan" && holdings ? { why: provenance(o, holdings) } : {}),
        ...(confirmed && o.attribution === "orphan" ? { deleted: outcomes.find((d) => d.orphan === o)?.result, seenGone: outcomes.find((d) => d.orphan === o)?.ok ?? false } : {}),
      })),
      otherStacks,
      costPerHour: Number(total.toFixed(6)),
      deleted: confirmed,
      leftovers,
    }, null, 2));
    return failed > 0 ? 1 : 0;
  }
  const others = otherStacks > 0 ? `\n${otherStacks} marked object(s) of stacks not given were left out (never listed or deleted).` : "";
  if (!holdings) {
    if (listed.length === 0) {
      io.out("No marked objects: this package made no instance or volume that still exists.");
      if (more) io.out(more);
      return 0;
    }
    io.out(`${listed.length} instance(s) and volume(s) marked by this package, costing ${money(total)} in all (no state file given: any of them may belong to a stack, so none is deleted):\n\n${table(listed)}\n`);
    io.out("Give the `pulumi stack export` files of your stacks to see their orphans.");
    if (more) io.out(more);
    return 0;
  }
  io.out(`Stacks: ${describeStacks(holdings)}.`);
  for (const c of holdings.conflicts) io.out(`Warning: ${c}. --delete is refused until then.`);
  if (listed.length === 0) {
    io.out(`No orphans: every instance and volume of the given stacks is held by one of them.${others}`);
    if (more) io.out(more);
    return 0;
  }
  if (orphans.length > 0 && !confirmed) {
    io.out(`${orphans.length} orphan(s) of the given stacks, in none of ${files.length} state file(s), costing ${money(orphans.reduce((s, o) => s + o.costPerHour, 0))} in all:\n\n${table(orphans)}\n`);
  }
  for (const section of notProvenText(listed)) io.out(section);
  if (unattributable.length > 0) {
    io.out(
      `${unattributable.length} object(s) marked by an earlier release that no given stack holds, costing ${money(unattributable.reduce((s, o) => s + o.costPerHour, 0))} (their marker names no stack, so they may be another stack's; never deleted here):\n\n${table(unattributable)}\n`,
    );
  }
  if (others) io.out(others.trim());
  if (!confirmed) {
    io.out(orphans.length > 0 ? "Nothing was deleted; run again with --delete --yes to delete the orphans of the given stacks." : "Nothing to delete.");
    if (more) io.out(more);
    return 0;
  }
  for (const o of outcomes) io.out(`${o.orphan.kind} ${o.orphan.id}: ${o.result}`);
  const gone = outcomes.length - failed;
  io.out(
    failed > 0
      ? `${gone} of ${outcomes.length} seen gone; ${failed} not deleted or still present (named above).`
      : `Deleted ${outcomes.length}. Each is gone from a fresh listing.`,
  );
  if (more) io.out(more);
  return failed > 0 ? 1 : 0;
}

interface CostOptions {
  json?: boolean;
  since?: string;
  apiUrl?: string;
}

/** `costs`: hourly cost and spend to date per stack and resource (costs.ts). */
async function costsCommand(files: string[], options: CostOptions, io: CliIo): Promise<number> {
  if (files.length === 0) throw new Refusal("costs: give the `pulumi stack export` files of the stacks to report on.");
  const held = readCostedResources(files);
  const since = sinceOf(options.since, Date.now());
  const client = commandClient(options.apiUrl, io);
  // With when each object stops or expires, and what it will have cost by then (ends.ts).
  const rows = withEnds(await findCosts(client, held, since), readEnds(files), Date.now());
  const hourlyCost = round6(rows.reduce((s, r) => s + (r.hourlyCost ?? 0), 0));
  const spentUsd = round6(rows.reduce((s, r) => s + (r.spentUsd ?? 0), 0));
  // What the state files did not show (encrypted secrets): named, left out of the totals, exit 1.
  const unreadable = rows.flatMap((r) => (r.unreadable === undefined ? [] : [r.unreadable]));
  const uncounted = rows.filter((r) => r.spentUsd === null).length;
  const code = unreadable.length > 0 ? 1 : 0;
  if (options.json) {
    io.out(JSON.stringify({ since, resources: rows, total: { hourlyCost, spentUsd }, unreadable }, null, 2));
    return code;
  }
  if (rows.length === 0) {
    io.out(`No Instance, Fleet, Volume, NetworkVolume or Endpoint in ${files.length} state file(s).`);
    return 0;
  }
  const without = uncounted > 0 ? ` (without ${uncounted} resource${uncounted === 1 ? "" : "s"} whose figures could not be read)` : "";
  const notes =
    unreadable.length > 0
      ? `\n\nNot read from the state files:\n${unreadable.map((u) => `- ${u}`).join("\n")}\nGive exports that show them: \`${READABLE_EXPORT}\`.`
      : "";
  io.out(`${costTable(rows)}

In all${without}: $${hourlyCost.toFixed(3)}/h now; $${spentUsd.toFixed(3)} charged since ${new Date(since * 1000).toISOString()}.${notes}`);
  return code;
}

/**
 * The client of a command. The key and URL come from the environment (`VAST_API_KEY`, `VAST_URL`)
 * or the vendor client's key file: a command runs outside Pulumi and reads no stack
 * configuration, so a missing key says so and how to hand it the stack's key.
 */
function commandClient(apiUrl: string | undefined, io: CliIo): VastClient {
  if (io.client) return io.client;
  const env = io.env ?? process.env;
  try {
    return createClient(resolveConfig({ apiUrl }, { env, homeDir: env.HOME }));
  } catch (error) {
    if (!(error instanceof MissingApiKeyError)) throw error;
    throw new Error(
      `No Vast.ai API key found: this command reads the VAST_API_KEY environment variable or the file ${keyFilePath(env.HOME ?? "~")}, ` +
        `not the stack configuration. To use a stack's key, give this command's output in VAST_API_KEY: pulumi config get vastai:apiKey --stack <stack>`,
      { cause: error },
    );
  }
}

interface LiveCheckCliOptions {
  maxSpendUsd?: string;
  report: string;
  inviteEmail?: string;
  only?: string;
  apiUrl?: string;
}

/** `check-live` (live-check/run.ts): refused without an explicit spend cap, before any request. */
async function checkLiveCommand(options: LiveCheckCliOptions, io: CliIo): Promise<number> {
  const problem = spendCapProblem(options.maxSpendUsd);
  if (problem) throw new Refusal(`check-live: ${problem}`);
  const client = commandClient(options.apiUrl, io);
  const report = await runLiveCheck({
    client,
    apiUrl: client.apiUrl,
    maxSpendUsd: Number(options.maxSpendUsd),
    inviteEmail: options.inviteEmail,
    only: options.only?.split(",").map((s) => s.trim()).filter((s) => s !== ""),
    ...io.liveCheck,
  });
  writeReport(options.report, report);
  io.out(`${reportText(report)}
Report: ${options.report}`);
  return report.exitCode;
}

/** Runs the command line; resolves the exit code. Errors are printed as one line, never a stack trace. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let code = 0;
  const program = new Command("pulumi-vastai")
    .description("Tools of the pulumi-vastai package")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });
  program
    .command("orphans")
    .description("List instances and volumes the given stacks made that none of them holds, with their cost per hour")
    .argument("[state-files...]", "files written by `pulumi stack export`; none: list every marked object (and delete nothing)")
    .option("--json", "print JSON for scripts")
    .option("--delete", "delete the given stacks' orphans (needs state files; asks first, or --yes)")
    .option("--yes", "with --delete: delete without asking")
    .option("--api-url <url>", "API base URL (default VAST_URL or https://console.vast.ai)")
    .action(async (files: string[], options: OrphanOptions) => {
      code = await orphansCommand(files, options, io);
    });
  program
    .command("costs")
    .description("Show what each resource of the given stacks costs per hour now and has cost to date")
    .argument("[state-files...]", "files written by `pulumi stack export`")
    .option("--json", "print JSON for scripts")
    .option("--since <date>", "start of the spend to date: ISO 8601 or Unix seconds (default 90 days back)")
    .option("--api-url <url>", "API base URL (default VAST_URL or https://console.vast.ai)")
    .action(async (files: string[], options: CostOptions) => {
      code = await costsCommand(files, options, io);
    });
  program
    .command("check-live")
    .description("Settle the package's assumptions about the live service with the cheapest calls, within a spend cap; cleans up and writes a redacted report")
    .option("--max-spend-usd <dollars>", "required: the most the checks may spend (they rent the cheapest interruptible instance for minutes)")
    .option("--report <file>", "where to write the JSON report", "check-live-report.json")
    .option("--invite-email <address>", "send one team invitation to this address (the invite check is skipped without it)")
    .option("--only <ids>", "run only these checks (comma-separated ids)")
    .option("--api-url <url>", "API base URL (default VAST_URL or https://console.vast.ai)")
    .action(async (options: LiveCheckCliOptions) => {
      code = await checkLiveCommand(options, io);
    });
  try {
    await program.parseAsync(argv as string[], { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof Refusal) {
      io.err(`pulumi-vastai ${/^(costs|check-live):/.test(error.message) ? "" : "orphans: "}${error.message}`);
      return 2;
    }
    io.err(`pulumi-vastai: ${scrub((error as Error).message)}`);
    return 2;
  }
}

if (require.main === module) {
  void main(process.argv.slice(2), { out: (t) => process.stdout.write(`${t}\n`), err: (t) => process.stderr.write(`${t}\n`) }).then((code) => {
    process.exitCode = code;
  });
}
