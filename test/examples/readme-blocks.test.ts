/**
 * Issue 25 item 7: the remaining TypeScript examples of docs/*.md run through the testing kit
 * against the default simulator. (The in-process simulator and testing-kit examples:
 * readme.test.ts; the Fleet example: readme-fleet.test.ts.)
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import * as vastai from "pulumi-vastai";
import { createClient } from "pulumi-vastai";
import { startTestStack, type TestStack } from "pulumi-vastai/testing";
import { scratchProject } from "../contract/harness";
import { FAST_PLUGIN_CONFIG } from "../support/plugin-timing";

/** A page of the documentation (docs/<page>). */
const page = (name: string) => fs.readFileSync(path.join(__dirname, "..", "..", "docs", name), "utf8");

/** The ts block of docs/`file` containing `marker`, as a program; `{ ...vastai }` stands for its imports. */
function readmeProgram(file: string, marker: string, rewrite: (code: string) => string = (c) => c): () => Record<string, unknown> {
  const block = [...page(file).matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes(marker));
  if (!block) throw new Error(`docs/${file} has no ts block containing ${marker}`);
  const js = ts.transpileModule(rewrite(block), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const names = Object.keys(vastai);
  return () => {
    const exports: Record<string, unknown> = {};
    new Function(...names, "exports", js)(...names.map((n) => (vastai as Record<string, unknown>)[n]), exports);
    return exports;
  };
}

let stack: TestStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

describe("issue 25 item 7: the README's examples run against the simulator", () => {
  test("25.7 Linking an Instance: a protected volume on machine 30001 and an instance from offer 700001 that mounts it", async () => {
    stack = await startTestStack({ cwd: scratchProject().dir, config: FAST_PLUGIN_CONFIG });
    const up = await stack.up(readmeProgram("storage.md", 'new Instance("gpu", {'));
    expect(up.outcomes.map((o) => `${o.type} ${o.name}: ${o.outcome}`).sort()).toEqual(["Instance gpu: created", "Volume data: created"]);
    const [volume] = stack.sim.state().volumes;
    expect(stack.sim.state().instances.map((i) => i.machineId)).toEqual([volume.machineId]);
  }, 300_000);

  test("25.7 Importing existing objects: a template and a volume made outside the stack are adopted by importId", async () => {
    stack = await startTestStack({ cwd: scratchProject().dir, config: FAST_PLUGIN_CONFIG });
    // Made elsewhere, as the README says; the block's illustrative ids become theirs.
    const client = createClient({ apiKey: stack.sim.apiKey, apiUrl: stack.sim.url });
    const template = await client.templates.create({ name: "base", image: "vastai/base" });
    const [offer] = await client.volumes.searchOffers("local", { limit: 1 });
    const volume = await client.volumes.create("local", { offerId: offer.id, sizeGb: 10 });
    const program = readmeProgram("_index.md", 'importId: "123456"', (code) =>
      code.replace('"123456"', JSON.stringify(String(template.template.id))).replace('"20000001"', JSON.stringify(String(volume.id))),
    );
    const up = await stack.up(program);
    expect(up.outputs.imported).toBe(true);
    expect(stack.sim.state().templates.filter((t) => t.name === "base")).toHaveLength(1);
    expect(stack.sim.state().volumes.map((v) => v.id)).toEqual([volume.id]);
  }, 300_000);
});
