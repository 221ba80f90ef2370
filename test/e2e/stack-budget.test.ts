/**
 * Issue 34 item 4 under the real Pulumi CLI: `vastai:maxHourlyCost` from the stack configuration
 * refuses the create that would take the stack over it, as the offline engine does
 * (test/examples/stack-budget-kit.test.ts): the first instance is created, the second fails
 * naming the budget, nothing else is rented; raised, the next `up` creates the second.
 */
import { Instance } from "pulumi-vastai";
import { startSimulator, type Simulator } from "pulumi-vastai/simulator";
import { createClient } from "pulumi-vastai/client";
import { describeE2E, e2eStack, type E2EStack } from "./harness";

const program = async () => {
  const a = new Instance("a", { offerId: 700002, image: "pytorch/pytorch", diskGb: 10 });
  const b = new Instance("b", { offerId: 700003, image: "pytorch/pytorch", diskGb: 10 }, { dependsOn: [a] });
  return { a: a.id, b: b.id };
};

describeE2E("issue 34 item 4: the stack budget under the real engine", () => {
  let sim: Simulator;
  let stack: E2EStack;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, bootMs: 0 });
    stack = await e2eStack({ project: "budget", program, sim, config: { "vastai:pollIntervalMs": "5" } });
  });
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  test("34.4 pulumi up over vastai:maxHourlyCost creates what fits and fails the rest naming the budget; raised, up finishes", async () => {
    const client = createClient({ apiKey: sim.apiKey, apiUrl: sim.url, pacing: false });
    const price = async (id: number) => (await client.offers.search({ filters: { id: { eq: id } }, noDefaults: true, limit: 1, allocatedStorageGb: 10 }))[0].dphTotal!;
    const [a, b] = [await price(700002), await price(700003)];
    await stack.stack.setConfig("vastai:maxHourlyCost", { value: String(a + b / 2) });
    await expect(stack.up()).rejects.toThrow(/over vastai:maxHourlyCost/);
    expect(sim.state().instances).toHaveLength(1);
    await stack.stack.setConfig("vastai:maxHourlyCost", { value: String(a + b + 0.01) });
    const done = await stack.up();
    expect(done.ops).toMatchObject({ "Instance a": ["same"], "Instance b": ["create"] });
    expect(sim.state().instances).toHaveLength(2);
    await stack.destroy();
    expect(sim.state().instances).toHaveLength(0);
  });
});
