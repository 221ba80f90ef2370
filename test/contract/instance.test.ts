/**
 * Instance through Pulumi's own dynamic-provider plugin, from the package as a user installs
 * it, against the simulator: check -> create -> read -> update label -> the simulator marks
 * the instance exited -> diff says replace -> create the replacement -> delete the old one.
 */
import { PluginCallError, UNKNOWN_VALUE } from "pulumi-vastai/testing";
import { testSmallLoader, useInstanceContract } from "./harness";

type Props = Record<string, unknown>;

const { fx, urn, liveIds, writesSinceLast } = useInstanceContract();

testSmallLoader("instance", "Instance");

test("create, read, update the label, replace when the instance exits, delete the old one", async () => {
  const news: Props = { __provider: fx.provider, offer: { gpuName: "RTX 4090", gpuRamGb: 24 }, image: "pytorch/pytorch", label: "first" };
  const checked = await fx.plugin.check(urn("gpu"), {}, news);
  expect(checked.failures).toEqual([]);
  expect(checked.inputs).toMatchObject({ targetState: "running", waitForRunning: true, runningTimeoutMinutes: 10, maxCreateAttempts: 3 });

  // create: rents the cheapest match and waits for running
  const created = await fx.plugin.create(urn("gpu"), checked.inputs);
  expect(liveIds()).toEqual([created.id]);
  expect(created.properties).toMatchObject({
    instanceId: Number(created.id), offerId: 700001, actualStatus: "running", gpuName: "RTX 4090", label: "first",
    marker: expect.any(String), instanceApiKey: expect.any(String),
  });
  expect(await writesSinceLast()).toEqual([`PUT /api/v0/asks/700001/`]);

  // read: nothing drifted; a diff against the same inputs changes nothing and writes nothing
  const read = await fx.plugin.read(urn("gpu"), created.id, created.properties, checked.inputs);
  expect(read.id).toBe(created.id);
  expect(read.properties).toMatchObject({ actualStatus: "running", label: "first", offerId: 700001 });
  expect(read.inputs).not.toHaveProperty("offerId");
  expect(await fx.plugin.diff(urn("gpu"), created.id, read.properties, checked.inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });

  // update the label in place
  const relabelled = await fx.plugin.check(urn("gpu"), checked.inputs, { ...news, label: "second" });
  expect(await fx.plugin.diff(urn("gpu"), created.id, read.properties, relabelled.inputs)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const updated = await fx.plugin.update(urn("gpu"), created.id, read.properties, relabelled.inputs);
  expect(updated.properties).toMatchObject({ label: "second", instanceId: Number(created.id), marker: created.properties.marker });
  expect(fx.sim.state().instances[0].label).toBe("second");
  expect(await writesSinceLast()).toEqual([`PUT /api/v0/instances/${created.id}/`]);

  // the instance exits: the next diff (no refresh in between) replaces it, writing nothing
  await fx.control("POST", `/instances/${created.id}/status`, { actual_status: "exited" });
  const diff = await fx.plugin.diff(urn("gpu"), created.id, updated.properties, relabelled.inputs);
  expect(diff).toEqual({ changes: "some", replaces: ["actualStatus"], deleteBeforeReplace: false });
  expect(await writesSinceLast()).toEqual([]);

  // replace: create the new one first, then delete the old one
  const replacement = await fx.plugin.create(urn("gpu"), relabelled.inputs);
  expect(replacement.id).not.toBe(created.id);
  expect(replacement.properties).toMatchObject({ actualStatus: "running", label: "second" });
  await fx.plugin.delete(urn("gpu"), created.id, updated.properties);
  expect(liveIds()).toEqual([replacement.id]);

  // a refresh of the deleted one reports it gone; its delete again succeeds
  expect((await fx.plugin.read(urn("gpu"), created.id, updated.properties)).id).toBe("");
  await fx.plugin.delete(urn("gpu"), created.id, updated.properties);
  await fx.plugin.delete(urn("gpu"), replacement.id, replacement.properties);
  expect(liveIds()).toEqual([]);
});

test("a preview with unknown values checks and diffs without writing", async () => {
  const created = await fx.plugin.create(urn("p"), (await fx.plugin.check(urn("p"), {}, { __provider: fx.provider, offerId: 700005, image: "x" })).inputs);
  await writesSinceLast();
  const news = { __provider: fx.provider, offerId: 700005, image: "x", templateHashId: UNKNOWN_VALUE, sshKeyIds: UNKNOWN_VALUE, vm: true };
  const checked = await fx.plugin.check(urn("p"), created.properties, news);
  expect(checked.failures).toEqual([]);
  const diff = await fx.plugin.diff(urn("p"), created.id, created.properties, checked.inputs);
  // templateHashId (unknown in preview) changes in place (update_template); vm replaces.
  expect(diff.replaces).toEqual(["vm"]);
  expect(await writesSinceLast()).toEqual([]);
  await fx.plugin.delete(urn("p"), created.id, created.properties);
});

test("check failures name the property and the rule", async () => {
  const { failures } = await fx.plugin.check(urn("bad"), {}, { __provider: fx.provider, offerId: 700001, offer: { gpuName: "x" }, vm: true, onstart: 5 });
  expect(failures.map((f) => f.property).sort()).toEqual(["image", "offer", "onstart", "vm"]);
  expect(failures.find((f) => f.property === "vm")?.reason).toMatch(/vm: a VM instance needs sshKeyIds/);
});

test("a boot that keeps failing is a partial failure: the engine keeps the id", async () => {
  await fx.control("POST", "/next-boot", { actual_status: "exited", times: 2 });
  const { inputs } = await fx.plugin.check(urn("f"), {}, { __provider: fx.provider, offerId: 700001, image: "x", maxCreateAttempts: 2 });
  const error = await fx.plugin.create(urn("f"), inputs).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PluginCallError);
  const init = (error as PluginCallError).initFailure;
  expect(liveIds()).toEqual([init?.id]);
  expect(init?.properties).toMatchObject({ __provider: fx.provider, instanceId: Number(init?.id), actualStatus: "exited" });
  expect(init?.reasons[0]).toMatch(/became exited while booting/);
  // The next diff replaces it; its delete removes it.
  expect((await fx.plugin.diff(urn("f"), init!.id, init!.properties, inputs)).replaces).toEqual(["actualStatus"]);
  await fx.plugin.delete(urn("f"), init!.id, init!.properties);
  expect(liveIds()).toEqual([]);
});
