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
    // The overview links every page of docs/.
    const fromIndex = new Set(links("docs/_index.md").map((l) => l.target));
    expect(pages.filter((p) => p.startsWith("docs/") && p !== "docs/_index.md" && !fromIndex.has(p))).toEqual([]);
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

/**
 * Every ts block of docs/*.md, by the page and a text it contains, with the test that runs it.
 * "here": run below on a fresh simulator as a program (`vastai.X` and the bare names stand for
 * the package's exports); a block no row names fails the first test, so a new block needs a runner.
 */
const BLOCKS: Array<{ file: string; marker: string; runBy: string }> = [
  { file: "_index.md", marker: 'new SshKey("laptop"', runBy: "docs.test.ts: the complete example" },
  { file: "_index.md", marker: 'importId: "123456"', runBy: "readme-blocks.test.ts: Importing existing objects" },
  { file: "storage.md", marker: 'new Instance("gpu", {', runBy: "readme-blocks.test.ts: Linking an Instance" },
  { file: "fleets.md", marker: 'new vastai.Fleet("workers"', runBy: "readme-fleet.test.ts" },
  { file: "simulator.md", marker: "startSimulator({ port: 0", runBy: "readme.test.ts: the in-process simulator example" },
  { file: "testing.md", marker: "startTestStack", runBy: "readme.test.ts: the testing-kit example" },
  { file: "testing.md", marker: "const err = await stack.up(program)", runBy: "here: a failing up's report" },
  { file: "installation-configuration.md", marker: 'import { runInline } from "pulumi-vastai/automation"', runBy: "e2e/automation-recipe.test.ts (runInline under the built CLI) and here: imports" },
  { file: "lookups-and-client.md", marker: 'import { MB_PER_GB, type Offer } from "pulumi-vastai/client"', runBy: "here: imports" },
  { file: "account-and-teams.md", marker: 'new vastai.Team("ml"', runBy: "here" },
  { file: "account-and-teams.md", marker: 'new vastai.EnvVar("hf-token"', runBy: "here" },
  { file: "hosting.md", marker: 'new vastai.MachineListing("rig-1"', runBy: "here" },
  { file: "hosting.md", marker: 'new vastai.VolumeListing("rig-1-disk"', runBy: "here" },
  { file: "hosting.md", marker: 'new vastai.MaintenanceWindow("power-work"', runBy: "here" },
  { file: "hosting.md", marker: 'new vastai.ScheduledJob("nightly-reboot"', runBy: "here" },
  { file: "storage.md", marker: 'new vastai.RsyncCopy("weights"', runBy: "here" },
  { file: "clusters.md", marker: 'new vastai.Cluster("rack"', runBy: "here" },
  { file: "templates-and-instances.md", marker: 'new vastai.Instance("box"', runBy: "here" },
  { file: "serverless.md", marker: 'new vastai.Endpoint("llm"', runBy: "here" },
  { file: "development.md", marker: "export const CLUSTER_MEMBER = {", runBy: "here: the file it quotes" },
  { file: "development.md", marker: "interface ClusterMemberFields {", runBy: "here: the file it quotes" },
];

const tsBlocks = (file: string) => [...read(`docs/${file}`).matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)].map((m) => m[1]);
const blockOf = (file: string, marker: string) => {
  const found = tsBlocks(file).filter((b) => b.includes(marker));
  expect(found).toHaveLength(1);
  return found[0];
};

