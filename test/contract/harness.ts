/**
 * The package as a user installs it: packed with `npm pack`, installed into a scratch
 * project, and served by Pulumi's own dynamic-provider plugin started in that project.
 * The pack and install (bench/scratch.ts, shared with the benchmark) happen once per source
 * state and are shared by every contract test file and parallel jest workers.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { scratchProject as packAndInstall } from "../../bench/scratch";
import { startProviderPlugin, type ProviderPlugin } from "../../simulator/plugin";

const repo = path.resolve(__dirname, "..", "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

export interface ScratchProject {
  dir: string;
  /** `__provider` text for each resource kind, serialized in the scratch project. */
  serialized: Record<string, string>;
  /** Size in bytes of each serialized provider. */
  sizes: Record<string, number>;
}

let project: ScratchProject | undefined;

export function scratchProject(): ScratchProject {
  if (project) return project;
  ensureBuilt();
  const { dir, serialized } = packAndInstall(repo);
  const sizes = Object.fromEntries(Object.entries(serialized).map(([k, v]) => [k, Buffer.byteLength(v)]));
  project = { dir, serialized, sizes };
  return project;
}

function ensureBuilt() {
  const built = path.join(repo, "dist", "provider", "index.js");
  const newest = newestMtime([path.join(repo, "provider"), path.join(repo, "simulator")]);
  if (!fs.existsSync(built) || fs.statSync(built).mtimeMs < newest) {
    execFileSync(npm, ["run", "build", "--silent"], { cwd: repo, stdio: "pipe" });
  }
}

function newestMtime(dirs: string[]): number {
  let newest = 0;
  for (const dir of dirs) {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (entry.isFile() && entry.name.endsWith(".ts")) {
        newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
      }
    }
  }
  return newest;
}


/** A plugin process running in the scratch project, configured for the given service. */
export async function startPlugin(config: Record<string, string>, env: Record<string, string> = {}): Promise<ProviderPlugin> {
  const { dir } = scratchProject();
  // No credentials in the environment: the plugin must get them from the stack config.
  const plugin = await startProviderPlugin({ cwd: dir, env: { VAST_API_KEY: undefined, VAST_URL: undefined, HOME: dir, ...env } });
  await plugin.configure(config);
  return plugin;
}
