/**
 * The commands of the vendor's command-line client (`vast.py` of vast-ai/vast-cli), read from its
 * source: every function decorated with `@parser.command(...)` is a command, named as the client
 * names it (`create__team_role` is `create team-role`, `remove_machine_from_cluster` is
 * `remove-machine-from-cluster`). Decorators inside comments or string literals (the source
 * keeps a few disabled commands in a triple-quoted string) are not commands.
 *
 * A command is a write (it creates, changes or deletes something on the service) unless its verb
 * is `show` or `search`, or it is one of READ_COMMANDS. `vendor-commands.json` holds the lists this
 * gives for vast.py at the commit named there and for the packaged client the conformance suite
 * pins; `docs/vendor-commands.md` accounts for every write in either.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** Commands that neither create, change nor delete anything on the service, with why. */
export const READ_COMMANDS: Readonly<Record<string, string>> = {
  "ssh-url": "prints an instance's SSH address",
  "scp-url": "prints an instance's scp address",
  reports: "reads a machine's reports",
  logs: "asks for an instance's logs and prints them (the PUT only requests the upload)",
  "get endpt-logs": "reads an endpoint's logs",
  "get wrkgrp-logs": "reads a worker group's logs",
  "tfa status": "reads the account's two-factor methods",
  "set api-key": "writes the key into the local configuration file only",
  // Only in the packaged client (PyPI vastai, vastai/cli/commands/):
  "get endpt-workers": "reads an endpoint's workers",
  "dump-logs": "bundles a machine's diagnostics into a local file",
  "set role": "chooses which commands the client's help shows (a local file)",
  update: "updates the client itself",
  uninstall: "removes the client itself",
  repl: "starts the client's interactive shell",
};

export interface VendorCommand {
  /** As typed after `vastai`, e.g. `create team-role`. */
  name: string;
  /** Creates, changes or deletes something on the service. */
  write: boolean;
}

export interface VendorCommandList {
  source: string;
  commit: string;
  write: string[];
  read: string[];
  /** The packaged client the conformance suite runs (scripts/vendor-client.sh), which keeps its commands in vastai/cli/commands/. */
  pinned: { package: string; version: string; write: string[]; read: string[] };
}

export const LIST_FILE = path.join(__dirname, "vendor-commands.json");

/** The source with comments and string literals blanked (line breaks kept), so only code is left. */
export function pythonCodeOnly(src: string): string {
  let out = "";
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === "#") {
      while (i < src.length && src[i] !== "\n") {
        out += " ";
        i++;
      }
      continue;
    }
    if (c === '"' || c === "'") {
      const quote = src.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      out += " ".repeat(quote.length);
      i += quote.length;
      while (i < src.length && !src.startsWith(quote, i)) {
        if (quote.length === 1 && src[i] === "\n") break;
        const width = src[i] === "\\" && i + 1 < src.length ? 2 : 1;
        for (const ch of src.slice(i, i + width)) out += ch === "\n" ? "\n" : " ";
        i += width;
      }
      if (src.startsWith(quote, i)) {
        out += " ".repeat(quote.length);
        i += quote.length;
      }
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/** `create__team_role` -> `create team-role`, as the client's `apwrap.command` names it. */
export function commandName(functionName: string): string {
  const dashed = functionName.replace(/_/g, "-");
  const at = dashed.indexOf("--");
  return at < 0 ? dashed : `${dashed.slice(0, at)} ${dashed.slice(at + 2)}`;
}

/** Every command of the client's source, in source order. */
export function parseVendorCommands(src: string): VendorCommand[] {
  const code = pythonCodeOnly(src);
  const commands: VendorCommand[] = [];
  const decorator = /^@parser\.command\(/gm;
  for (let m = decorator.exec(code); m; m = decorator.exec(code)) {
    const def = /^def (\w+)\(/m.exec(code.slice(m.index));
    if (!def) throw new Error(`@parser.command at offset ${m.index} decorates no function`);
    const name = commandName(def[1]);
    const verb = name.split(" ")[0];
    commands.push({ name, write: !(verb === "show" || verb === "search" || name in READ_COMMANDS) });
  }
  return commands;
}

/** The committed list (generated from the source it names). */
export function committedList(): VendorCommandList {
  return JSON.parse(fs.readFileSync(LIST_FILE, "utf8")) as VendorCommandList;
}

/** The write and read commands of a source, in source order. */
export function listOf(src: string): { write: string[]; read: string[] } {
  const commands = parseVendorCommands(src);
  return { write: commands.filter((c) => c.write).map((c) => c.name), read: commands.filter((c) => !c.write).map((c) => c.name) };
}

/** The command modules of the packaged client installed in `python`'s environment, joined in file-name order. */
export function packagedClientSource(python: string): string {
  const probe = spawnSync(python, ["-c", "import importlib.util as u; print(u.find_spec('vastai').submodule_search_locations[0])"], { encoding: "utf8" });
  if (probe.status !== 0) throw new Error(`cannot locate the vastai package: ${probe.stderr}`);
  const dir = path.join(probe.stdout.trim(), "cli", "commands");
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".py"))
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
    .join("\n");
}