/** A block as a program: its `vastai.X` and bare X are the package's exports. */
function asProgram(block: string): () => Record<string, unknown> {
  const js = ts.transpileModule(block, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const names = Object.keys(vastai);
  return () => {
    const exports: Record<string, unknown> = {};
    new Function("vastai", ...names, "exports", js)(vastai, ...names.map((n) => (vastai as Record<string, unknown>)[n]), exports);
    return exports;
  };
}

describe("issue 35 item 1: every ts block of docs/ runs", () => {
  test("35.1 each ts block of docs/*.md has a runner", () => {
    const unrun: string[] = [];
    for (const file of pages.filter((p) => p.startsWith("docs/")).map((p) => p.slice("docs/".length))) {
      for (const block of tsBlocks(file)) {
        if (!BLOCKS.some((b) => b.file === file && block.includes(b.marker))) unrun.push(`docs/${file}: ${block.split("\n")[0]}`);
      }
    }
    expect(unrun).toEqual([]);
    for (const { file, marker } of BLOCKS) blockOf(file, marker);
  });

  test("35.6 the guide to adding a resource quotes ClusterMember's declaration and class as they are in the tree", () => {
    const dir = "provider/resources/clusterMember";
    expect(read(`${dir}/declare.ts`)).toBe(blockOf("development.md", "export const CLUSTER_MEMBER = {"));
    const index = read(`${dir}/index.ts`);
    const quoted = blockOf("development.md", "interface ClusterMemberFields {");
    // The class's own TSDoc is left out of the quote: every other line is there, in order.
    const tree = index.split("\n");
    let at = -1;
    const missing = quoted.trimEnd().split("\n").filter((line) => {
      at = tree.indexOf(line, at + 1);
      return at < 0;
    });
    expect(missing).toEqual([]);
  });

  test("35.1 lookups-and-client.md's and the CLI recipe's imports name what the entry points export", () => {
    const block = blockOf("lookups-and-client.md", 'from "pulumi-vastai/client"') + blockOf("installation-configuration.md", 'from "pulumi-vastai/automation"');
    const entries: Record<string, Record<string, unknown>> = {
      "pulumi-vastai": vastai,
      "pulumi-vastai/client": require("pulumi-vastai/client"),
      "pulumi-vastai/automation": require("pulumi-vastai/automation"),
    };
    const absent: string[] = [];
    for (const [, list, entry] of block.matchAll(/^import \{([^}]*)\} from "([^"]+)";$/gm)) {
      for (const raw of list.split(",")) {
        const name = raw.trim();
        if (name.startsWith("type ")) continue;
        if (!(name in entries[entry])) absent.push(`${entry}: ${name}`);
      }
    }
    expect(absent).toEqual([]);
  });

  for (const { file, marker } of BLOCKS.filter((b) => b.runBy === "here")) {
    test(`35.1 docs/${file}: the block with ${marker} runs on the simulator`, async () => {
      stack = await startTestStack({ cwd: scratchProject().dir, config: FAST_PLUGIN_CONFIG });
      const block = blockOf(file, marker);
      const up = await stack.up(asProgram(block));
      // Every resource the block declares is created, and destroy removes them.
      expect(up.outcomes.length).toBe([...block.matchAll(/new vastai\.\w+\(/g)].length);
      expect(up.outcomes.filter((o) => o.outcome !== "created")).toEqual([]);
      await stack.destroy();
    }, 300_000);
  }

  test("35.1 testing.md: a failing up's report names the failed resource and what was done before", async () => {
    stack = await startTestStack({ cwd: scratchProject().dir, config: FAST_PLUGIN_CONFIG });
    const program = () => {
      const template = new vastai.Template("base", { name: "base", image: "vastai/base" });
      new vastai.Instance("gpu", { offerId: 999999999, templateHashId: template.hashId }, { dependsOn: [template] });
      return {};
    };
    const block = blockOf("testing.md", "const err = await stack.up(program)");
    const js = ts.transpileModule(`return (async () => {\n${block}\nreturn err;\n})();`, { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;
    const err = (await new Function("stack", "program", js)(stack, program)) as Error;
    // The block's comment is the message, line by line (a line ending in "..." is a prefix).
    const shown = [...block.matchAll(/^\/\/ (.*)$/gm)].map((m) => m[1]);
    const lines = err.message.split("\n");
    expect(lines).toHaveLength(shown.length);
    shown.forEach((line, i) => (line.endsWith(" ...") ? expect(lines[i].startsWith(line.slice(0, -4))).toBe(true) : expect(lines[i]).toBe(line)));
  }, 300_000);
});
