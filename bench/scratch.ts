/**
 * The package as a user installs it: packed, installed into a scratch project under the
 * system's temporary directory (reused while the package is unchanged), with the `__provider`
 * text of every resource serialized there by Pulumi, as a user's program would.
 */
import { execFileSync } from "child_process";
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

export interface Scratch {
  dir: string;
  /** `__provider` text per resource kind. */
  serialized: Record<string, string>;
  /** Time to pack and install, ms (0 when an earlier install was reused). */
  installMs: number;
}

/** The checkout this benchmark belongs to. */
export function repoRoot(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, "utf8")).name === "pulumi-vastai") return dir;
  }
  throw new Error("cannot find the pulumi-vastai checkout above " + __dirname);
}

/**
 * Packs the checkout and installs it into a scratch project shared by the benchmark and the
 * contract tests (keyed by the tarball's hash, so an unchanged package is installed once).
 * Parallel callers (jest workers) wait on a lock directory instead of installing twice.
 */
export function scratchProject(repo = repoRoot()): Scratch {
  const packDir = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-pack-"));
  try {
    const out = execFileSync(npm, ["pack", "--silent", "--ignore-scripts", "--pack-destination", packDir], { cwd: repo, encoding: "utf8" });
    const tarball = path.join(packDir, out.trim().split("\n").pop()!);
    const hash = createHash("sha256").update(fs.readFileSync(tarball)).digest("hex").slice(0, 16);
    const dir = path.join(os.tmpdir(), `vastai-scratch-${hash}`);
    const ready = path.join(dir, ".ready");
    const lock = `${dir}.lock`;
    let installMs = 0;
    while (!fs.existsSync(ready)) {
      try {
        fs.mkdirSync(lock);
      } catch {
        waitMs(500); // another process is installing
        continue;
      }
      try {
        if (fs.existsSync(ready)) break;
        const started = performance.now();
        install(dir, tarball);
        installMs = performance.now() - started;
      } finally {
        fs.rmSync(lock, { recursive: true, force: true });
      }
    }
    const serialized = JSON.parse(fs.readFileSync(path.join(dir, "providers.json"), "utf8")) as Record<string, string>;
    return { dir, serialized, installMs };
  } finally {
    fs.rmSync(packDir, { recursive: true, force: true });
  }
}

function waitMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function install(dir: string, tarball: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(tarball, path.join(dir, "pulumi-vastai.tgz"));
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "scratch-stack", private: true, dependencies: { "pulumi-vastai": "file:pulumi-vastai.tgz" } }),
  );
  execFileSync(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: "pipe" });
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
