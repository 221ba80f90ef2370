/**
 * issue 24 item 1: the package's @pulumi/pulumi range is wide, so a project that has a newer
 * @pulumi/pulumi than our lock file's shares that one copy: the packed package installed
 * (from the npm registry, the only network this suite uses) next to @pulumi/pulumi 3.249.0
 * leaves exactly one @pulumi/pulumi in the tree, the project's.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO } from "./harness";

const NEWER = "3.249.0";
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

interface NpmTree {
  version?: string;
  dependencies?: Record<string, NpmTree>;
}

/** Every copy of `name` in an `npm ls --all --json` tree: `path@version`. */
function copies(tree: NpmTree, name: string, at = ""): string[] {
  return Object.entries(tree.dependencies ?? {}).flatMap(([dep, sub]) => {
    const here = `${at}/${dep}`;
    return [...(dep === name ? [`${here}@${sub.version}`] : []), ...copies(sub, name, here)];
  });
}

describe("issue 24 item 1: a user's newer @pulumi/pulumi is shared, not duplicated", () => {
  let dir: string;
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test(`24.1 the packed package installed beside @pulumi/pulumi ${NEWER} leaves one copy of it`, () => {
    const range = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")).dependencies["@pulumi/pulumi"];
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-share-"));
    const out = execFileSync(npm, ["pack", "--silent", "--ignore-scripts", "--pack-destination", dir], { cwd: REPO, encoding: "utf8" });
    const tarball = out.trim().split("\n").pop() as string;
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "user-project", private: true, dependencies: { "@pulumi/pulumi": NEWER, "pulumi-vastai": `file:${tarball}` } }),
    );
    execFileSync(npm, ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--engine-strict=false", "--loglevel=error"], { cwd: dir, stdio: "pipe" });
    const tree = JSON.parse(execFileSync(npm, ["ls", "--all", "--json", "@pulumi/pulumi"], { cwd: dir, encoding: "utf8" })) as NpmTree;
    const found = copies(tree, "@pulumi/pulumi");
    // npm lists a deduplicated dependency under each dependent: one version, and one directory on disk.
    expect(new Set(found.map((f) => f.slice(f.lastIndexOf("@"))))).toEqual(new Set([`@${NEWER}`]));
    expect(fs.existsSync(path.join(dir, "node_modules", "pulumi-vastai", "node_modules", "@pulumi", "pulumi"))).toBe(false);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")).version).toBe(NEWER);
    expect(range).toMatch(/<4\.0\.0$/);
  }, 300_000);
});
