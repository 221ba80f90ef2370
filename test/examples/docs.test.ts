/**
 * Issue 35 item 1: the documentation in docs/, in the Pulumi registry's layout. Every relative
 * link of README.md and docs/*.md resolves, in the repository and in the packed package (its
 * anchors too), README reaches every resource's page and the "stop spending" guide in two
 * clicks, and the overview's complete example runs on the simulator.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import * as pulumi from "@pulumi/pulumi";
import * as vastai from "pulumi-vastai";
import { startTestStack, type TestStack } from "pulumi-vastai/testing";
import { scratchProject } from "../contract/harness";
import { FAST_PLUGIN_CONFIG } from "../support/plugin-timing";

const repo = path.resolve(__dirname, "..", "..");
const pages = ["README.md", ...fs.readdirSync(path.join(repo, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
const read = (file: string) => fs.readFileSync(path.join(repo, file), "utf8");

/** GitHub's anchors of a Markdown file's headings (code blocks skipped). */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fence = !fence;
    const m = /^#{1,6} (.*)$/.exec(line);
    if (fence || !m) continue;
    const slug = m[1].trim().toLowerCase().replace(/[^\w\- ]/g, "").replace(/ /g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** The relative links of a Markdown file outside code blocks: [file it names, anchor]. */
function links(file: string): Array<{ target: string; anchor: string | undefined; raw: string }> {
  const text = read(file).replace(/```[\s\S]*?```/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((t) => !/^(https?:|mailto:)/.test(t))
    .map((raw) => {
      const [p, anchor] = raw.split("#");
      return { target: p ? path.posix.normalize(path.posix.join(path.posix.dirname(file), p)) : file, anchor, raw };
    });
}

describe("issue 35 item 1: docs by task", () => {
  test("35.1 every relative link of README.md and docs/*.md resolves in the repository, anchors included", () => {
    const broken: string[] = [];
    for (const file of pages) {
      for (const { target, anchor, raw } of links(file)) {
        const full = path.join(repo, target);
        if (!fs.existsSync(full)) broken.push(`${file}: ${raw}`);
        else if (anchor && target.endsWith(".md") && !anchors(fs.readFileSync(full, "utf8")).has(anchor)) broken.push(`${file}: ${raw} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  test("35.1 every relative link of README.md and docs/*.md resolves in the packed package", () => {
    const out = execFileSync(process.platform === "win32" ? "npm.cmd" : "npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: repo, encoding: "utf8" });
    const packed = new Set((JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path));
    const isPacked = (target: string) => packed.has(target) || [...packed].some((p) => p.startsWith(`${target}/`));
    for (const file of pages) expect(packed.has(file)).toBe(true);
    const broken = pages.flatMap((file) => links(file).filter((l) => !isPacked(l.target)).map((l) => `${file}: ${l.raw}`));
    expect(broken).toEqual([]);
  }, 120_000);

  test("35.1 README reaches every resource's page and the stop-spending guide in two clicks, and is under 300 lines", () => {
    const readme = read("README.md");
    expect(readme.split("\n").length).toBeLessThan(300);
    const oneClick = new Set(links("README.md").map((l) => l.target));
    const twoClicks = new Set([...oneClick, ...[...oneClick].filter((t) => t.endsWith(".md") && fs.existsSync(path.join(repo, t))).flatMap((t) => links(t).map((l) => l.target))]);
    expect(twoClicks).toContain("docs/costs-and-stopping-spend.md");
    // Each resource class the package exports is named in a heading of a page two clicks away.
    const resources = Object.entries(vastai)
      .filter(([, v]) => typeof v === "function" && (v as { prototype?: unknown }).prototype instanceof pulumi.CustomResource)
      .map(([name]) => name);
    expect(resources.length).toBeGreaterThan(20);
    const headings = [...twoClicks].filter((t) => t.startsWith("docs/") && t.endsWith(".md")).flatMap((t) => read(t).split("\n").filter((l) => /^#{1,6} /.test(l)));
    const missing = resources.filter((name) => !headings.some((h) => new RegExp(`\\b${name}\\b`).test(h)));
    expect(missing).toEqual([]);
  });
});

let stack: TestStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

test("35.1 docs/_index.md's complete example runs as written on the simulator", async () => {
  const block = [...read("docs/_index.md").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('new SshKey("laptop"'));
  expect(block).toBeDefined();
  const js = ts.transpileModule(block!, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText;
  const modules: Record<string, unknown> = { "pulumi-vastai": vastai, "@pulumi/pulumi": pulumi };
  const program = () => {
    const exports: Record<string, unknown> = {};
    new Function("require", "exports", js)((id: string) => modules[id], exports);
    return exports;
  };
  stack = await startTestStack({ cwd: scratchProject().dir, config: FAST_PLUGIN_CONFIG });
  const up = await stack.up(program);
  expect(up.outcomes.map((o) => `${o.type} ${o.name}: ${o.outcome}`).sort()).toEqual(["Instance gpu: created", "SshKey laptop: created", "Template pytorch: created"]);
  expect(up.outputs.sshCommand).toMatch(/^ssh -p \d+ root@\S+$/);
  expect(stack.sim.state().instances).toHaveLength(1);
}, 300_000);
