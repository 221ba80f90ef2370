/**
 * In-place updates that keep the machine (issue 15 point 2), over real HTTP against the
 * simulator: the update endpoint with the vendor client's body, the recreated container on the
 * same machine, refusals (caused with `POST /_sim/machines/{id}/refuse-updates`), and the
 * Instance provider's update, refusal error, drift read-back and `updatePolicy: "replace"`.
 */
import { VastApiError, VastOperationError } from "../../provider/client";
import { PartialFailure } from "../../provider/resources/kit";
import { MARKER_ENV } from "../../provider/resources/instance/inputs";
import { useKey } from "./account-resources-support";
import { checked, createChecked, instance, liveInstancesOf, rejection } from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS });

/** Offer 700001 runs on machine 30001. */
const MACHINE = 30001;
const args = { offerId: 700001, image: "pytorch/pytorch", env: { A: "1" }, onstart: "echo hi", label: "keep" };
const UPDATE_PATH = /^\/api\/v0\/instances\/update_template\/\d+\/$/;
const updates = async () => (await h.requests()).filter((r) => r.method === "PUT" && UPDATE_PATH.test(r.path));
const live = (id: string | number) => h.sim.state().instances.find((i) => i.id === Number(id))!;

describe("the update endpoint (client and simulator)", () => {
  it("recreates the container on the same machine: running again, same machine and ports", async () => {
    const { id } = await h.client.instances.create(700001, { image: "ubuntu", env: { A: "1" } });
    const before = (await h.client.instances.get(id))!;
    await h.client.instanceActions.updateTemplate(id, { image: "nginx", env: { A: "2", B: "3" }, onstart: "echo new", argsStr: "--x" });
    const after = (await h.client.instances.get(id))!;
    expect(after).toMatchObject({ actualStatus: "running", machineId: before.machineId, sshPort: before.sshPort, imageUuid: "nginx:latest", onstart: "echo new" });
    expect(after.extraEnv).toEqual(expect.arrayContaining([["A", "2"], ["B", "3"]]));
    expect(live(id)).toMatchObject({ template_updates: 1 });
    expect((await updates()).map((r) => r.body)).toEqual([{ id, image: "nginx", args: "--x", env: { A: "2", B: "3" }, onstart: "echo new" }]);
  });

  it("a template's hash sets template_hash_id, its image and its env", async () => {
    const { template } = await h.client.templates.create({ name: "inplace", image: "vllm/vllm", tag: "v1", env: { T: "1" } });
    const { id } = await h.client.instances.create(700001, { image: "ubuntu" });
    await h.client.instanceActions.updateTemplate(id, { templateHashId: template.hashId });
    const after = (await h.client.instances.get(id))!;
    expect(after).toMatchObject({ templateHashId: template.hashId, imageUuid: "vllm/vllm:v1" });
    expect(after.extraEnv).toEqual(expect.arrayContaining([["T", "1"]]));
  });

  it("refuses a stopped instance and a machine told to refuse, as success false with msg; unknown ids are 404", async () => {
    // Another offer: 700001 is rented once (a rented offer is taken).
    const stopped = await h.client.instances.create(700002, { image: "ubuntu", targetState: "stopped" });
    const e1 = await h.client.instanceActions.updateTemplate(stopped.id, { image: "nginx" }).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(VastOperationError);
    expect((e1 as VastOperationError).serverMessage).toMatch(/stopped/);
    const { id } = await h.client.instances.create(700001, { image: "ubuntu" });
    await h.control("POST", `/machines/${MACHINE}/refuse-updates`, { reason: "the machine cannot pull a new image now" });
    const e2 = await h.client.instanceActions.updateTemplate(id, { image: "nginx" }).catch((e: unknown) => e);
    expect((e2 as VastOperationError).serverMessage).toBe("the machine cannot pull a new image now");
    expect(live(id)).toMatchObject({ template_updates: 0, image_uuid: "ubuntu:latest" });
    await h.control("POST", `/machines/${MACHINE}/refuse-updates`, { reason: null });
    await h.client.instanceActions.updateTemplate(id, { image: "nginx" });
    const gone = await h.client.instanceActions.updateTemplate(999_999, { image: "x" }).catch((e: unknown) => e);
    expect((gone as VastApiError).status).toBe(404);
  });

  it("a key without instance_write cannot update; a body without fields is refused", async () => {
    const { id } = await h.client.instances.create(700001, { image: "ubuntu" });
    const key = await h.client.apiKeys.create({ name: "reader", scopes: ["instance_read"] });
    const call = (apiKey: string, body: unknown) =>
      fetch(`${h.sim.url}/api/v0/instances/update_template/${id}/`, {
        method: "PUT",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await call(key.key, { id, image: "nginx" })).status).toBe(403);
    const empty = await call(h.sim.apiKey, { id });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ success: false, error: "invalid_args" });
  });
});

