#!/usr/bin/env node
/**
 * `npx pulumi-vastai orphans [state.json ...] [--json] [--delete] [--api-url URL]`: the orphan
 * report (orphans.ts). Credentials as everywhere in the package (provider/config.ts):
 * `VAST_API_KEY` or the vendor client's key file; `VAST_URL` or `--api-url` for the endpoint.
 *
 * Exit codes: 0 done (orphans or not), 1 a delete failed, 2 bad arguments, unreadable state or
 * a failed request. Nothing is deleted without `--delete`.
 */
import { Command, CommanderError } from "commander";
import { createClient, scrub, type VastClient } from "../client";
import { resolveConfig } from "../config";
import { deleteOrphans, findLeftovers, findOrphans, readStackHoldings, type Leftover, type Orphan } from "./orphans";

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env?: Record<string, string | undefined>;
  /** Tests: a client instead of one built from the credentials. */
  client?: VastClient;
}

interface OrphanOptions {
  json?: boolean;
  delete?: boolean;
  apiUrl?: string;
}

const money = (n: number) => `$${n.toFixed(3)}/h`;

function table(orphans: readonly Orphan[]): string {
  const rows = [["kind", "id", "name", "status", "cost", "marker"], ...orphans.map((o) => [o.kind, String(o.id), o.name ?? "", o.status ?? "", money(o.costPerHour), o.marker])];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c])).join("  ").trimEnd()).join("\n");
}

/** The leftovers (orphans.ts) as a closing section: reported, never deleted. */
function leftoverText(leftovers: readonly Leftover[]): string | undefined {
  if (leftovers.length === 0) return undefined;
  const total = leftovers.reduce((sum, l) => sum + l.costPerHour, 0);
  const lines = leftovers.map((l) => `${l.kind} ${l.id}${l.name ? ` (${l.name})` : ""}: ${money(l.costPerHour)}; ${l.why}`);
  return `\nAlso billing, ${money(total)} in all, but not tied to a stack by a marker (never deleted by --delete; check and delete by hand):\n${lines.join("\n")}`;
}

async function orphansCommand(files: string[], options: OrphanOptions, io: CliIo): Promise<number> {
  const holdings = files.length > 0 ? readStackHoldings(files) : undefined;
  const client = io.client ?? createClient(resolveConfig({ apiUrl: options.apiUrl }, { env: io.env ?? process.env }));
  const orphans = await findOrphans(client, holdings);
  const leftovers = await findLeftovers(client, files);
  const more = leftoverText(leftovers);
  const total = orphans.reduce((sum, o) => sum + o.costPerHour, 0);
  const scope = holdings ? `in none of ${files.length} state file(s)` : "marked by this package (no state file given: any of them may belong to a stack)";
  const outcomes = options.delete ? await deleteOrphans(client, orphans) : [];
  const failed = outcomes.filter((o) => !o.ok).length;
  if (options.json) {
    io.out(JSON.stringify({
      stateFiles: files,
      orphans: orphans.map((o) => ({ ...o, ...(options.delete ? { deleted: outcomes.find((d) => d.orphan === o)?.result } : {}) })),
      costPerHour: Number(total.toFixed(6)),
      deleted: options.delete === true,
      leftovers,
    }, null, 2));
    return failed > 0 ? 1 : 0;
  }
  if (orphans.length === 0) {
    io.out(`No orphans: every instance and volume this package made is ${holdings ? "held by a given stack" : "absent"}.`);
    if (more) io.out(more);
    return 0;
  }
  io.out(`${orphans.length} instance(s) and volume(s) ${scope}, costing ${money(total)} in all:\n\n${table(orphans)}\n`);
  if (!options.delete) {
    io.out("Nothing was deleted; run again with --delete to delete these.");
    if (more) io.out(more);
    return 0;
  }
  for (const o of outcomes) io.out(`${o.orphan.kind} ${o.orphan.id}: ${o.result}`);
  io.out(failed > 0 ? `${failed} of ${outcomes.length} could not be deleted.` : `Deleted ${outcomes.length}.`);
  if (more) io.out(more);
  return failed > 0 ? 1 : 0;
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
    .description("List instances and volumes this package made that no given stack state holds, with their cost per hour")
    .argument("[state-files...]", "files written by `pulumi stack export`; none: list every marked object")
    .option("--json", "print JSON for scripts")
    .option("--delete", "delete the orphans listed (nothing is deleted without it)")
    .option("--api-url <url>", "API base URL (default VAST_URL or https://console.vast.ai)")
    .action(async (files: string[], options: OrphanOptions) => {
      code = await orphansCommand(files, options, io);
    });
  try {
    await program.parseAsync(argv as string[], { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    io.err(`pulumi-vastai: ${scrub((error as Error).message)}`);
    return 2;
  }
}

if (require.main === module) {
  void main(process.argv.slice(2), { out: (t) => process.stdout.write(`${t}\n`), err: (t) => process.stderr.write(`${t}\n`) }).then((code) => {
    process.exitCode = code;
  });
}
