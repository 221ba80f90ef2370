/**
 * Issue 25, the first hour of a user, on the packed package:
 *
 * - item 5: the provider alone installs without the simulator's peers and without warnings
 *   (no EBADENGINE on Node 20), ships its LICENSE, and its README links only to files it ships;
 * - item 4: a project made the way `pulumi new typescript` makes one (its exact tsconfig:
 *   commonjs, moduleResolution node, no skipLibCheck) type-checks imports of every subpath;
 * - item 3: that project runs a jest test of its program with the testing kit under the
 *   jest.config.js that docs/testing.md shows (plain jest: no
 *   --experimental-vm-modules), a lookup included, and sees the options of item 1 honoured.
 *
 * Installs go to the system's temporary directory, keyed by the tarball's hash, and are reused
 * while the package is unchanged.
 */
import { execFileSync, spawnSync } from "child_process";
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ensureBuilt } from "../contract/harness";
import { PEER_INSTALL } from "../../simulator/peers";

const repo = path.resolve(__dirname, "..", "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const rootPkg = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
const dev = (name: string) => rootPkg.devDependencies[name];

/** `pulumi new typescript`'s tsconfig.json, as that template writes it. */
const PULUMI_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

let tarball: string;
let hash: string;
afterAll(() => tarball && fs.rmSync(path.dirname(tarball), { recursive: true, force: true }));

beforeAll(() => {
  ensureBuilt();
  const packDir = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-firsthour-pack-"));
  const out = execFileSync(npm, ["pack", "--silent", "--ignore-scripts", "--pack-destination", packDir], { cwd: repo, encoding: "utf8" });
  tarball = path.join(packDir, out.trim().split("\n").pop()!);
  hash = createHash("sha256").update(fs.readFileSync(tarball)).digest("hex").slice(0, 16);
}, 600_000);

/** A project with this package.json and the tarball installed; the install's output is kept. */
function project(kind: string, pkg: Record<string, unknown>): { dir: string; log: string } {
  const dir = path.join(os.tmpdir(), `vastai-${kind}-${hash}`);
  const logFile = path.join(dir, "install.log");
  if (!fs.existsSync(path.join(dir, ".ready"))) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(tarball, path.join(dir, "pulumi-vastai.tgz"));
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2));
    const run = spawnSync(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: dir, encoding: "utf8" });
    fs.writeFileSync(logFile, `${run.stdout}\n${run.stderr}`);
    if (run.status !== 0) throw new Error(`npm install failed in ${dir}:\n${run.stderr}`);
    fs.writeFileSync(path.join(dir, ".ready"), "");
  }
  return { dir, log: fs.readFileSync(logFile, "utf8") };
}

const sizeMb = (dir: string) => Number(execFileSync("du", ["-sm", dir], { encoding: "utf8" }).split("\t")[0]);

