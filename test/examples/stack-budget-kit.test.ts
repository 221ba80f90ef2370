/**
 * Issue 34 item 4 through the testing kit's offline engine (the same plugin the real engine
 * starts, with the stack configuration as the CLI passes it): `vastai:maxHourlyCost` refuses the
 * create that would take the stack over it, keeps what runs, and a raised budget lets the next
 * `up` finish.
 */
import { Instance } from "pulumi-vastai";
import { StepFailedError, startTestStack, type TestStack } from "pulumi-vastai/testing";
import { createClient } from "../../provider/client";
import { scratchProject } from "../contract/harness";
import { FAST_PLUGIN_CONFIG } from "../support/plugin-timing";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ cwd: scratchProject().dir, project: "budget", stack: "dev", config: { ...FAST_PLUGIN_CONFIG } });
}, 180_000);
afterAll(() => stack?.close());

const program = () => {
  const a = new Instance("a", { offerId: 700002, image: "pytorch/pytorch", diskGb: 10 });
  const b = new Instance("b", { offerId: 700003, image: "pytorch/pytorch", diskGb: 10 }, { dependsOn: [a] });
  return { a: a.id, b: b.id };
};

test("34.4 an up over the stack budget creates what fits, fails the rest naming the budget, and a raised budget finishes the job", async () => {
  const client = createClient({ apiKey: stack.sim.apiKey, apiUrl: stack.sim.url, pacing: false });
  const price = async (id: number) => (await client.offers.search({ filters: { id: { eq: id } }, noDefaults: true, limit: 1, allocatedStorageGb: 10 }))[0].dphTotal!;
  const [a, b] = [await price(700002), await price(700003)];
  const failed = await stack.up(program, { "vastai:maxHourlyCost": String(a + b / 2) }).catch((e: unknown) => e);
  expect(failed).toBeInstanceOf(StepFailedError);
  const outcomes = (failed as StepFailedError).report.outcomes.map((o) => `${o.name}: ${o.outcome}${o.error ? ` ${o.error}` : ""}`);
  expect(outcomes).toEqual(expect.arrayContaining(["a: created", expect.stringMatching(/^b: failed .*over vastai:maxHourlyCost/)]));
  expect(await client.instances.listAll()).toHaveLength(1);

  const done = await stack.up(program, { "vastai:maxHourlyCost": String(a + b + 0.01) });
  expect(done.outcomes.map((o) => `${o.name}: ${o.outcome}`).sort()).toEqual(["a: unchanged", "b: created"]);
  await stack.destroy();
}, 120_000);
