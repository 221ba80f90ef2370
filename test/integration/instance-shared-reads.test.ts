/**
 * Reads and diffs of many instances in one process share walks of the paged list: a refresh of
 * N instances costs ceil(N/25) list calls (target: at most ceil(N/25) + 1), counted in the
 * simulator's request log.
 */
import { getClient } from "../../provider/context";
import {
  CREATE_PATH, ONE_PATH, PAGE_PATH, Props, checked, count, createChecked, instance,
} from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

const N = 55;
const args = { offerId: 700001, image: "pytorch/pytorch" };

// Each test gets a new provider client, as a new process would have: nothing cached.
// A rented offer is taken: each instance rents one of the bulk market.
const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS, reset: false, simulator: { marketOffers: N + 1 } });
let states: Array<{ id: string; props: Props }>;

beforeAll(async () => {
  const inputs = await checked(args);
  states = [];
  for (let i = 0; i < N; i++) {
    const { id } = await h.client.instances.create(800_001 + i, { image: "pytorch/pytorch", label: `worker-${i}` });
    states.push({ id: String(id), props: { ...inputs, instanceId: id, actualStatus: "running", marker: `m${i}` } });
  }
});
beforeEach(async () => {
  await getClient().instances.get(1); // load the HTTP stack outside the measured part
  await h.clearRequests();
});

const pages = (n: number) => Math.ceil(n / 25);

it(`a refresh of ${N} instances makes ${pages(N)} list calls and one charges walk, no other call`, async () => {
  const reads = await Promise.all(states.map((s) => instance.read(s.id, s.props)));
  expect(reads.map((r) => r.id)).toEqual(states.map((s) => s.id));
  expect(reads.map((r) => (r.props as Props).actualStatus)).toEqual(states.map(() => "running"));
  const requests = await h.requests();
  expect(count(requests, "GET", PAGE_PATH)).toBe(pages(N));
  // The spentUsd of all 55 comes from one walk of the charges (issue 27 item 5).
  expect(count(requests, "GET", /^\/api\/v0\/charges\/?$/)).toBe(1);
  expect(requests).toHaveLength(pages(N) + 1);
});

it("reads arriving in waves share the finished listing within its TTL", async () => {
  for (let wave = 0; wave < N; wave += 10) {
    await Promise.all(states.slice(wave, wave + 10).map((s) => instance.read(s.id, s.props)));
  }
  expect(count(await h.requests(), "GET", PAGE_PATH)).toBe(pages(N));
});

it(`diffs of ${N} unchanged instances share the same reads and write nothing`, async () => {
  const news = await checked(args);
  const diffs = await Promise.all(states.map((s) => instance.diff(s.id, s.props, news)));
  expect(diffs.every((d) => d.changes === false)).toBe(true);
  const requests = await h.requests();
  expect(requests.every((r) => r.method === "GET")).toBe(true);
  expect(count(requests, "GET", PAGE_PATH)).toBe(pages(N));
  expect(requests).toHaveLength(pages(N));
});

it("after this process changes one instance, only that one is read alone", async () => {
  await Promise.all(states.map((s) => instance.read(s.id, s.props)));
  const [first] = states;
  await instance.update(first.id, { ...first.props, label: "a" }, { ...(await checked(args)), label: "b" });
  await h.clearRequests();
  const reads = await Promise.all(states.map((s, i) => instance.read(s.id, i === 0 ? { ...s.props, label: "a" } : s.props)));
  expect((reads[0].props as Props).label).toBe("b");
  const requests = await h.requests();
  expect(count(requests, "GET", PAGE_PATH)).toBe(0);
  expect(requests.map((r) => r.path)).toEqual([expect.stringMatching(new RegExp(`^/api/v0/instances/${first.id}/?$`))]);
});

it("waiting for a new instance polls it directly, never the cached listing", async () => {
  await Promise.all(states.map((s) => instance.read(s.id, s.props)));
  await h.clearRequests();
  const { outs } = await createChecked(args);
  expect(outs.actualStatus).toBe("running");
  const requests = await h.requests();
  expect(count(requests, "PUT", CREATE_PATH)).toBe(1);
  expect(count(requests, "GET", ONE_PATH)).toBeGreaterThanOrEqual(1);
  expect(count(requests, "GET", PAGE_PATH)).toBe(0);
});

it("reads one instance created after the listing with one call instead of reporting it gone", async () => {
  await Promise.all(states.slice(0, 5).map((s) => instance.read(s.id, s.props)));
  const { id } = await h.client.instances.create(800_001 + N, { image: "elsewhere" });
  await h.clearRequests();
  const read = await instance.read(String(id), states[0].props);
  expect(read.id).toBe(String(id));
  // Beyond what the listing covered: read on its own (the walk's next page or a direct read).
  expect(count(await h.requests(), "GET", ONE_PATH) + count(await h.requests(), "GET", PAGE_PATH)).toBe(1);
  expect(await h.requests()).toHaveLength(1);
  await h.client.instances.destroy(id);
});
