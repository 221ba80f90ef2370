/** Read, diff, update and delete of instances through the provider against the simulator. */
import { UNKNOWN } from "../../provider/resources/kit";
import { useKey } from "./account-resources-support";
import {
  ONE_PATH, Props, checked, count, createChecked, instance, liveInstancesOf,
} from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS });

const args = { offerId: 700001, image: "pytorch/pytorch", label: "one" };
const writes = async () => (await h.requests()).filter((r) => r.method !== "GET" && !r.path.startsWith("/api/v0/bundles"));

it("changes the label in place", async () => {
  const { id, outs } = await createChecked(args);
  await h.clearRequests();
  const news = await checked({ ...args, label: "two" });
  expect(await instance.diff(id, outs, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  const { outs: after } = await instance.update(id, outs, news);
  expect(liveInstancesOf(h)[0].label).toBe("two");
  expect(after).toMatchObject({ label: "two", instanceId: outs.instanceId, marker: outs.marker, actualStatus: "running" });
  expect((await writes()).map((r) => [r.method, r.body])).toEqual([["PUT", { label: "two" }]]);
});

it("stops and starts the instance in place", async () => {
  const { id, outs } = await createChecked(args);
  const stopped = await instance.update(id, outs, await checked({ ...args, targetState: "stopped" }));
  expect(liveInstancesOf(h)[0]).toMatchObject({ intended_status: "stopped", actual_status: "stopped" });
  expect(stopped.outs).toMatchObject({ targetState: "stopped", intendedStatus: "stopped", actualStatus: "stopped" });
  const started = await instance.update(id, stopped.outs, await checked(args));
  expect(liveInstancesOf(h)[0]).toMatchObject({ intended_status: "running", actual_status: "running" });
  expect(started.outs).toMatchObject({ targetState: "running", actualStatus: "running" });
});

it("records a change of create settings without any call", async () => {
  const { id, outs } = await createChecked(args);
  await h.clearRequests();
  const news = await checked({ ...args, runningTimeoutMinutes: 30, waitForRunning: false });
  const { outs: after } = await instance.update(id, outs, news);
  expect(after).toMatchObject({ runningTimeoutMinutes: 30, waitForRunning: false, instanceId: outs.instanceId });
  expect(await h.requests()).toEqual([]);
});

it("shows drift on refresh: a label and a stop made outside Pulumi", async () => {
  const { id, outs } = await createChecked(args);
  await h.client.instances.setLabel(Number(id), "renamed");
  await h.client.instances.stop(Number(id));
  const read = await instance.read(id, outs);
  expect(read.id).toBe(id);
  expect(read.props).toMatchObject({ label: "renamed", targetState: "stopped", actualStatus: "stopped", intendedStatus: "stopped" });
  expect(read.inputs).toEqual({ ...(await checked(args)), __provider: undefined, label: "renamed", targetState: "stopped" });
  // The next diff puts the program's values back in place.
  const diff = await instance.diff(id, read.props as Props, await checked(args));
  expect(diff).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
});

it("records a status change on refresh and replaces a dead instance on the next diff", async () => {
  const { id, outs } = await createChecked(args);
  await h.control("POST", `/instances/${id}/status`, { actual_status: "exited" });
  useKey(h, h.sim.apiKey); // a new process: nothing cached
  const read = await instance.read(id, outs);
  expect(read.props).toMatchObject({ actualStatus: "exited", statusMsg: "The container exited" });
  await h.clearRequests();
  const diff = await instance.diff(id, outs, await checked(args));
  expect(diff).toEqual({ changes: true, replaces: ["actualStatus"], deleteBeforeReplace: true });
  expect(await writes()).toEqual([]);
});

it("makes no write in a preview diff with unknown values", async () => {
  const { id, outs } = await createChecked(args);
  await h.clearRequests();
  const diff = await instance.diff(id, outs, { ...(await checked(args)), label: UNKNOWN });
  expect(diff.changes).toBe(true);
  const requests = await h.requests();
  expect(requests.every((r) => r.method === "GET")).toBe(true);
  expect(requests.length).toBeLessThanOrEqual(1);
});

it("reads a destroyed instance as gone (empty id)", async () => {
  const { id, outs } = await createChecked(args);
  await h.client.instances.destroy(Number(id));
  expect(await instance.read(id, outs)).toEqual({ id: "" });
});

it("deletes the instance, and deleting one already gone succeeds", async () => {
  const { id, outs } = await createChecked(args);
  await instance.delete(id, outs);
  expect(liveInstancesOf(h)).toHaveLength(0);
  await expect(instance.delete(id, outs)).resolves.toBeUndefined();
  expect(count(await h.requests(), "DELETE", ONE_PATH)).toBe(2);
});

it("reads back an instance this process just changed, not an older listing", async () => {
  const { id, outs } = await createChecked(args);
  await instance.read(id, outs); // fills the shared listing
  await instance.update(id, outs, await checked({ ...args, label: "fresh" }));
  const read = await instance.read(id, outs);
  expect(read.props).toMatchObject({ label: "fresh" });
});
