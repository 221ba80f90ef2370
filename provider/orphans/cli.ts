#!/usr/bin/env node
/**
 * `npx pulumi-vastai orphans [STATE.json ...] [--json] [--delete] [--api-url URL]`: lists the
 * instances and volumes carrying this package's marker that none of the given stack states
 * (`pulumi stack export` files) holds, or every marked object without state, with what they
 * cost per hour. Nothing is deleted without `--delete`. The API key comes from VAST_API_KEY or
 * the key file, as for the providers (never from the command line, where it would show in the
 * process list). Exit status: 0 done, 1 a delete failed, 2 bad arguments or an unreadable state.
 */
import * as fs from "node:fs";
import { parseArgs } from "node:util";
import { createClient } from "../client";
import { resolveConfig } from "../config";
import { deleteOrphans, findOrphans, formatReport, stateRefs } from "./report";

const USAGE = "usage: pulumi-vastai orphans [STATE.json ...] [--json] [--delete] [--api-url URL]";

export async function main(argv: string[], out: (s: string) => void = (s) => process.stdout.write(`${s}\n`)): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: "boolean" }, delete: { type: "boolean" }, "api-url": { type: "string" }, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    out(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const [command, ...files] = parsed.positionals;
  if (parsed.values.help || command !== "orphans") {
    out(command === undefined || parsed.values.help ? USAGE : `unknown command "${command}"\n${USAGE}`);
    return parsed.values.help ? 0 : 2;
  }
  let refs;
  try {
    refs = files.length === 0 ? undefined : stateRefs(files.map((name) => ({ name, text: fs.readFileSync(name, "utf8") })));
  } catch (error) {
    out((error as Error).message);
    return 2;
  }
  let config;
  try {
    config = resolveConfig({ apiUrl: parsed.values["api-url"] });
  } catch (error) {
    out((error as Error).message);
    return 2;
  }
  const client = createClient({ apiKey: config.apiKey, apiUrl: config.apiUrl, runUrl: config.runUrl });
  const orphans = await findOrphans(client, refs);
  const failures = parsed.values.delete ? await deleteOrphans(client, orphans) : [];
  const deleted = parsed.values.delete === true && failures.length === 0;
  if (parsed.values.json) out(JSON.stringify({ orphans, costPerHour: orphans.reduce((s, o) => s + (o.costPerHour ?? 0), 0), deleted, failures }, null, 2));
  else out([formatReport(orphans, deleted), ...failures.map((f) => `delete failed: ${f}`)].join("\n"));
  return failures.length > 0 ? 1 : 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`pulumi-vastai: ${(error as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
