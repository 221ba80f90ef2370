/**
 * The package as a user installs it: packed with `npm pack`, installed into a scratch
 * project, and served by Pulumi's own dynamic-provider plugin started in that project.
 * The pack and install happen once per source state and are shared by every contract
 * test file (and by parallel jest workers) through a directory keyed by the tarball hash.
 */
import { execFileSync } from "child_process";
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
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
  const packDir = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-pack-"));
  const out = execFileSync(npm, ["pack", "--silent", "--ignore-scripts", "--pack-destination", packDir], { cwd: repo, encoding: "utf8" });
  const tarball = path.join(packDir, out.trim().split("\n").pop()!);
  const hash = createHash("sha256").update(fs.readFileSync(tarball)).digest("hex").slice(0, 16);
  const dir = path.join(os.tmpdir(), `vastai-contract-${hash}`);
  const ready = path.join(dir, ".ready");
  const lock = `${dir}.lock`;
  while (!fs.existsSync(ready)) {
    try {
      fs.mkdirSync(lock);
    } catch {
      waitMs(500); // another worker is installing
      continue;
    }
    try {
      if (!fs.existsSync(ready)) install(dir, tarball);
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
  fs.rmSync(packDir, { recursive: true, force: true });
  const serialized = JSON.parse(fs.readFileSync(path.join(dir, "providers.json"), "utf8")) as Record<string, string>;
  const sizes = Object.fromEntries(Object.entries(serialized).map(([k, v]) => [k, Buffer.byteLength(v)]));
  project = { dir, serialized, sizes };
  return project;
}

function install(dir: string, tarball: string) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(tarball, path.join(dir, "pulumi-vastai.tgz"));
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "scratch-stack", private: true, dependencies: { "pulumi-vastai": "file:pulumi-vastai.tgz" } }),
  );
  execFileSync(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: "pipe" });
  // Serialize each provider from the installed package, as a user's program would.
  const script = `
    const pulumi = require("@pulumi/pulumi");
    const { providers } = require("pulumi-vastai");
    (async () => {
      const out = {};
      for (const [kind, p] of Object.entries(providers)) {
        out[kind] = (await pulumi.runtime.serializeFunction(() => p, { allowSecrets: true })).text;
      }
      require("fs").writeFileSync("providers.json", JSON.stringify(out));
    })().catch((e) => { console.error(e); process.exit(1); });`;
  execFileSync(process.execPath, ["-e", script], { cwd: dir, stdio: "pipe" });
  fs.writeFileSync(path.join(dir, ".ready"), "");
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

function waitMs(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** A plugin process running in the scratch project, configured for the given service. */
export async function startPlugin(config: Record<string, string>, env: Record<string, string> = {}): Promise<ProviderPlugin> {
  const { dir } = scratchProject();
  // No credentials in the environment: the plugin must get them from the stack config.
  const plugin = await startProviderPlugin({ cwd: dir, env: { VAST_API_KEY: undefined, VAST_URL: undefined, HOME: dir, ...env } });
  await plugin.configure(config);
  return plugin;
}
