/**
 * The README's code that is meant to be pasted: it must run as written.
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import { MissingApiKeyError, providers, setClientOptions } from "pulumi-vastai";
import { startSimulator } from "pulumi-vastai/simulator";
import { resetRuntime } from "../../provider/context";

const readme = fs.readFileSync(path.join(__dirname, "..", "..", "README.md"), "utf8");

/** The fenced block of the given language that contains `marker`. */
function codeBlock(lang: string, marker: string): string {
  const blocks = [...readme.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]);
  const block = blocks.find((b) => b.includes(marker));
  if (!block) throw new Error(`README has no ${lang} block containing ${marker}`);
  return block;
}

afterAll(() => resetRuntime());

test("the in-process simulator example creates and deletes a template through the providers", async () => {
  const body = codeBlock("ts", "startSimulator({ port: 0")
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
  for (const name of names) expect(readme).toContain(`\`${name}\``);
  const quoted = /^No Vast\.ai API key found.*$/m.exec(readme)?.[0];
  expect(quoted).toBe(new MissingApiKeyError("/home/you/.config/vastai/vast_api_key").message);
});
