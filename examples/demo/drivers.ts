/**
 * The two ways to run the quickstart program for the demo: the Pulumi CLI when it is
 * installed, otherwise the offline engine with Pulumi's own dynamic-provider plugin.
 */
import * as fs from "fs";
import * as path from "path";
import { OfflineEngine, startProviderPlugin } from "pulumi-vastai/testing";
import { CliEngine } from "./cli-engine";
import type { Driver } from "./scenario";

/** The checkout's root: the nearest directory above `from` whose package.json is this package's. */
export function repoRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, "utf8")).name === "pulumi-vastai") return dir;
    if (path.dirname(dir) === dir) throw new Error(`no pulumi-vastai checkout above ${from}`);
  }
}

/** The `name:` and `main:` of a Pulumi.yaml (enough of YAML for this one file). */
export function readProject(dir: string): { name: string; main: string } {
  const text = fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8");
  const field = (key: string) => new RegExp(`^${key}:\\s*(\\S+)\\s*$`, "m").exec(text)?.[1];
  const name = field("name");
  if (!name) throw new Error(`${path.join(dir, "Pulumi.yaml")} has no name`);
  return { name, main: field("main") ?? "." };
}

/** With the CLI `command`: a throwaway stack of the root project on a local file backend. */
export async function cliDriver(root: string, project: { name: string; main: string }, command: string): Promise<Driver> {
  // A name of its own, so the stack settings file it writes (Pulumi.<stack>.yaml, removed
  // afterwards) cannot be one of the user's.
  const engine = await CliEngine.create(root, project.name, `vastai-demo-${process.pid}`, compiledProgram(project), command);
  return {
    up: (config, secretKeys) => engine.up(config, secretKeys),
    destroy: () => engine.destroy(),
    close: () => engine.close(),
  };
}

/** The compiled quickstart program (next to this file's compiled form), run afresh on each call as `pulumi up` does. */
function compiledProgram(project: { main: string }): () => Promise<Record<string, unknown>> {
  const programFile = require.resolve(path.join(__dirname, "..", path.basename(project.main)));
  return async () => {
    delete require.cache[programFile];
    return require(programFile);
  };
}

/**
 * Without the CLI: the compiled quickstart program (next to this file's compiled form) under
 * Pulumi's mocks, its resources served by the dynamic-provider plugin started in the checkout.
 */
export async function offlineDriver(root: string, project: { name: string; main: string }): Promise<Driver> {
  // Credentials come from the stack configuration only, as they would for a user's stack.
  const startPlugin = () =>
    startProviderPlugin({ cwd: root, env: { VAST_API_KEY: undefined, VAST_URL: undefined, VAST_RUN_URL: undefined } });
  const engine = new OfflineEngine(startPlugin, { project: project.name, stack: "demo" });
  const program = compiledProgram(project);
  return {
    up: (config, secretKeys) => engine.up(program, config, secretKeys),
    destroy: () => engine.destroy(),
    close: async () => {},
  };
}
