/**
 * Endpoint and WorkerGroup through Pulumi's own dynamic-provider plugin, from the package as a
 * user installs it, against the simulator: create -> read -> update in place -> delete, a
 * takeover by importId, and what deleting a group and an endpoint does to the worker instances.
 */
import { dynamicUrn } from "pulumi-vastai/testing";
import { testSmallLoader, useContract } from "./harness";

const fx = useContract("endpoint");

const urn = (type: string, name: string) => dynamicUrn("dev", "proj", type, name);
const instanceIds = () => (fx.sim.state().instances as { id: number }[]).map((i) => i.id);
const withProvider = (kind: string, props: Record<string, unknown>) => ({ __provider: fx.serialized[kind], ...props });

testSmallLoader("endpoint", "Endpoint");
testSmallLoader("workerGroup", "WorkerGroup");

test("Endpoint: create -> read -> update in place -> import -> delete", async () => {
  const u = urn("Endpoint", "llm");
  const checked = await fx.plugin.check(u, {}, withProvider("endpoint", { name: "llm", maxWorkers: 4 }));
  expect(checked.failures).toEqual([]);
  const created = await fx.plugin.create(u, checked.inputs);
  expect(created.id).toMatch(/^\d+$/);
  expect(created.properties).toMatchObject({ endpointId: Number(created.id), name: "llm", maxWorkers: 4, state: "active" });

  const read = await fx.plugin.read(u, created.id, created.properties, checked.inputs);
  expect(read).toMatchObject({ id: created.id, inputs: { name: "llm", maxWorkers: 4 } });
  expect(await fx.plugin.diff(u, created.id, read.properties, checked.inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });

  const changed = await fx.plugin.check(u, checked.inputs, withProvider("endpoint", { name: "llm-v2", maxWorkers: 8 }));
  expect(await fx.plugin.diff(u, created.id, read.properties, changed.inputs)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const updated = await fx.plugin.update(u, created.id, read.properties, changed.inputs);
  expect(updated.properties).toMatchObject({ endpointId: Number(created.id), name: "llm-v2", maxWorkers: 8 });

  // Pulumi's `import` option never reaches a dynamic provider (pulumi/pulumi#16175): another
  // resource takes the endpoint over with `importId`, without a create request.
  const adopter = urn("Endpoint", "adopter");
  const taking = await fx.plugin.check(adopter, {}, withProvider("endpoint", { name: "llm-v2", maxWorkers: 8, importId: created.id }));
  expect(taking.failures).toEqual([]);
  await fx.takeRequests();
  const imported = await fx.plugin.create(adopter, taking.inputs);
  expect(imported).toMatchObject({ id: created.id, properties: { name: "llm-v2", maxWorkers: 8, importId: created.id, imported: true } });
  expect((await fx.takeRequests()).filter((r) => r.method !== "GET")).toEqual([]);

  await fx.plugin.delete(u, created.id, updated.properties);
  expect((await fx.plugin.read(u, created.id, updated.properties)).id).toBe("");
  await fx.plugin.delete(u, created.id, updated.properties); // already gone: success
}, 30_000);

test("WorkerGroup: create starts workers -> update in place -> delete destroys them; an endpoint's delete takes its groups", async () => {
  const e = await fx.plugin.create(urn("Endpoint", "e"), (await fx.plugin.check(urn("Endpoint", "e"), {}, withProvider("endpoint", { name: "e" }))).inputs);
  const before = instanceIds();
  const u = urn("WorkerGroup", "g");
  const checked = await fx.plugin.check(u, {}, withProvider("workerGroup", { endpointId: e.id, searchParams: "gpu_ram>=23", testWorkers: 2 }));
  expect(checked.failures).toEqual([]);
  const created = await fx.plugin.create(u, checked.inputs);
  expect(created.properties).toMatchObject({ workerGroupId: Number(created.id), endpointId: e.id, endpointName: "e" });
  expect(instanceIds().length).toBe(before.length + 2);

  const read = await fx.plugin.read(u, created.id, created.properties, checked.inputs);
  expect(await fx.plugin.diff(u, created.id, read.properties, checked.inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
  const changed = await fx.plugin.check(u, checked.inputs, withProvider("workerGroup", { endpointId: e.id, searchParams: "gpu_name=RTX_4090", testWorkers: 2, coldWorkers: 1 }));
  expect(await fx.plugin.diff(u, created.id, read.properties, changed.inputs)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const updated = await fx.plugin.update(u, created.id, read.properties, changed.inputs);
  expect(updated.properties).toMatchObject({ workerGroupId: Number(created.id), searchParams: "gpu_name=RTX_4090", coldWorkers: 1 });

  await fx.plugin.delete(u, created.id, updated.properties);
  expect(instanceIds()).toEqual(before);
  expect((await fx.plugin.read(u, created.id, updated.properties)).id).toBe("");

  // A second group, left to the endpoint's delete.
  const g2 = await fx.plugin.create(urn("WorkerGroup", "g2"), checked.inputs);
  expect(instanceIds().length).toBe(before.length + 2);
  await fx.plugin.delete(urn("Endpoint", "e"), e.id, e.properties);
  expect(instanceIds()).toEqual(before);
  expect((await fx.plugin.read(urn("WorkerGroup", "g2"), g2.id, g2.properties)).id).toBe("");
  await fx.plugin.delete(urn("WorkerGroup", "g2"), g2.id, g2.properties); // gone with its endpoint: success
}, 30_000);
