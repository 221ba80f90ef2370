/**
 * issue 24 item 2: a stack made with the previous release of the package (the commit
 * PREVIOUS_RELEASE, compiled here from `git archive`) is refreshed, updated and destroyed after
 * the project upgrades to this checkout, with no replacement and no error. The state holds the
 * old release's serialized providers; they load `pulumi-vastai/runtime` from the project's
 * node_modules, which the upgrade points at the new release.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startSimulator, type Simulator } from "pulumi-vastai/simulator";
import { describeE2E, e2eStack, exampleProgram, linkPackages, PUBLIC_KEY, REPO, type E2EStack, type Program } from "./harness";

/** The release before the e2e suite existed. */
const PREVIOUS_RELEASE = "ee4d938";
const PROJECT = "vastai-quickstart";

/** Extracts the commit's tree and compiles it (`tsc -p tsconfig.build.json`) into `dir`. */
function buildRelease(commit: string, dir: string): void {
  const tar = path.join(dir, "..", "release.tar");
  execFileSync("git", ["-C", REPO, "archive", "--format=tar", "-o", tar, commit]);
  execFileSync("tar", ["-xf", tar, "-C", dir]);
  fs.symlinkSync(path.join(REPO, "node_modules"), path.join(dir, "node_modules"), "dir");
  execFileSync(process.execPath, [path.join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", path.join(dir, "tsconfig.build.json")], { stdio: "pipe" });
}

/**
 * The previous release's quickstart program (an upgrade changes the package, not the user's
 * program) with `pulumi-vastai` bound to the package in `packageDir`.
 */
function quickstartWith(packageDir: string, release: string): Program {
  if (packageDir === REPO) return exampleProgram("quickstart", {}, release);
  return exampleProgram("quickstart", { "pulumi-vastai": path.join(packageDir, "dist", "provider", "index.js") }, release);
}

describeE2E("issue 24 item 2: upgrade from the previous release under the real engine", () => {
  let sim: Simulator;
  let stack: E2EStack;
  let tmp: string;
  let oldPackage: string;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-release-"));
    oldPackage = path.join(tmp, "pkg");
    fs.mkdirSync(oldPackage);
    buildRelease(PREVIOUS_RELEASE, oldPackage);
    sim = await startSimulator({ port: 0, bootMs: 50, marketOffers: 16 });
    stack = await e2eStack({
      project: PROJECT,
      program: quickstartWith(oldPackage, oldPackage),
      sim,
      packageDir: oldPackage,
      config: { [`${PROJECT}:sshPublicKey`]: PUBLIC_KEY },
    });
  }, 300_000);
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("24.2 the previous release creates the stack; after the upgrade refresh, up and destroy replace nothing", async () => {
    const created = await stack.up();
    expect(new Set(Object.values(created.ops).flat())).toEqual(new Set(["create"]));
    const instanceId = String(created.outputs.instanceId);
    expect(await stack.exportText()).toContain(oldPackage);

    // The upgrade: the project now has this checkout installed, and the program uses it.
    linkPackages(stack.work, REPO);
    await stack.setProgram(quickstartWith(REPO, oldPackage));

    const refreshed = await stack.refresh();
    expect(refreshed.changes.update ?? 0).toBe(0);
    expect(refreshed.changes.delete ?? 0).toBe(0);

    await stack.stack.setConfig(`${PROJECT}:imageTag`, { value: "2.5.1-cuda12.4-cudnn9-runtime" });
    const updated = await stack.up();
    // The one create is the stack identity the new release registers (issue 23): nothing of
    // the stack's own is created or replaced.
    const { ["StackIdentity stack"]: identity, ...own } = updated.ops;
    expect(identity).toEqual(["create"]);
    const ops = Object.values(own).flat();
    expect(ops).not.toContain("replace");
    expect(ops).not.toContain("create");
    expect(updated.ops["Template pytorch"]).toEqual(["update"]);
    expect(String(updated.outputs.instanceId)).toBe(instanceId);

    const { ops: destroyed } = await stack.destroy();
    expect(new Set(Object.values(destroyed).flat())).toEqual(new Set(["delete"]));
    expect(sim.state().instances.filter((i) => i.label === "quickstart")).toEqual([]);
  });
});