describe("the Instance provider updates in place", () => {
  it("changes image, env, onstart in place: one update call, same instance, marker kept, lastUpdate in-place", async () => {
    const { id, outs } = await createChecked(args);
    const news = await checked({ ...args, image: "nginx", env: { A: "2" }, onstart: "echo bye" });
    expect(await instance.diff(id, outs, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    await h.clearRequests();
    const { outs: after } = await instance.update(id, outs, news);
    const sent = await updates();
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toEqual({ id: Number(id), image: "nginx", env: { A: "2", [MARKER_ENV]: outs.marker }, onstart: "echo bye" });
    expect(after).toMatchObject({ lastUpdate: "in-place", actualStatus: "running", imageInUse: "nginx:latest", machineId: outs.machineId, sshPort: outs.sshPort });
    expect(liveInstancesOf(h)).toHaveLength(1);
    // Read shows no drift afterwards.
    const read = await instance.read(id, after);
    expect(read.inputs).toMatchObject({ image: "nginx", env: { A: "2" }, onstart: "echo bye" });
  });

  it("a refusal fails the update clearly, changes nothing, and the next diff falls back to replacing", async () => {
    const { id, outs } = await createChecked(args);
    await h.control("POST", `/machines/${MACHINE}/refuse-updates`, { reason: "no room for the new image" });
    const news = await checked({ ...args, image: "nginx", label: "other" });
    const error = await rejection(instance.update(id, outs, news));
    expect(error.message).toMatch(/the service refused the in-place update of image: no room for the new image/);
    expect(error.message).toMatch(/The next pulumi up replaces the instance with a new rental for this change/);
    expect(error.message).toMatch(/updatePolicy: "replace"/);
    expect(error.message).not.toMatch(/\n\s+at /);
    // Nothing else was applied either (the label stays).
    expect(live(id)).toMatchObject({ label: "keep", image_uuid: "pytorch/pytorch:latest" });
    // State keeps what the instance runs, and the refusal: the next diff replaces for it.
    expect(error).toBeInstanceOf(PartialFailure);
    const kept = (error as unknown as PartialFailure).properties;
    expect(kept).toMatchObject({ image: "pytorch/pytorch", label: "keep", inPlaceRefused: { keys: ["image"], reason: "no room for the new image" } });
    expect(kept.lastUpdate).toBe("refused in place (no room for the new image): the next up replaces");
    expect((await instance.diff(id, kept, news)).replaces).toEqual(["image"]);
    // A refresh keeps the refusal; reverting the change keeps the instance.
    const refreshed = await instance.read(id, kept);
    expect((await instance.diff(id, refreshed.props ?? {}, news)).replaces).toEqual(["image"]);
    expect((await instance.diff(id, refreshed.props ?? {}, await checked({ ...args, label: "other" }))).replaces).toEqual([]);
    // With updatePolicy "replace" the diff asks for a replacement.
    const replacing = await checked({ ...args, image: "nginx", updatePolicy: "replace" });
    expect((await instance.diff(id, outs, replacing)).replaces).toEqual(["image"]);
  });

  it("read reports drift of template inputs the service shows", async () => {
    const { id, outs } = await createChecked(args);
    const unchanged = await instance.read(id, outs);
    expect(unchanged.inputs).toMatchObject({ image: "pytorch/pytorch", env: { A: "1" }, onstart: "echo hi" });
    await h.client.instanceActions.updateTemplate(Number(id), { image: "other", env: { A: "9" }, onstart: "echo drift" });
    useKey(h, h.sim.apiKey); // a new plugin process: nothing cached
    const drifted = await instance.read(id, outs);
    expect(drifted.inputs).toMatchObject({ image: "other:latest", env: { A: "9" }, onstart: "echo drift" });
    // The next diff against the program's values is an in-place update back.
    expect(await instance.diff(id, drifted.props!, await checked(args))).toMatchObject({ changes: true, replaces: [] });
  });

  it("a template edit (new hashId) updates the instance in place", async () => {
    const { template } = await h.client.templates.create({ name: "tpl-inplace", image: "vllm/vllm", tag: "v1" });
    const tplArgs = { offerId: 700001, templateHashId: template.hashId };
    const { id, outs } = await createChecked(tplArgs);
    const edited = await h.client.templates.edit(template.hashId, { tag: "v2" });
    const news = await checked({ ...tplArgs, templateHashId: edited.hashId });
    expect(await instance.diff(id, outs, news)).toMatchObject({ replaces: [] });
    const { outs: after } = await instance.update(id, outs, news);
    expect(after).toMatchObject({ templateHashIdInUse: edited.hashId, imageInUse: "vllm/vllm:v2", lastUpdate: "in-place" });
    expect(String(after.instanceId)).toBe(id);
  });
});
