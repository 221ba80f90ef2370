/**
 * issue 24 item 3: the generation a replacement is created with. Before replacing, the real
 * engine checks the inputs again without the old ones (in the same plugin process, right after
 * checking them with): the replacement must still count one above the stored generation, or
 * its marker is the replaced object's and its create takes that object over, which the
 * engine's delete of the replaced object then removes. No API is involved (Template's check).
 */
import { implementation } from "../../provider/runtime";
import { resetRuntime, setClientOptions } from "../../provider/context";

// check needs a configured key (a missing one fails at preview); nothing here calls the API.
beforeAll(() => setClientOptions({ apiKey: "unit-test-key", apiUrl: "http://127.0.0.1:9" }));
afterAll(() => resetRuntime());

const news = (identity: string) => ({ __provider: "text", __identity: identity, name: "t", image: "pytorch/pytorch" });

test("24.3 the engine's re-check without olds before a replacement counts from the olds it just checked against", async () => {
  const template = implementation("template");
  const identity = "proj/dev/Template/replaced";
  const stored = { ...(await template.check({}, news(identity))).inputs, __generation: 3 };
  expect((await template.check(stored, news(identity))).inputs.__generation).toBe(4);
  // The replacement's check: no olds, same process, same identity.
  expect((await template.check({}, news(identity))).inputs.__generation).toBe(4);
});

test("24.3 a resource not in state (first create, or the run after a killed one) counts from nothing", async () => {
  const template = implementation("template");
  expect((await template.check({}, news("proj/dev/Template/fresh"))).inputs.__generation).toBe(1);
  expect((await template.check({}, news("proj/dev/Template/fresh"))).inputs.__generation).toBe(1);
});
