/**
 * Issue 35 item 3: the release history says what it claims. CHANGELOG.md keeps the Keep a
 * Changelog shape (an Unreleased section, then versions newest first, each dated), has an entry
 * for package.json's version, names for each version the commit it stands for (with that
 * commit's date, when the clone has the history), and its upgrade notes name the release the
 * end-to-end upgrade test starts from. The packed package is checked at that version in
 * test/examples/first-hour.test.ts (35.3).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const repo = path.resolve(__dirname, "..", "..");
const read = (file: string) => fs.readFileSync(path.join(repo, file), "utf8");
const changelog = read("CHANGELOG.md");
const version = (JSON.parse(read("package.json")) as { version: string }).version;

interface Release {
  version: string;
  date: string;
  body: string;
}

/** The `## [x.y.z] - date` sections, in file order. */
function releases(): Release[] {
  const out: Release[] = [];
  const heading = /^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/gm;
  const found = [...changelog.matchAll(heading)];
  found.forEach((m, i) => out.push({ version: m[1], date: m[2], body: changelog.slice(m.index + m[0].length, found[i + 1]?.index ?? changelog.length) }));
  return out;
}

const semver = (v: string) => v.split(".").map(Number);
const newer = (a: string, b: string) => {
  const [x, y] = [semver(a), semver(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
};

function git(...args: string[]): string | undefined {
  const run = spawnSync("git", ["-C", repo, ...args], { encoding: "utf8" });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

describe("issue 35 item 3: the changelog and the version", () => {
  test("35.3 every level-2 heading is Unreleased (first) or a dated version, newest first", () => {
    const headings = changelog.split("\n").filter((l) => l.startsWith("## "));
    const firstRelease = headings.indexOf("## [Unreleased]");
    expect(firstRelease).toBeGreaterThanOrEqual(0);
    const after = headings.slice(firstRelease + 1);
    expect(after.filter((h) => !/^## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/.test(h))).toEqual([]);
    const list = releases();
    expect(list.length).toBe(after.length);
    for (let i = 1; i < list.length; i++) {
      expect(newer(list[i - 1].version, list[i].version)).toBe(true);
      expect(list[i - 1].date >= list[i].date).toBe(true);
    }
  });

  test("35.3 package.json's version has an entry, and it is the newest", () => {
    const list = releases();
    expect(list.map((r) => r.version)).toContain(version);
    expect(list[0].version).toBe(version);
  });

  test("35.3 each version names the commit it stands for, dated as the heading", () => {
    const list = releases();
    const shallow = git("rev-parse", "--is-shallow-repository");
    for (const release of list) {
      const commit = /^Commit `([0-9a-f]{7,40})`/m.exec(release.body)?.[1];
      expect({ version: release.version, commit }).toEqual({ version: release.version, commit: expect.any(String) });
      // With the history at hand (CI clones it whole for the upgrade test), the commit exists,
      // is an ancestor of this one, and carries the heading's date.
      if (shallow !== "false") continue;
      expect({ version: release.version, date: git("log", "-1", "--format=%cd", "--date=format:%Y-%m-%d", commit!) }).toEqual({ version: release.version, date: release.date });
      expect(spawnSync("git", ["-C", repo, "merge-base", "--is-ancestor", commit!, "HEAD"]).status).toBe(0);
    }
  });

  test("35.3 the upgrade notes name the release the end-to-end upgrade test starts from", () => {
    const previous = /const PREVIOUS_RELEASE = "([0-9a-f]+)"/.exec(read("test/e2e/upgrade.test.ts"))?.[1];
    expect(previous).toBeDefined();
    const notes = changelog.slice(changelog.indexOf("## Upgrading a stack"), changelog.indexOf("## [Unreleased]"));
    expect(notes).toContain(`\`${previous}\``);
    const release = releases().find((r) => r.body.includes(`Commit \`${previous}\``));
    expect(release).toBeDefined();
    expect(notes).toContain(`by ${release!.version} (commit \`${previous}\``);
  });

  test("35.3 README states the versioning policy, links the changelog, and names the packed tarball by this version", () => {
    const readme = read("README.md");
    expect(readme).toMatch(/^### Versions and upgrades$/m);
    expect(readme).toContain("[CHANGELOG.md](CHANGELOG.md)");
    const tarballs = [...readme.matchAll(/pulumi-vastai-(\d+\.\d+\.\d+)\.tgz/g)].map((m) => m[1]);
    expect(tarballs.length).toBeGreaterThan(0);
    expect(tarballs.filter((v) => v !== version)).toEqual([]);
  });
});
