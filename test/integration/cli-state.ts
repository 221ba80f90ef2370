/** What the `costs` tests share: a scratch folder of state files, written as `pulumi stack export` writes them, and the CLI run against the test's simulator. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../provider/cli/main";
import type { VastClient } from "../../provider/client";

/** A resource of a state file: its type name (`Fleet`), name, id and outputs. */
export type StateResource = { type: string; name: string; id: string; outputs?: Record<string, unknown> };

/** The URN Pulumi gives a resource of ours in the stack `stack` of the project `proj`. */
export const urnOf = (stack: string, r: Pick<StateResource, "type" | "name">) => `urn:pulumi:${stack}::proj::pulumi-nodejs:dynamic/vastai:${r.type}::${r.name}`;

/** A scratch folder for the file's tests (made before all, removed after), state files written in it, and the CLI. */
export function useCliState(prefix: string, client: () => VastClient) {
  let dir = "";
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return {
    /** The path of `name` in the folder. */
    fileIn: (name: string) => path.join(dir, name),
    /** Writes the export of `stack` holding `resources` as `name` in the folder; returns its path. */
    stateFile(name: string, stack: string, resources: StateResource[]): string {
      const file = path.join(dir, name);
      const all = resources.map((r) => ({ urn: urnOf(stack, r), custom: true, type: `pulumi-nodejs:dynamic/vastai:${r.type}`, id: r.id, outputs: r.outputs ?? {} }));
      fs.writeFileSync(file, JSON.stringify({ version: 3, deployment: { manifest: {}, resources: all } }));
      return file;
    },
    /** Runs the CLI with `args`; its exit code and what it printed. */
    async run(args: string[]): Promise<{ code: number; out: string; err: string }> {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), client: client() });
      return { code, out: out.join("\n"), err: err.join("\n") };
    },
  };
}
