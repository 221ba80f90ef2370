/**
 * Issue 34 items 2-3, Fleet: every member carries the fleet's guard with one deadline; a member
 * its autostop stopped is not healed back; after the deadline the fleet rents nothing (members
 * its guards destroyed are not replaced), through Pulumi's own dynamic-provider plugin.
 */
import { createClient, onstartScript, type VastClient } from "../../provider/client";
import { dynamicUrn } from "pulumi-vastai/testing";
import { useContract } from "./harness";

jest.setTimeout(120_000);

type Props = Record<string, unknown>;
type Member = { id: number; status: string; stoppedBy?: string | null };

const fx = useContract("fleet", { simulator: { bootMs: 0 }, config: { "vastai:pollIntervalMs": "5" } });
const urn = (name: string) => dynamicUrn("dev", "proj", "Fleet", name);
const membersOf = (props: Props) => props.members as Member[];
const liveIds = () => fx.sim.state().instances.map((i) => Number(i.id));
const onstartOf = (id: number) => onstartScript(String(fx.sim.state().instances.find((i) => Number(i.id) === id)?.onstart ?? ""));
const base = { offer: { numGpus: 1, gpuRamGb: 24 }, image: "pytorch/pytorch", onstart: "echo fleet-member", autostop: { idleMinutes: 20 }, ttl: "6h" };
let client: VastClient;
beforeAll(() => {
  client = createClient({ apiKey: fx.sim.apiKey, apiUrl: fx.sim.url, runUrl: fx.sim.runUrl, pacing: false });
});

async function checked(name: string, news: Props, olds: Props = {}): Promise<Props> {
  const { inputs, failures } = await fx.plugin.check(urn(name), olds, { __provider: fx.provider, __identity: `proj/dev/Fleet/${name}`, ...news });
  expect(failures).toEqual([]);
  return inputs;
}

test("34 Fleet: one deadline for every member, autostop-stopped members not healed, nothing rented after the deadline", async () => {
  const u = urn("guarded");
  const inputs = await checked("guarded", { ...base, count: 2 });
  const made = await fx.plugin.create(u, inputs);
  const deadline = made.properties.deadline as string;
  expect(Date.parse(deadline)).toBeGreaterThan(Date.now() + 5.9 * 3600_000);
  const [a, b] = membersOf(made.properties);
  // Every member's start command carries the guard with the same deadline, and the user's onstart.
  for (const m of [a, b]) {
    expect(onstartOf(m.id)).toContain(deadline);
    expect(onstartOf(m.id)).toContain("echo fleet-member");
  }

  // Member a is stopped by its autostop (its guard's call).
  await client.instances.stop(a.id);
  const same = await checked("guarded", { ...base, count: 2 }, made.properties);
  expect(await fx.plugin.diff(u, made.id, made.properties, same)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
  const read = await fx.plugin.read(u, made.id, made.properties, same);
  expect(membersOf(read.properties).find((m) => m.id === a.id)).toMatchObject({ stoppedBy: "autostop" });
  expect(read.properties.expired).toBe(false);
  // An update (a label change) keeps it as it is: not healed, not replaced, and the deadline stays.
  const relabel = await checked("guarded", { ...base, count: 2, label: "team-a" }, read.properties);
  const updated = await fx.plugin.update(u, made.id, read.properties, relabel);
  expect(membersOf(updated.properties).map((m) => m.id)).toEqual([a.id, b.id]);
  expect(updated.properties.deadline).toBe(deadline);
  expect(liveIds().sort()).toEqual([a.id, b.id].sort());
  expect(fx.sim.state().instances.find((i) => Number(i.id) === a.id)).toMatchObject({ intended_status: "stopped" });
  // wake: the program asks: the stopped member starts again, the same instance.
  const woken = await checked("guarded", { ...base, count: 2, label: "team-a", wake: "1" }, updated.properties);
  const started = await fx.plugin.update(u, made.id, updated.properties, woken);
  expect(membersOf(started.properties).map((m) => [m.id, m.status, m.stoppedBy])).toEqual([
    [a.id, "running", null],
    [b.id, "running", null],
  ]);
  // Member b stopped by its guard, its machine showing it exited: still not healed.
  await client.instances.stop(b.id);
  await fx.control("POST", `/instances/${b.id}/status`, { actual_status: "exited" });
  expect(await fx.plugin.diff(u, made.id, started.properties, woken)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });

  // The deadline passes (state as it is then) and member b's guard destroys it: nothing is rented again.
  const passed = { ...started.properties, deadline: new Date(Date.now() - 60_000).toISOString().replace(/\.\d{3}Z$/, "Z") };
  await client.instances.destroy(b.id);
  expect(await fx.plugin.diff(u, made.id, passed, woken)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
  const expired = await fx.plugin.read(u, made.id, passed, woken);
  expect(expired.properties.expired).toBe(true);
  const after = await fx.plugin.update(u, made.id, passed, woken);
  expect(after.properties.expired).toBe(true);
  expect(membersOf(after.properties).map((m) => m.id)).toEqual([a.id]);
  expect(liveIds()).toEqual([a.id]);
  await fx.plugin.delete(u, made.id, after.properties);
  expect(liveIds()).toEqual([]);
});

test("34 Fleet refuses autostop with action destroy, naming the field and why", async () => {
  const { failures } = await fx.plugin.check(urn("bad"), {}, { __provider: fx.provider, ...base, count: 1, autostop: { idleMinutes: 5, action: "destroy" } });
  expect(failures).toEqual([{ property: "autostop.action", reason: expect.stringMatching(/^autostop\.action: must be "stop" on a Fleet/) }]);
});