describe("issue 25 item 5: the package as installed", () => {
  it("25.5 the provider alone installs without fastify or proper-lockfile and without warnings", () => {
    const { dir, log } = project("alone", { name: "provider-alone", private: true, dependencies: { "pulumi-vastai": "file:pulumi-vastai.tgz" } });
    // No engine warning, and no warning about this package (those of @pulumi/pulumi's own
    // dependencies, such as protobufjs's install script, are not ours to fix).
    expect(log).not.toMatch(/EBADENGINE/);
    expect(log.split("\n").filter((l) => /npm warn/i.test(l) && /pulumi-vastai/.test(l))).toEqual([]);
    for (const peer of ["fastify", "proper-lockfile", "light-my-request", "cookie"]) {
      expect(fs.existsSync(path.join(dir, "node_modules", peer))).toBe(false);
    }
    process.stdout.write(`provider alone: node_modules ${sizeMb(path.join(dir, "node_modules"))} MB\n`);
    // Without the peers, the simulator says what to install instead of "Cannot find module".
    const sim = spawnSync(process.execPath, ["-e", 'require("pulumi-vastai/simulator")'], { cwd: dir, encoding: "utf8" });
    expect(sim.status).not.toBe(0);
    expect(sim.stderr).toContain(PEER_INSTALL);
    // The resources load without them.
    const root = spawnSync(process.execPath, ["-e", 'const v = require("pulumi-vastai"); if (typeof v.Instance !== "function") process.exit(2)'], { cwd: dir, encoding: "utf8" });
    expect(root.stderr).toBe("");
    expect(root.status).toBe(0);
  }, 600_000);

  it("25.5 ships its Apache-2.0 LICENSE, and the README links only to files it ships", () => {
    const { dir } = project("alone", { name: "provider-alone", private: true, dependencies: { "pulumi-vastai": "file:pulumi-vastai.tgz" } });
    const installed = path.join(dir, "node_modules", "pulumi-vastai");
    expect(fs.readFileSync(path.join(installed, "LICENSE"), "utf8")).toMatch(/Apache License\s+Version 2\.0, January 2004/);
    const broken: string[] = [];
    const docs = fs.readdirSync(path.join(installed, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);
    expect(docs).toContain("docs/_index.md");
    for (const readme of ["README.md", ...docs, "simulator/README.md", "provider/client/README.md", ...["quickstart", "gpu-fleet", "host-maintenance", "account", "dev-box"].map((e) => `examples/${e}/README.md`)]) {
      const text = fs.readFileSync(path.join(installed, readme), "utf8");
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target)) continue;
        const file = path.join(installed, path.dirname(readme), target.split("#")[0]);
        if (!fs.existsSync(file)) broken.push(`${readme}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  }, 600_000);
});

/** The peers and versions of docs/installation-configuration.md's install command for the simulator (simulator/peers.ts PEER_INSTALL). */
function readmePeers(): Record<string, string> {
  const readme = fs.readFileSync(path.join(repo, "docs", "installation-configuration.md"), "utf8");
  expect(readme).toContain(PEER_INSTALL);
  return Object.fromEntries(PEER_INSTALL.split(" ").slice(3).map((spec) => [spec.slice(0, spec.lastIndexOf("@")), spec.slice(spec.lastIndexOf("@") + 1)]));
}

/** The project of a user who followed README: the package, jest, ts-jest, the simulator's peers. */
function userProject(): string {
  const { dir } = project("firsthour", {
    name: "first-hour",
    main: "index.ts",
    private: true,
    scripts: { test: "jest" },
    dependencies: { "@pulumi/pulumi": "^3.139.0", "pulumi-vastai": "file:pulumi-vastai.tgz" },
    devDependencies: {
      "@types/node": dev("@types/node"),
      typescript: dev("typescript"),
      jest: dev("jest"),
      "ts-jest": dev("ts-jest"),
      "@types/jest": dev("@types/jest"),
      // The simulator's peers exactly as README's command installs them (issue 35 item 8).
      ...readmePeers(),
    },
  });
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(PULUMI_TSCONFIG, null, 4));
  return dir;
}

describe("issue 35 item 8: the simulator's peers as README installs them", () => {
  it("35.8 install on this Node without an engine warning, and the simulator starts", () => {
    const { dir, log } = project("peers", { name: "peers", private: true, dependencies: { "pulumi-vastai": "file:pulumi-vastai.tgz" }, devDependencies: readmePeers() });
    expect(log).not.toMatch(/EBADENGINE/);
    const sim = spawnSync(process.execPath, ["-e", 'require("pulumi-vastai/simulator").startSimulator({ port: 0 }).then((s) => s.close())'], { cwd: dir, encoding: "utf8" });
    expect(sim.stderr).toBe("");
    expect(sim.status).toBe(0);
  }, 600_000);
});

describe("issue 25 item 4: types in Pulumi's default project", () => {
  it("25.4 tsc with the tsconfig of `pulumi new typescript` type-checks every subpath of the packed package", () => {
    const dir = userProject();
    fs.writeFileSync(
      path.join(dir, "index.ts"),
      [
        'import * as pulumi from "@pulumi/pulumi";',
        'import { Instance, Template, EnvVar, getTemplates, createClient, type InstanceArgs } from "pulumi-vastai";',
        'import { startTestStack, StepFailedError, type TestStack, type StepReport } from "pulumi-vastai/testing";',
        'import { startSimulator, type SimulatorOptions } from "pulumi-vastai/simulator";',
        'import * as runtime from "pulumi-vastai/runtime";',
        'import { MB_PER_GB, createClient as clientFactory, type Offer } from "pulumi-vastai/client";',
        'import { runInline, type InlineRun } from "pulumi-vastai/automation";',
        "",
        'const template = new Template("base", { name: "base", image: "pytorch/pytorch", tag: "2.4.0" });',
        'const args: InstanceArgs = { offer: { gpuName: "RTX 4090" }, templateHashId: template.hashId, label: "x" };',
        'export const gpu = new Instance("gpu", args).id;',
        'export const token = new EnvVar("t", { key: "T", value: pulumi.secret("v") }).key;',
        "void [getTemplates, createClient, startTestStack, StepFailedError, startSimulator, runtime, MB_PER_GB, clientFactory, runInline];",
        "export type Used = [TestStack, StepReport, SimulatorOptions, Offer, InlineRun];",
        "",
      ].join("\n"),
    );
    const tsc = spawnSync(process.execPath, [path.join(dir, "node_modules", "typescript", "bin", "tsc"), "-p", dir, "--noEmit", "--pretty", "false"], { cwd: dir, encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  }, 600_000);
});

describe("issue 35 item 3: the packed package at the version it claims", () => {
  it("35.3 installs at package.json's version, type-checks, and CHANGELOG.md has an entry for that version", () => {
    const dir = userProject();
    const claimed = (JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")) as { version: string }).version;
    // The version the installed package reports, as a program requiring it sees it.
    const installed = spawnSync(process.execPath, ["-p", 'require("pulumi-vastai/package.json").version'], { cwd: dir, encoding: "utf8" });
    expect(installed.stderr).toBe("");
    expect(installed.stdout.trim()).toBe(claimed);
    // The changelog ships, and has a dated entry for the version.
    const changelog = fs.readFileSync(path.join(dir, "node_modules", "pulumi-vastai", "CHANGELOG.md"), "utf8");
    const entries = changelog.split("\n").filter((line) => line.startsWith(`## [${claimed}]`));
    expect(entries).toEqual([expect.stringMatching(/^## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/)]);
    // A program against this install type-checks under `pulumi new typescript`'s tsconfig.
    fs.writeFileSync(
      path.join(dir, "release.ts"),
      [
        'import { Instance, Template, type InstanceArgs } from "pulumi-vastai";',
        'const template = new Template("base", { name: "base", image: "pytorch/pytorch", tag: "2.4.0" });',
        'const args: InstanceArgs = { offer: { gpuName: "RTX 4090" }, templateHashId: template.hashId };',
        'export const gpu = new Instance("gpu", args).instanceId;',
        "",
      ].join("\n"),
    );
    fs.writeFileSync(path.join(dir, "tsconfig.release.json"), JSON.stringify({ extends: "./tsconfig.json", files: ["release.ts"] }, null, 4));
    const tsc = spawnSync(process.execPath, [path.join(dir, "node_modules", "typescript", "bin", "tsc"), "-p", path.join(dir, "tsconfig.release.json"), "--noEmit", "--pretty", "false"], { cwd: dir, encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  }, 600_000);
});

describe("issue 25 item 3: jest for users", () => {
  it("25.3 README's jest.config.js runs a test of a program with the testing kit under plain jest", () => {
    const dir = userProject();
    const readme = fs.readFileSync(path.join(repo, "docs", "testing.md"), "utf8");
    const config = /```js\n(\/\/ jest\.config\.js\n[\s\S]*?)```/.exec(readme)?.[1];
    expect(config).toBeDefined();
    fs.writeFileSync(path.join(dir, "jest.config.js"), config!);
    fs.writeFileSync(path.join(dir, "index.test.ts"), USER_TEST);
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.NODE_OPTIONS;
    for (const k of Object.keys(env)) if (k.startsWith("JEST_") || k.startsWith("VAST_")) delete env[k];
    const run = spawnSync(process.execPath, [path.join(dir, "node_modules", "jest", "bin", "jest.js"), "--ci"], { cwd: dir, env, encoding: "utf8", timeout: 600_000 });
    const out = `${run.stdout}\n${run.stderr}`;
    expect(out).toMatch(/Tests:\s+3 passed, 3 total/);
    expect(out).not.toMatch(/experimental-vm-modules|did not exit|open handle/i);
    expect(run.status).toBe(0);
  }, 900_000);
});

/** The user's test: a lookup, a program with protect and ignoreChanges, a failure report. */
const USER_TEST = `import { EnvVar, Template, createClient, getTemplates } from "pulumi-vastai";
import { StepFailedError, startTestStack, type TestStack } from "pulumi-vastai/testing";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ config: { "vastai:pollIntervalMs": "5", "vastai:rateLimitScale": "0.01" } });
});
afterAll(() => stack.close());

const program = (tag: string, protect: boolean) => () => {
  const base = new Template("base", { name: "first-hour", image: "pytorch/pytorch", tag }, { ignoreChanges: ["tag"] });
  new EnvVar("token", { key: "HF_TOKEN", value: "v" }, { protect });
  return { hashId: base.hashId };
};

test("a lookup reaches the simulator (got loads under plain jest)", async () => {
  const found = await getTemplates({ name: "PyTorch (CUDA)" }, { client: createClient({ apiKey: stack.sim.apiKey, apiUrl: stack.sim.url }) });
  expect(found.length).toBeGreaterThan(0);
});

test("ignoreChanges and protect are honoured", async () => {
  await stack.up(program("2.4.0", true));
  const again = await stack.up(program("2.5.0", true));
  expect(again.outcomes.map((o) => o.outcome)).toEqual(["unchanged", "unchanged"]);
  const refused = await stack.destroy().catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(StepFailedError);
  expect((refused as Error).message).toContain("EnvVar token: it is protected");
  expect(stack.sim.state().secrets.map((s) => s.name)).toEqual(["HF_TOKEN"]);
  await stack.up(program("2.4.0", false));
  await stack.destroy();
  expect(stack.sim.state().secrets).toEqual([]);
});

test("a failed step reports which resource failed and what was done", async () => {
  const err = (await stack.up(() => void new EnvVar("bad", { key: "1BAD", value: "v" })).catch((e: unknown) => e)) as StepFailedError;
  expect(err).toBeInstanceOf(StepFailedError);
  expect(err.message).toMatch(/EnvVar bad: /);
  expect(err.report.outcomes).toEqual([expect.objectContaining({ type: "EnvVar", name: "bad", outcome: "failed" })]);
});
`;
