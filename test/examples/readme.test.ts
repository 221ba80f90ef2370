/**
 * The code of docs/*.md that is meant to be pasted: it must run as written.
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import * as pulumi from "@pulumi/pulumi";
import * as vastai from "pulumi-vastai";
import { MissingApiKeyError, providers, setClientOptions } from "pulumi-vastai";
import { startSimulator } from "pulumi-vastai/simulator";
import * as testing from "pulumi-vastai/testing";
import { resetRuntime } from "../../provider/context";
import { scratchProject } from "../contract/harness";

/** A page of the documentation (docs/<page>). */
const page = (name: string) => fs.readFileSync(path.join(__dirname, "..", "..", "docs", name), "utf8");
const configurationPage = page("installation-configuration.md");

/** The fenced block of the given language in docs/`file` that contains `marker`. */
function codeBlock(file: string, lang: string, marker: string): string {
  const blocks = [...page(file).matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]);
  const block = blocks.find((b) => b.includes(marker));
  if (!block) throw new Error(`docs/${file} has no ${lang} block containing ${marker}`);
  return block;
}

afterAll(() => resetRuntime());

test("the in-process simulator example creates and deletes a template through the providers", async () => {
  const body = codeBlock("simulator.md", "ts", "startSimulator({ port: 0")
    .split("\n")
    .filter((line) => !line.startsWith("import "))
    .join("\n");
  // Run the block as the body of an async function; its imports become the parameters.
  const source = `module.exports = async (providers, setClientOptions, startSimulator) => {\n${body}\nreturn created;\n};`;
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const holder: { exports: unknown } = { exports: undefined };
  new Function("module", js)(holder);
  const run = holder.exports as (...args: unknown[]) => Promise<{ id: string; outs: Record<string, unknown> }>;
  const created = await run(providers, setClientOptions, startSimulator);
  expect(created.id).toMatch(/^\d+$/);
  expect(created.outs.hashId).toEqual(expect.any(String));
  expect(created.outs.image).toBe("ubuntu");
});

test("the configuration section names the keys and variables the missing-key error names", () => {
  const names = ["vastai:apiKey", "VAST_API_KEY", "~/.config/vastai/vast_api_key", "vastai:apiUrl", "VAST_URL", "vastai:runUrl", "VAST_RUN_URL"];
  for (const name of names) expect(configurationPage).toContain(`\`${name}\``);
  const quoted = /^No Vast\.ai API key found.*$/m.exec(configurationPage)?.[0];
  expect(quoted).toBe(new MissingApiKeyError("/home/you/.config/vastai/vast_api_key").message);
});

test("the testing-kit example runs as written: preview, up with a secret output, destroy", async () => {
  // The example runs in a user's project, where the plugin finds pulumi-vastai installed:
  // here, the scratch project with the packed package installed.
  const project = scratchProject().dir;
  const js = ts.transpileModule(codeBlock("testing.md", "ts", "startTestStack"), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText;
  const inProject: typeof testing = { ...testing, startTestStack: (options) => testing.startTestStack({ cwd: project, ...options }) };
  const modules: Record<string, unknown> = { "pulumi-vastai": vastai, "pulumi-vastai/testing": inProject, "@pulumi/pulumi": pulumi };
  const load = (id: string) => {
    if (!(id in modules)) throw new Error(`the README example imports ${id}, which this test does not provide`);
    return modules[id];
  };
  // The block's jest calls are collected here and run in order: hooks, its tests, hooks.
  const before: Array<() => unknown> = [];
  const after: Array<() => unknown> = [];
  const tests: Array<[string, () => unknown]> = [];
  new Function("require", "exports", "beforeAll", "afterAll", "test", "expect", js)(
    load, {}, (fn: () => unknown) => before.push(fn), (fn: () => unknown) => after.push(fn),
    (name: string, fn: () => unknown) => tests.push([name, fn]), expect,
  );
  expect(tests.map(([name]) => name)).toEqual(["up makes the variable and a CI key kept secret; destroy removes both"]);
  try {
    for (const fn of before) await fn();
    for (const [, fn] of tests) await fn();
  } finally {
    for (const fn of after) await fn();
  }
}, 120_000);
