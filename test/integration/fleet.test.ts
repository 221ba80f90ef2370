/**
 * Fleet through its provider against the simulator over HTTP: claims, heal, scale, roll, budget,
 * spread, adoption, delete; readiness (the simulator publishes a machine's container port on a
 * loopback listener of this test, `POST /_sim/machines/{id}/ports`) and in-place rolls (refusals
 * caused with `POST /_sim/machines/{id}/refuse-updates`).
 */
import { FLEET_BASE, useFleetProvider } from "./fleet-support";
import { resetClaims } from "../../provider/resources/fleet/claims";
import { SPEC_KEYS } from "../../provider/resources/fleet/inputs";
import { specOf } from "../../provider/resources/fleet/members";
import { stackIdentityOf } from "../../provider/resources/kit/create-once";
import { PartialFailure, setTiming, setWarningSink, type WarningSink } from "../../provider/resources/kit";
import { closedPort, useHealthServer, useSteppedClock } from "../support/readiness";
import { SEED } from "pulumi-vastai/simulator";
import { CREATE_PATH, ONE_PATH, PAGE_PATH, count, rejection } from "./instance-support";

type Props = Record<string, unknown>;
type Member = { id: number; offerId: number; machineId: number; country: string; status: string; pricePerHour: number; marker: string; spec: string };

const { h, fleet, checked } = useFleetProvider();
const base = FLEET_BASE;

async function created(news: Props): Promise<{ id: string; outs: Props }> {
  const r = await fleet.create(await checked(news));
  return { id: r.id, outs: r.outs as Props };
}

const membersOf = (outs: Props) => outs.members as Member[];
const liveIds = () => h.sim.state().instances.map((i: Props) => Number(i.id)).sort((a: number, b: number) => a - b);

it("creates count members on distinct offers, cheapest first, each carrying the fleet's marker", async () => {
  const { id, outs } = await created({ ...base, count: 3 });
  const members = membersOf(outs);
  expect(members.map((m) => m.offerId)).toEqual([700005, 700001, 700017]);
  expect(new Set(members.map((m) => m.offerId)).size).toBe(3);
  expect(members.every((m) => m.status === "running" && m.marker.startsWith(`${id}.`))).toBe(true);
  expect(outs).toMatchObject({ healthy: 3, fleetKey: id, badHosts: {} });
  expect(outs.hourlyCost).toBeCloseTo(members.reduce((s, m) => s + m.pricePerHour, 0), 6);
  expect(liveIds()).toEqual(members.map((m) => m.id).sort((a, b) => a - b));
  const env = h.sim.state().instances.map((i: Props) => JSON.stringify(i.extra_env));
  expect(env.every((e: string) => e.includes("PULUMI_VASTAI_MARKER"))).toBe(true);
});

it("two fleets created at once in one process never rent the same offer", async () => {
  const [a, b] = await Promise.all([
    fleet.create(await checked({ ...base, count: 2 })),
    fleet.check({}, { __provider: "p", __identity: "proj/dev/Fleet/other", ...base, count: 2 }).then((c) => fleet.create(c.inputs as Props)),
  ]);
  const offers = [...membersOf(a.outs as Props), ...membersOf(b.outs as Props)].map((m) => m.offerId);
  expect(new Set(offers).size).toBe(4);
});

it("an offer the service says is gone is skipped for the next match", async () => {
  await h.fault({ method: "PUT", path: "/api/v0/asks/700001", status: 404, body: { success: false, error: "no_such_ask", msg: "No ask by id 700001 is available." } });
  const { outs } = await created({ ...base, count: 2 });
  expect(membersOf(outs).map((m) => m.offerId)).toEqual([700005, 700017]);
  expect(liveIds()).toHaveLength(2);
});

it("refuses a fleet over maxHourlyCost before renting, naming the budget, the projection and its breakdown", async () => {
  await h.clearRequests();
  const error = await rejection(fleet.create(await checked({ ...base, count: 3, maxHourlyCost: 0.5 })));
  expect(error.message).toMatch(/^Fleet "workers": the projected cost 0\.\d+ \$\/hour exceeds maxHourlyCost 0\.5 \(\$\/hour\): 3 new member\(s\) .*offer 700005.*; nothing was rented$/);
  expect(count(await h.requests(), "PUT", CREATE_PATH)).toBe(0);
  expect(liveIds()).toEqual([]);
});

