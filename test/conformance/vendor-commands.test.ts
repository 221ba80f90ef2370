/**
 * Issue 35 item 2: every command of the vendor's client that creates, changes or deletes
 * something is accounted for in docs/vendor-commands.md, with what declares it here or why it is
 * not offered. The commands come from the committed list (vendor-commands.json), generated from
 * the client's vast.py by parseVendorCommands; with VAST_PY=<path to vast.py> the list itself is
 * checked against that source (UPDATE_VENDOR_COMMANDS=1 rewrites it).
 */
import fs from "node:fs";
import path from "node:path";
import * as pkg from "../../provider";
import { committedList, listOf, LIST_FILE, parseVendorCommands, pythonCodeOnly } from "./vendor-commands";

const PAGE = path.resolve(__dirname, "..", "..", "docs", "vendor-commands.md");

interface Row {
  command: string;
  declaredBy: string;
}

/** The rows of the page's tables whose first cell is a `vastai ...` command. */
function pageRows(text: string): Row[] {
  const rows: Row[] = [];
  for (const line of text.split("\n")) {
    const m = /^\| `vastai ([^`]+)` \|/.exec(line);
    if (!m) continue;
    const cells = line.split(" | ");
    rows.push({ command: m[1], declaredBy: cells[cells.length - 1].replace(/ \|$/, "").trim() });
  }
  return rows;
}

const NOT_OFFERED = /^Not offered: (.+)$/;
/** A backticked name that looks like a resource class or a lookup. */
const EXPORT_NAME = /`((?:[A-Z][A-Za-z]+)|(?:(?:get|search)[A-Z][A-Za-z]*))`/g;

describe("issue 35 item 2: the vendor's write commands, each accounted for", () => {
  const list = committedList();
  const text = fs.readFileSync(PAGE, "utf8");
  const rows = pageRows(text);

  test("35.2 the page lists every write command of the vendor's client once, and no other", () => {
    expect(list.write.length).toBeGreaterThan(0);
    const listed = rows.map((r) => r.command);
    expect(listed.filter((c, i) => listed.indexOf(c) !== i)).toEqual([]);
    expect(list.write.filter((c) => !listed.includes(c))).toEqual([]);
    expect(listed.filter((c) => !list.write.includes(c))).toEqual([]);
  });

  test("35.2 each row names what the package exports, or says why it is not offered", () => {
    const bad: string[] = [];
    for (const { command, declaredBy } of rows) {
      const notOffered = NOT_OFFERED.exec(declaredBy);
      if (notOffered) {
        // A reason, not a placeholder: a sentence of some length.
        if (notOffered[1].trim().length < 30) bad.push(`${command}: no reason given`);
        continue;
      }
      const names = [...declaredBy.matchAll(EXPORT_NAME)].map((m) => m[1]);
      if (names.length === 0) bad.push(`${command}: names no resource or lookup`);
      for (const name of names) if (!(name in pkg)) bad.push(`${command}: ${name} is not exported by pulumi-vastai`);
    }
    expect(bad).toEqual([]);
  });

  test("35.2 the page's counts are its tables'", () => {
    const notOffered = rows.filter((r) => NOT_OFFERED.test(r.declaredBy)).length;
    const m = /\*\*(\d+) are declared here; (\d+) are not offered\.\*\*/.exec(text);
    expect(m).not.toBeNull();
    expect([Number(m![1]), Number(m![2])]).toEqual([rows.length - notOffered, notOffered]);
    expect(text).toContain(`${list.write.length + list.read.length} commands. ${list.write.length} of them create, change or delete`);
    expect(text).toContain(`the other ${list.read.length} only`);
    expect(text).toContain(`at commit \`${list.commit.slice(0, 12)}\``);
  });

  test("35.2 the parser takes decorated functions as the client names them, and skips disabled ones", () => {
    const src = [
      "@parser.command(",
      '    argument("id", help="a \\"quoted\\" id"),',
      '    epilog=deindent("""',
      "        @parser.command( inside a help text",
      '    """),',
      ")",
      "def create__team_role(args):",
      "    pass",
      "",
      "#@parser.command(",
      "#def show__nothing(args):",
      "'''",
      "@parser.command(",
      ")",
      "def vm__copy(args):",
      "'''",
      "@parser.command()",
      "def show__instances(args): pass",
      "@parser.command()",
      "def remove_machine_from_cluster(args): pass",
      "@parser.command()",
      "def set__api_key(args): pass",
    ].join("\n");
    expect(parseVendorCommands(src)).toEqual([
      { name: "create team-role", write: true },
      { name: "show instances", write: false },
      { name: "remove-machine-from-cluster", write: true },
      { name: "set api-key", write: false },
    ]);
    expect(pythonCodeOnly(src).split("\n").length).toBe(src.split("\n").length);
  });

  const source = process.env.VAST_PY;
  (source ? test : test.skip)("35.2 the committed list is the one vast.py gives (VAST_PY)", () => {
    const fresh = listOf(fs.readFileSync(source!, "utf8"), list.source, list.commit);
    if (process.env.UPDATE_VENDOR_COMMANDS === "1") fs.writeFileSync(LIST_FILE, `${JSON.stringify(fresh, null, 2)}\n`);
    expect({ write: list.write, read: list.read }).toEqual({ write: fresh.write, read: fresh.read });
  });
});
