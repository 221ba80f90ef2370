/**
 * Fleet through Pulumi's own dynamic-provider plugin, from the package as a user installs it,
 * against the simulator: create, heal a dead member, scale, roll an image change in place, refuse over
 * budget, honour the spread, delete.
 */
import { PluginCallError, dynamicUrn } from "pulumi-vastai/testing";
import { testSmallLoader, useContract } from "./harness";

jest.setTimeout(120_000);

type Props = Record<string, unknown>;
type Member = { id: number; offerId: number; country: string; status: string; spec: string; machineId: number };

const fx = useContract("fleet", { simulator: { bootMs: 0 }, config: { "vastai:pollIntervalMs": "5" } });

const urn = (name: string) => dynamicUrn("dev", "proj", "Fleet", name);
const liveIds = () => fx.sim.state().instances.map((i) => Number(i.id)).sort((a, b) => a - b);
const membersOf = (props: Props) => props.members as Member[];
const base = { offer: { numGpus: 1, gpuRamGb: 24 }, image: "pytorch/pytorch" };

async function checked(name: string, news: Props, olds: Props = {}): Promise<Props> {
  const { inputs, failures } = await fx.plugin.check(urn(name), olds, { __provider: fx.provider, __identity: `proj/dev/Fleet/${name}`, ...news });
  expect(failures).toEqual([]);
  return inputs;
}

testSmallLoader("fleet", "Fleet");

test("create, heal a dead member, scale down, roll an image change, delete", async () => {
  const u = urn("workers");
  const inputs = await checked("workers", { ...base, count: 3 });
  const made = await fx.plugin.create(u, inputs);
  expect(membersOf(made.properties).map((m) => m.offerId)).toEqual([700005, 700001, 700017]);
  expect(made.properties).toMatchObject({ healthy: 3, fleetKey: made.id });
  expect(liveIds()).toHaveLength(3);

  // heal: one member exits; the diff sees it, the update replaces it elsewhere
  const dead = membersOf(made.properties)[1];
  await fx.control("POST", `/instances/${dead.id}/status`, { actual_status: "exited" });
  const same = await checked("workers", { ...base, count: 3 }, made.properties);
  expect(await fx.plugin.diff(u, made.id, made.properties, same)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const healed = await fx.plugin.update(u, made.id, made.properties, same);
  expect(membersOf(healed.properties).map((m) => m.offerId)).toEqual([700005, 700017, 700024]);
  expect(Object.keys(healed.properties.badHosts as object)).toEqual([String(dead.machineId)]);
  expect(healed.properties.healthy).toBe(3);
  expect(await fx.plugin.diff(u, made.id, healed.properties, same)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });

  // scale down: the most expensive member goes
  const two = await checked("workers", { ...base, count: 2 }, healed.properties);
  const scaled = await fx.plugin.update(u, made.id, healed.properties, two);
  expect(membersOf(scaled.properties).map((m) => m.offerId)).toEqual([700005, 700017]);
  expect(liveIds()).toHaveLength(2);

  // roll: a new image updates every member in place, one at a time (minHealthy 1): same instances
  const rolled = await checked("workers", { ...base, count: 2, minHealthy: 1, image: "vllm/vllm-openai:latest" }, scaled.properties);
  const after = await fx.plugin.update(u, made.id, scaled.properties, rolled);
  const members = membersOf(after.properties);
  expect(members.map((m) => m.id)).toEqual(membersOf(scaled.properties).map((m) => m.id));
  expect(fx.sim.state().instances.map((i) => i.image_uuid)).toEqual(["vllm/vllm-openai:latest", "vllm/vllm-openai:latest"]);

  await fx.plugin.delete(u, made.id, after.properties);
  expect(liveIds()).toEqual([]);
});

test("members are listed in the order their offers were chosen, whatever order the rentals are answered in", async () => {
  // The cheapest offer's rental answers last: the members still come out cheapest first, so that
  // two runs of the same program record the same state (a reordered list is a diff in the engine).
  await fx.control("POST", "/faults", { method: "PUT", path: "/api/v0/asks/700005/", times: 1, delayMs: 300 });
  const inputs = await checked("ordered", { ...base, count: 3 });
  const made = await fx.plugin.create(urn("ordered"), inputs);
  expect(membersOf(made.properties).map((m) => m.offerId)).toEqual([700005, 700001, 700017]);
  await fx.plugin.delete(urn("ordered"), made.id, made.properties);
  expect(liveIds()).toEqual([]);
});

test("a fleet over maxHourlyCost is refused before anything is rented", async () => {
  const inputs = await checked("dear", { ...base, count: 3, maxHourlyCost: 0.2 });
  const error = await fx.plugin.create(urn("dear"), inputs).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PluginCallError);
  expect((error as Error).message).toMatch(/the projected cost [\d.]+ \$\/hour exceeds maxHourlyCost 0\.2 .*3 new member\(s\).*nothing was rented/);
  expect(liveIds()).toEqual([]);
});

test("the spread is honoured: at most one member per country", async () => {
  const inputs = await checked("spread", { ...base, count: 4, spread: { by: "country", max: 1 } });
  const made = await fx.plugin.create(urn("spread"), inputs);
  const countries = membersOf(made.properties).map((m) => m.country);
  expect(new Set(countries).size).toBe(4);
  await fx.plugin.delete(urn("spread"), made.id, made.properties);
  expect(liveIds()).toEqual([]);
});

test("check failures name the property, the rule and the value", async () => {
  const { failures } = await fx.plugin.check(urn("bad"), {}, { __provider: fx.provider, ...base, count: 2, minHealthy: 3, spred: {} });
  expect(failures.map((f) => f.property).sort()).toEqual(["minHealthy", "spred"]);
  expect(failures.find((f) => f.property === "spred")?.reason).toMatch(/did you mean spread/);
});