it("honours the spread: at most one member per country", async () => {
  const { outs } = await created({ ...base, count: 4, spread: { by: "country", max: 1 } });
  const countries = membersOf(outs).map((m) => m.country);
  expect(new Set(countries).size).toBe(4);
  // Without the spread, California (US) would join US at 0.55 $/h; with it, Taiwan is taken instead.
  expect(membersOf(outs).map((m) => m.offerId)).toEqual([700005, 700001, 700017, 700021]);
});

it("heals: a dead member is seen by diff, replaced by update on another machine, its machine remembered", async () => {
  const { id, outs } = await created({ ...base, count: 2, badHostMinutes: 30 });
  const [dead, alive] = membersOf(outs);
  await h.control("POST", `/instances/${dead.id}/status`, { actual_status: "exited" });
  const news = await checked({ ...base, count: 2, badHostMinutes: 30 }, outs);
  expect(await fleet.diff(id, outs, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  await h.clearRequests();
  const { outs: healed } = await fleet.update(id, outs, news);
  const members = membersOf(healed as Props);
  expect(members).toHaveLength(2);
  expect(members[0].id).toBe(alive.id);
  expect(members[1].machineId).not.toBe(dead.machineId);
  expect(Object.keys((healed as Props).badHosts as object)).toEqual([String(dead.machineId)]);
  expect(liveIds()).toEqual(members.map((m) => m.id).sort((a, b) => a - b));
  const log = await h.requests();
  expect(count(log, "PUT", CREATE_PATH)).toBe(1);
  expect(count(log, "GET", PAGE_PATH)).toBeLessThanOrEqual(3);
  // The healed fleet has nothing to do.
  expect(await fleet.diff(id, healed as Props, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
});

it("heals 5 dead members of 15 in one up (diff and update) with ceil(15/25)+1 list calls and 5 creates", async () => {
  const args = { offer: {}, image: "pytorch/pytorch", count: 15 };
  const { id, outs } = await created(args);
  expect(membersOf(outs)).toHaveLength(15);
  const dead = membersOf(outs).slice(0, 5);
  for (const m of dead) await h.control("POST", `/instances/${m.id}/status`, { actual_status: "offline" });
  await h.clearRequests();
  const news = await checked(args, outs);
  expect((await fleet.diff(id, outs, news)).changes).toBe(true);
  const { outs: healed } = await fleet.update(id, outs, news);
  const log = await h.requests();
  expect(membersOf(healed as Props).filter((m) => m.status === "running")).toHaveLength(15);
  expect(count(log, "PUT", CREATE_PATH)).toBe(5);
  expect(count(log, "GET", PAGE_PATH)).toBeLessThanOrEqual(Math.ceil(15 / 25) + 1);
  expect(log.filter((r) => r.status === 429)).toEqual([]);
});

it("a machine remembered as bad is not rented again while the memory lasts, and is forgotten after it", async () => {
  const { id, outs } = await created({ ...base, count: 1 });
  const until = Date.now() + 3_600_000;
  // Machine 30001 (offer 700001) died earlier; 30024 (offer 700024) was remembered long ago.
  const remembered = { ...outs, badHosts: { "30001": until, "30024": Date.now() - 1 } };
  const { outs: grown } = await fleet.update(id, remembered, await checked({ ...base, count: 3 }, outs));
  expect(membersOf(grown as Props).map((m) => m.offerId)).toEqual([700005, 700017, 700024]);
  expect((grown as Props).badHosts).toEqual({ "30001": until });
});

it("scales down by removing the most expensive members first, and up again", async () => {
  const { id, outs } = await created({ ...base, count: 3 });
  const { outs: down } = await fleet.update(id, outs, await checked({ ...base, count: 1 }, outs));
  expect(membersOf(down as Props).map((m) => m.offerId)).toEqual([700005]);
  expect(liveIds()).toHaveLength(1);
  const { outs: up } = await fleet.update(id, down as Props, await checked({ ...base, count: 2 }, down as Props));
  expect(membersOf(up as Props).map((m) => m.offerId)).toEqual([700005, 700001]);
});

it("rolls an image change by replacement under updatePolicy replace, member by member, never below minHealthy running", async () => {
  const { id, outs } = await created({ ...base, count: 3 });
  const news = await checked({ ...base, count: 3, image: "vllm/vllm-openai:latest", minHealthy: 2, updatePolicy: "replace" }, outs);
  await h.clearRequests();
  const { outs: rolled } = await fleet.update(id, outs, news);
  const members = membersOf(rolled as Props);
  expect(members).toHaveLength(3);
  expect(new Set(members.map((m) => m.spec)).size).toBe(1);
  expect(members.every((m) => !membersOf(outs).some((o) => o.id === m.id))).toBe(true);
  const images = h.sim.state().instances.map((i: Props) => i.image_uuid);
  expect(images).toEqual(["vllm/vllm-openai:latest", "vllm/vllm-openai:latest", "vllm/vllm-openai:latest"]);
  // One destroy, then one create, at a time: never fewer than two running.
  const order = (await h.requests()).filter((r) => r.method === "PUT" || r.method === "DELETE").map((r) => r.method);
  expect(order).toEqual(["DELETE", "PUT", "DELETE", "PUT", "DELETE", "PUT"]);
});

it("adopts the members a killed run left (found by marker) instead of renting more", async () => {
  const first = await created({ ...base, count: 2 });
  resetClaims();
  // The run's state was never written: the same create runs again.
  const again = await created({ ...base, count: 2 });
  expect(membersOf(again.outs).map((m) => [m.id, m.offerId])).toEqual(membersOf(first.outs).map((m) => [m.id, m.offerId]));
  expect(liveIds()).toHaveLength(2);
});

it("a dead instance a killed run left is destroyed, not counted as a member", async () => {
  const first = await created({ ...base, count: 2 });
  resetClaims();
  const [gone, kept] = membersOf(first.outs);
  await h.control("POST", `/instances/${gone.id}/status`, { actual_status: "exited" });
  const again = await created({ ...base, count: 2 });
  const ids = membersOf(again.outs).map((m) => m.id);
  expect(ids).toContain(kept.id);
  expect(ids).not.toContain(gone.id);
  expect(liveIds()).toEqual([...ids].sort((a, b) => a - b));
});

it("delete destroys every member, also one a run made but never recorded", async () => {
  const { id, outs } = await created({ ...base, count: 2 });
  const unrecorded = { ...outs, members: membersOf(outs).slice(0, 1) };
  await fleet.delete(id, unrecorded);
  expect(liveIds()).toEqual([]);
  await fleet.delete(id, outs);
});

describe("readiness and in-place rolls", () => {
  const health = useHealthServer();
  const time = useSteppedClock();
  let warnings: string[] = [];
  let previousSink: WarningSink;

  beforeEach(() => {
    warnings = [];
    previousSink = setWarningSink((m) => warnings.push(m));
  });
  afterEach(() => setWarningSink(previousSink));

  /** Container port 8000 of every instance on `machines` is published at `port` on loopback. */
  async function publish(machines: number[], port: number): Promise<void> {
    for (const m of machines) await h.control("POST", `/machines/${m}/ports`, { ports: { "8000/tcp": port } });
  }
  const MACHINES = [30001, 30005, 30017, 30021, 30024];
  const served = { ...base, ports: ["8000:8000"], readiness: { httpPath: "/health", timeoutMinutes: 1 } };
  const instanceOf = (id: number) => h.sim.state().instances.find((i: Props) => Number(i.id) === id) as Props;
  const UPDATE_PATH = /^\/api\/v0\/instances\/update_template\/(\d+)\/?$/;

  /** A list of instances filtered by id: the wait for members to run (members.ts). */
  const byId = (query: Record<string, unknown>) => typeof query.select_filters === "string" && "id" in (JSON.parse(query.select_filters) as object);
  /** A list of instances filtered by label: the fleet's walk of its own label (listing.ts). */
  const byLabel = (query: Record<string, unknown>) => typeof query.select_filters === "string" && "label" in (JSON.parse(query.select_filters) as object);
  /** The roll's steps from the request log: `read` (the update's read of its members, by id or by its own label, before anything is written), `create`, `update <id>`, `destroy <id>`, and `wait` (a list of instances by id, or one instance read alone, after a write). */
  async function steps(): Promise<string[]> {
    const out: string[] = [];
    for (const r of await h.requests()) {
      const update = UPDATE_PATH.exec(r.path);
      if (update && r.method === "PUT") out.push(`update ${update[1]}`);
      else if (r.method === "PUT" && CREATE_PATH.test(r.path)) out.push("create");
      else if (r.method === "DELETE") out.push(`destroy ${r.path.split("/").filter(Boolean).pop()}`);
      else if (r.method === "GET" && out.length === 0 && PAGE_PATH.test(r.path) && (byId(r.query) || byLabel(r.query))) out.push("read");
      else if (r.method === "GET" && ((PAGE_PATH.test(r.path) && byId(r.query)) || ONE_PATH.test(r.path))) {
        if (out.length === 0) out.push("read");
        else if (out[out.length - 1] !== "wait" && out[out.length - 1] !== "read") out.push("wait");
      }
    }
    return out;
  }

  it("waits for new members until ready: one never ready is destroyed, its machine avoided, another offer rented", async () => {
    await publish(MACHINES, health.port);
    await publish([30005], await closedPort());
    const { outs } = await created({ ...served, count: 2 });
    const members = membersOf(outs);
    expect(members.map((m) => m.offerId)).toEqual([700001, 700017]);
    expect(members.map((m) => (m as Props).ready)).toEqual([true, true]);
    expect(outs).toMatchObject({ healthy: 2 });
    expect(Object.keys(outs.badHosts as object)).toEqual(["30005"]);
    expect(liveIds()).toEqual(members.map((m) => m.id).sort((a, b) => a - b));
    expect(count(await h.requests(), "PUT", CREATE_PATH)).toBe(3);
  });

  it("a member that stops passing readiness is seen by diff, replaced by update after the deadline, its machine remembered", async () => {
    await publish(MACHINES, health.port);
    const { id, outs } = await created({ ...served, count: 2 });
    const [failing, fine] = membersOf(outs);
    expect(failing.machineId).toBe(30005);
    await publish([failing.machineId], await closedPort());
    const news = await checked({ ...served, count: 2 }, outs);
    expect(await fleet.diff(id, outs, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    const before = time.now;
    const { outs: healed } = await fleet.update(id, outs, news);
    // Probed again until the one-minute deadline before it was given up.
    expect(time.now - before).toBeGreaterThanOrEqual(60_000);
    const members = membersOf(healed as Props);
    expect(members.map((m) => m.id)).toEqual([fine.id, expect.any(Number)]);
    expect(members[1].machineId).not.toBe(failing.machineId);
    expect(members.map((m) => (m as Props).ready)).toEqual([true, true]);
    expect(healed).toMatchObject({ healthy: 2 });
    expect(Object.keys((healed as Props).badHosts as object)).toEqual([String(failing.machineId)]);
    expect(liveIds()).not.toContain(failing.id);
    expect(await fleet.diff(id, healed as Props, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("a member unready for a moment is kept when it answers again before the deadline", async () => {
    await publish(MACHINES, health.port);
    const { id, outs } = await created({ ...served, count: 1 });
    const [member] = membersOf(outs);
    await publish([member.machineId], await closedPort());
    const news = await checked({ ...served, count: 1 }, outs);
    expect((await fleet.diff(id, outs, news)).changes).toBe(true);
    // It answers again by the update's second probe.
    let slept = 0;
    setTiming({
      now: () => time.now,
      sleep: async (ms: number) => {
        time.advance(Math.max(ms, 30_000));
        if (++slept === 1) await publish([member.machineId], health.port);
      },
    });
    const { outs: after } = await fleet.update(id, outs, news);
    expect(membersOf(after as Props).map((m) => [m.id, (m as Props).ready])).toEqual([[member.id, true]]);
    expect((after as Props).badHosts).toEqual({});
  });

  it("without readiness members report ready null and healthy counts running ones", async () => {
    const { outs } = await created({ ...base, count: 1 });
    expect(membersOf(outs).map((m) => (m as Props).ready)).toEqual([null]);
    expect(outs.healthy).toBe(1);
  });

  it("an image change rolls in place: same instances and machines, new image, at most count - minHealthy updating at once", async () => {
    const { id, outs } = await created({ ...base, count: 3, minHealthy: 1 });
    const before = membersOf(outs);
    await h.clearRequests();
    const news = await checked({ ...base, count: 3, minHealthy: 1, image: "vllm/vllm-openai:latest", env: { MODE: "serve" } }, outs);
    const { outs: rolled } = await fleet.update(id, outs, news);
    const members = membersOf(rolled as Props);
    expect(members.map((m) => [m.id, m.machineId])).toEqual(before.map((m) => [m.id, m.machineId]));
    // The digest is keyed with the fleet's secret specKey (kept from the create).
    expect((rolled as Props).specKey).toBe(outs.specKey);
    expect(new Set(members.map((m) => m.spec))).toEqual(new Set([specOf({ ...news, specKey: outs.specKey }, SPEC_KEYS)]));
    for (const m of members) {
      const live = instanceOf(m.id);
      expect(live).toMatchObject({ image_uuid: "vllm/vllm-openai:latest", template_updates: 1 });
      // The member keeps its marker beside the new env.
      expect(live.extra_env).toEqual(expect.arrayContaining([["MODE", "serve"], ["PULUMI_VASTAI_MARKER", m.marker]]));
    }
    // Room for two at once (3 healthy, minHealthy 1): two updates, a wait, the third.
    const [a, b, c] = before.map((m) => m.id);
    expect(await steps()).toEqual(["read", `update ${a}`, `update ${b}`, "wait", `update ${c}`, "wait"]);
    expect(await fleet.diff(id, rolled as Props, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("with minHealthy = count an in-place roll makes one member first, updates the others one at a time, and destroys the last", async () => {
    const { id, outs } = await created({ ...base, count: 3 });
    const [a, b, c] = membersOf(outs).map((m) => m.id);
    await h.clearRequests();
    const news = await checked({ ...base, count: 3, image: "vllm/vllm-openai:latest" }, outs);
    const { outs: rolled } = await fleet.update(id, outs, news);
    // Never fewer than 3 running: a new member runs before each update, and the extra goes last.
    expect(await steps()).toEqual(["read", "create", "wait", `update ${a}`, "wait", `update ${b}`, "wait", `destroy ${c}`]);
    const members = membersOf(rolled as Props);
    expect(members.map((m) => m.id)).toEqual([a, b, expect.any(Number)]);
    expect(liveIds()).not.toContain(c);
    expect(h.sim.state().instances.map((i: Props) => i.image_uuid)).toEqual(Array(3).fill("vllm/vllm-openai:latest"));
    expect(rolled).toMatchObject({ healthy: 3 });
  });

  it("a member whose machine refuses the in-place update is replaced while the others are updated in place", async () => {
    const { id, outs } = await created({ ...base, count: 3, minHealthy: 2 });
    const [a, refusing, c] = membersOf(outs);
    await h.control("POST", `/machines/${refusing.machineId}/refuse-updates`, { reason: "no room for the new image" });
    await h.clearRequests();
    const news = await checked({ ...base, count: 3, minHealthy: 2, image: "vllm/vllm-openai:latest" }, outs);
    const { outs: rolled } = await fleet.update(id, outs, news);
    const members = membersOf(rolled as Props);
    expect(members.map((m) => m.id).slice(0, 2)).toEqual([a.id, c.id]);
    expect(members[2].id).not.toBe(refusing.id);
    expect(members[2].machineId).not.toBe(refusing.machineId);
    expect([a.id, c.id].map((i) => instanceOf(i).template_updates)).toEqual([1, 1]);
    expect(h.sim.state().instances.map((i: Props) => i.image_uuid)).toEqual(Array(3).fill("vllm/vllm-openai:latest"));
    expect(liveIds()).not.toContain(refusing.id);
    // One at a time (minHealthy 2 of 3); the refused member is replaced after the in-place updates.
    expect(await steps()).toEqual(["read", `update ${a.id}`, "wait", `update ${refusing.id}`, `update ${c.id}`, "wait", `destroy ${refusing.id}`, "create", "wait"]);
    // A refusing machine is not a bad host.
    expect((rolled as Props).badHosts).toEqual({});
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`machine ${refusing.machineId} refused the in-place update of member ${refusing.id} \\(no room for the new image\\); it is replaced`))]);
  });

  it("a member an unfinished roll left with other inputs is seen by diff and replaced, not updated in place", async () => {
    const { id, outs } = await created({ ...base, count: 2, minHealthy: 1 });
    const [left, fine] = membersOf(outs);
    const unfinished = { ...outs, members: [{ ...left, spec: "earlier" }, fine] };
    const news = await checked({ ...base, count: 2, minHealthy: 1 }, outs);
    expect(await fleet.diff(id, unfinished, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    const { outs: after } = await fleet.update(id, unfinished, news);
    const members = membersOf(after as Props);
    expect(members[0].id).toBe(fine.id);
    expect(members[1].id).not.toBe(left.id);
    expect(members.every((m) => m.spec === specOf({ ...news, specKey: outs.specKey }, SPEC_KEYS))).toBe(true);
    expect(liveIds()).not.toContain(left.id);
  });

  it("a change of an input Instance cannot update in place (diskGb) still rolls by replacement", async () => {
    const { id, outs } = await created({ ...base, count: 2, minHealthy: 1 });
    const before = membersOf(outs).map((m) => m.id);
    await h.clearRequests();
    const { outs: rolled } = await fleet.update(id, outs, await checked({ ...base, count: 2, minHealthy: 1, image: "vllm/vllm-openai:latest", diskGb: 20 }, outs));
    expect(membersOf(rolled as Props).some((m) => before.includes(m.id))).toBe(false);
    expect((await h.requests()).some((r) => UPDATE_PATH.test(r.path))).toBe(false);
  });
});

describe("volume: a new volume per member, owned by the fleet", () => {
  type VolumeRow = { id: number; machine_id: number; disk_space: number; instances: { id: number }[] };
  const volume = { createNew: true, size: 20, mountPath: "/data" };
  const withVolume = { ...base, volume };
  const volumes = () => h.sim.state().volumes as VolumeRow[];
  /** Instance id -> the id of the volume it uses. */
  const volumeOfInstance = () => new Map(volumes().flatMap((v) => v.instances.map((i) => [i.id, v.id] as const)));
  type VolumeMember = Member & { volumeId: number | null; volumePerHour: number };
  const vmembers = (outs: Props) => outs.members as VolumeMember[];

  it("rents each member with a new volume of its own on its machine, only on machines with a volume offer, and records it", async () => {
    const { outs } = await created({ ...withVolume, count: 3 });
    const members = vmembers(outs);
    // Without the volume the third would be 700017 (0.45 $/h), whose machine has no volume offer.
    expect(members.map((m) => m.offerId)).toEqual([700005, 700001, 700008]);
    expect(volumes()).toHaveLength(3);
    const uses = volumeOfInstance();
    for (const m of members) {
      expect(m.volumeId).toBe(uses.get(m.id));
      expect(volumes().find((v) => v.id === m.volumeId)).toMatchObject({ machine_id: m.machineId, disk_space: 20 });
      expect(m.volumePerHour).toBeGreaterThan(0);
    }
    const live = h.sim.state().instances.map((i: Props) => i.volume_info as Props);
    expect(live.every((v: Props) => v.create_new === true && v.size === 20 && v.mount_path === "/data")).toBe(true);
    expect(outs.hourlyCost).toBeCloseTo(members.reduce((s, m) => s + m.pricePerHour + m.volumePerHour, 0), 6);
  });

  it("23.2 a replacement (`pulumi up --replace`: the new fleet created, then the old deleted) never touches the new fleet's members or volumes", async () => {
    const identity = { __identity: stackIdentityOf("0123456789abcdef0123456789abcdef", "Fleet", "workers") };
    const old = await created({ ...withVolume, ...identity, count: 2 });
    resetClaims();
    // The replacement is checked against the stored state (the next generation), created, and only then the old one is deleted.
    const next = await fleet.create(await checked({ ...withVolume, ...identity, count: 2 }, old.outs));
    const members = vmembers(next.outs as Props);
    expect(next.id).not.toBe(old.id);
    expect(members.every((m) => m.marker.startsWith(`${next.id}.`))).toBe(true);
    await fleet.delete(old.id, old.outs);
    const byNumber = (a: number, b: number) => a - b;
    expect(liveIds()).toEqual(members.map((m) => m.id).sort(byNumber));
    expect(volumes().map((v) => v.id).sort(byNumber)).toEqual(members.map((m) => m.volumeId as number).sort(byNumber));
    // What the next run's diff sees: every member of the new fleet is there and healthy.
    expect((await fleet.diff(next.id, next.outs as Props, await checked({ ...withVolume, ...identity, count: 2 }, next.outs as Props))).changes).toBe(false);
  });

  it("members without a volume record volumeId null", async () => {
    const { outs } = await created({ ...base, count: 1 });
    expect(vmembers(outs)[0]).toMatchObject({ volumeId: null, volumePerHour: 0 });
    expect(volumes()).toEqual([]);
  });

  it("heals a dead member without leaving its volume: the dead one's volume is deleted, the new member has its own", async () => {
    const { id, outs } = await created({ ...withVolume, count: 2 });
    const [dead, alive] = vmembers(outs);
    expect(volumes()).toHaveLength(2);
    await h.control("POST", `/instances/${dead.id}/status`, { actual_status: "exited" });
    const { outs: healed } = await fleet.update(id, outs, await checked({ ...withVolume, count: 2 }, outs));
    const members = vmembers(healed as Props);
    expect(members.map((m) => m.id)).toEqual([alive.id, expect.any(Number)]);
    expect(volumes()).toHaveLength(2);
    expect(volumes().map((v) => v.id)).not.toContain(dead.volumeId);
    expect(new Map(members.map((m) => [m.id, m.volumeId]))).toEqual(volumeOfInstance());
  });

  it("scales down and rolls a volume change leaving exactly one volume per member", async () => {
    const { id, outs } = await created({ ...withVolume, count: 3 });
    const { outs: down } = await fleet.update(id, outs, await checked({ ...withVolume, count: 2 }, outs));
    expect(volumes()).toHaveLength(2);
    const bigger = { ...withVolume, count: 2, volume: { ...volume, size: 30 } };
    const { outs: rolled } = await fleet.update(id, down as Props, await checked(bigger, down as Props));
    const members = vmembers(rolled as Props);
    expect(members.every((m) => !vmembers(down as Props).some((d) => d.id === m.id))).toBe(true);
    expect(volumes().map((v) => v.disk_space)).toEqual([30, 30]);
    expect(new Map(members.map((m) => [m.id, m.volumeId]))).toEqual(volumeOfInstance());
  });

  it("delete leaves no volume, also that of a member a run made but never recorded", async () => {
    const { id, outs } = await created({ ...withVolume, count: 2 });
    await fleet.delete(id, { ...outs, members: vmembers(outs).slice(0, 1) });
    expect(liveIds()).toEqual([]);
    expect(volumes()).toEqual([]);
  });

  it("delete reports a volume it could not delete by id, and a second delete deletes it", async () => {
    const { id, outs } = await created({ ...withVolume, count: 1 });
    const [m] = vmembers(outs);
    await h.fault({ method: "DELETE", path: "/api/v0/volumes", status: 400, body: { success: false, error: "invalid_args", msg: "try later" } });
    const error = await rejection(fleet.delete(id, outs));
    expect(error.message).toMatch(new RegExp(`^Fleet ${id}: deleting volume ${m.volumeId} of member instance ${m.id} failed: .*run \`pulumi destroy\` again$`));
    expect(liveIds()).toEqual([]);
    expect(volumes()).toHaveLength(1);
    await fleet.delete(id, outs);
    expect(volumes()).toEqual([]);
  });

  it("a volume that cannot be deleted is reported by id and kept in members until the next up deletes it", async () => {
    const { id, outs } = await created({ ...withVolume, count: 2 });
    const [dead] = vmembers(outs);
    await h.control("POST", `/instances/${dead.id}/status`, { actual_status: "exited" });
    await h.fault({ method: "DELETE", path: "/api/v0/volumes", status: 400, body: { success: false, error: "invalid_args", msg: "try later" } });
    const error = await rejection(fleet.update(id, outs, await checked({ ...withVolume, count: 2 }, outs)));
    expect(error.message).toContain(`deleting volume ${dead.volumeId} of member instance ${dead.id} failed`);
    expect(error).toBeInstanceOf(PartialFailure);
    const partial = error.properties as Props;
    const left = vmembers(partial).find((m) => m.id === dead.id);
    expect(left).toMatchObject({ status: "gone", volumeId: dead.volumeId });
    expect(vmembers(partial).filter((m) => m.status === "running")).toHaveLength(2);
    // The next up sees the leftover and deletes its volume.
    const news = await checked({ ...withVolume, count: 2 }, partial);
    expect((await fleet.diff(id, partial, news)).changes).toBe(true);
    const { outs: clean } = await fleet.update(id, partial, news);
    expect(vmembers(clean as Props).map((m) => m.id)).not.toContain(dead.id);
    expect(volumes()).toHaveLength(2);
  });

  it("fails before renting when no offer's machine has a volume offer, saying so", async () => {
    await h.clearRequests();
    const error = await rejection(fleet.create(await checked({ offer: { gpuName: "RTX 4090", numGpus: 4 }, image: "pytorch/pytorch", count: 1, volume })));
    expect(error.message).toMatch(/1 offer\(s\) are needed but only 0 match .* on a machine with a volume offer of 20 GB free \(volume\).*nothing was rented$/);
    expect(count(await h.requests(), "PUT", CREATE_PATH)).toBe(0);
  });

  it("check refuses volumeId and createNew false, naming the field, the rule and the value", async () => {
    const { failures } = await fleet.check({}, { __provider: "p", ...base, count: 2, volume: { createNew: false, volumeId: 20000001, mountPath: "/data" } });
    const reasons = (failures ?? []).map((f) => f.reason);
    expect(reasons).toContain("volume.volumeId: a fleet cannot link one existing volume to N members; use createNew: true with size, or an Instance to link it (got 20000001)");
    expect(reasons).toContainEqual(expect.stringMatching(/^volume\.createNew: must be true: a fleet makes one new volume per member .*\(got false\)$/));
    const offerId = await fleet.check({}, { __provider: "p", ...base, count: 2, volume: { ...volume, volumeId: 900001 } });
    expect((offerId.failures ?? []).map((f) => f.reason)).toEqual([expect.stringMatching(/^volume\.volumeId: is not accepted on a fleet: .*leave volumeId out \(got 900001\)$/)]);
  });
});

describe("issue 25 item 6: a roll that runs out of offers says why", () => {
  it("25.6 names the spare member an in-place roll adds first and minHealthy: count - 1", async () => {
    // One member holds its offer; every other offer is gone, and the roll wants one more.
    const only4090 = { ...base, count: 1, minHealthy: 1 };
    const { id, outs } = await created(only4090);
    const held = new Set(membersOf(outs).map((m) => m.offerId));
    for (const offer of SEED.offers) if (!held.has(offer.id)) await h.control("POST", `/offers/${offer.id}`, { state: "gone" });
    const news = await checked({ ...only4090, image: "vllm/vllm-openai:latest" }, outs);
    const error = await rejection(fleet.update(id, outs, news));
    expect(error.message).toMatch(/1 offer\(s\) are needed .*; 1 counts 1 spare member the roll adds first because minHealthy is count \(1\): set minHealthy: count - 1 \(0\) to roll without it, or widen the filters or lower count; nothing was rented$/);
  });
});
