/**
 * Issue 25 item 7: the Fleet example of docs/fleets.md runs as written, through the testing kit,
 * against the simulator with the options the page names (--market-offers 40).
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import * as vastai from "pulumi-vastai";
import { startTestStack, type TestStack } from "pulumi-vastai/testing";
import { scratchProject } from "../contract/harness";
import { FAST_PLUGIN_CONFIG } from "../support/plugin-timing";

const readme = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "fleets.md"), "utf8");
const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('new vastai.Fleet("workers"'));

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ cwd: scratchProject().dir, simulator: { marketOffers: 40 }, config: FAST_PLUGIN_CONFIG });
}, 180_000);
afterAll(() => stack?.close());

test("25.7 README's Fleet example: eight members on the simulator with --market-offers 40", async () => {
  expect(block).toMatch(/--market-offers 40/);
  const js = ts.transpileModule(block!, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const program = () => {
    const exports: Record<string, unknown> = {};
    new Function("vastai", "exports", js)(vastai, exports);
    return exports;
  };
  const up = await stack.up(program);
  expect(up.outcomes.map((o) => `${o.type} ${o.name}: ${o.outcome}`)).toEqual(["Fleet workers: created"]);
  expect(up.outputs.healthy).toBe(8);
  await stack.destroy();
  expect(stack.sim.state().instances).toEqual([]);
}, 300_000);
