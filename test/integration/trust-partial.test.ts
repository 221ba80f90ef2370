/**
 * Issue 23 item 6: a write that landed and a read-back that failed. State must say what exists:
 * an Instance update records the values it wrote, a rented volume is kept in state (a partial
 * failure carrying its id), and a Fleet delete whose listing fails leaves no gone member in
 * state. Against the simulator over HTTP; the read-back faults are the simulator's.
 */
import { providers } from "pulumi-vastai";
import { SEED } from "pulumi-vastai/simulator";
import { drive, type Driven } from "./account-resources-support";
import { useSimulator } from "../support/simulator";

type Props = Record<string, unknown>;
const PROVIDER = "serialized-provider-text";
const h = useSimulator({ providers: true, settings: { pollIntervalMs: 5, lostResponseLookups: 2, liveCacheTtlMs: 0 } });

async function checked(p: Driven, olds: Props, news: Props): Promise<Props> {
  const { inputs, failures } = await p.check(olds, { __provider: PROVIDER, ...news });
  expect(failures ?? []).toEqual([]);
  return inputs as Props;
}

async function made(p: Driven, news: Props): Promise<{ id: string; outs: Props }> {
  const { id, outs } = await p.create(await checked(p, {}, news));
  return { id, outs: outs as Props };
}

/** The rejection of `promise` with its partial-failure fields (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error & { id?: string; properties?: Props }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error("expected a rejection, got success");
  return error;
}

const READ_BACK_FAILS = { status: 500, times: 50 };
const instanceInputs = { offerId: SEED.offerIds[0], image: "nvidia/cuda:12.4.1-runtime-ubuntu22.04", label: "partial-a" };

describe("23.6 an Instance update whose read-back fails records what it wrote", () => {
  const instance = drive(providers.instance);

  async function updateWithReadBackFailing(first: Props, second: Props) {
    const { id, outs } = await made(instance, { ...instanceInputs, ...first });
    const news = await checked(instance, outs, { ...instanceInputs, ...second });
    await h.fault({ method: "GET", path: "/api/v0/instances/*", ...READ_BACK_FAILS });
    await h.fault({ method: "GET", path: "/api/v1/instances", ...READ_BACK_FAILS });
    const error = await rejection(instance.update(id, outs, news));
    await h.control("DELETE", "/faults");
    return { id, error, live: h.sim.state().instances.find((i) => String(i.id) === id) };
  }

  it("23.6 bid: the new bid is live and the error carries it as the instance's state", async () => {
    const { id, error, live } = await updateWithReadBackFailing({ bidPricePerHour: 0.25 }, { bidPricePerHour: 0.3 });
    expect(live?.bid_price).toBe(0.3);
    expect(error.id).toBe(id);
    expect(error.properties?.bidPricePerHour).toBe(0.3);
    expect(error.message).toMatch(/GET \/api\/v0\/instances\/\d+\/ failed: HTTP 500/);
    expect(error.message).toMatch(/the update was applied/);
  });

  it("23.6 update_template: the new image is live and the error carries it as the instance's state", async () => {
    const image = "nvidia/cuda:12.6.0-runtime-ubuntu22.04";
    const { id, error, live } = await updateWithReadBackFailing({}, { image });
    expect(live?.image_uuid).toBe(image);
    expect(error.id).toBe(id);
    expect(error.properties?.image).toBe(image);
    // The next diff sees no image change: the container is not recreated a second time.
    const diff = await instance.diff(id, error.properties as Props, await checked(instance, error.properties as Props, { ...instanceInputs, image }));
    expect(diff.replaces ?? []).toEqual([]);
    expect(diff.changes).toBe(false);
  });
});

describe("23.6 a volume whose read-back fails stays in state", () => {
  for (const [kind, offerId, listed] of [
    ["volume", 900001, "local"],
    ["networkVolume", 950001, "network"],
  ] as const) {
    it(`23.6 ${kind}: the create fails with a partial failure naming the rented volume`, async () => {
      const p = drive(providers[kind]);
      const inputs = await checked(p, {}, { name: "partial", sizeGb: 20, offerId });
      await h.fault({ method: "GET", path: "/api/v0/volumes", ...READ_BACK_FAILS });
      const error = await rejection(p.create(inputs));
      await h.control("DELETE", "/faults");
      const live = await h.client.volumes.list(listed);
      expect(live).toHaveLength(1);
      expect(error.id).toBe(String(live[0].id));
      expect(error.properties).toMatchObject({ volumeId: live[0].id, sizeGb: 20 });
      expect(error.message).toMatch(/GET \/api\/v0\/volumes\/ failed: HTTP 500/);
      // The state the error carries deletes it.
      await p.delete(error.id as string, error.properties as Props);
      expect(await h.client.volumes.list(listed)).toEqual([]);
    });
  }
});

describe("23.6 a Fleet delete whose listing fails", () => {
  it("23.6 destroys nothing, so the members in state are the live ones, and fails naming the listing", async () => {
    const fleet = drive(providers.fleet);
    const { id, outs } = await made(fleet, { count: 2, offer: { numGpus: 1, gpuRamGb: 24 }, image: "ubuntu:22.04", label: "partial-fleet" });
    const members = (outs.members as { id: number }[]).map((m) => m.id);
    expect(members).toHaveLength(2);
    await h.fault({ method: "GET", path: "/api/v1/instances", ...READ_BACK_FAILS });
    const error = await rejection(fleet.delete(id, outs));
    expect(error.message).toMatch(/GET \/api\/v1\/instances\/ failed: HTTP 500/);
    await h.control("DELETE", "/faults");
    const live = (await h.client.instances.list()).map((i) => i.id);
    expect(live.sort()).toEqual([...members].sort());
    await fleet.delete(id, outs);
    expect(await h.client.instances.list()).toEqual([]);
  });
});
