/**
 * Issue 28 item 1: a Fleet reads only what it owns. In an account that also holds hundreds of
 * other instances (other stacks, put there through the control API), every Fleet operation
 * (create, refresh, preview, update, destroy) costs at most ceil(M/25)+2 calls of the instance
 * lists for M members, counted in the simulator's request log; members a killed run left are
 * still found (by the fleet's label, through the service's label filter) and adopted or swept.
 * Each operation runs in a fresh client, as each pulumi command is a new plugin process.
 */
import { drive } from "./account-resources-support";
import { providers } from "../../provider/providers";
import { resetClaims } from "../../provider/resources/fleet/claims";
import { MARKER_ENV } from "../../provider/resources/instance/inputs";
import { operationPrefix } from "../../provider/resources/fleet/members";
import { FAST_INSTANCE_SETTINGS, pointProviders, useSimulator } from "../support/simulator";

type Props = Record<string, unknown>;
type Member = { id: number; offerId: number; status: string };

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS, simulator: { marketOffers: 60 } });
const fleet = drive(providers.fleet);
const LIST_PATH = /^\/api\/v[01]\/instances\/?$/;
const M = 10;
const OTHERS = 400;
const target = (m: number) => Math.ceil(m / 25) + 2;

beforeEach(() => resetClaims());

async function addOthers(count: number): Promise<void> {
  await h.control("POST", "/instances", { count, label: "other-stack" });
}

/** A new plugin process: a new client, so nothing read before serves. */
function freshProcess(): void {
  pointProviders(h, h.sim.apiKey, FAST_INSTANCE_SETTINGS);
  resetClaims();
}

async function checked(news: Props, olds: Props = {}): Promise<Props> {
  const { inputs, failures } = await fleet.check(olds, { __provider: "p", __identity: "proj/dev/Fleet/workers", ...news });
  expect(failures).toEqual([]);
  return inputs as Props;
}

/** Runs `work` in a fresh process and counts its list calls. */
async function listCalls<T>(work: () => Promise<T>): Promise<{ result: T; lists: number }> {
  freshProcess();
  await h.clearRequests();
  const result = await work();
  const lists = (await h.requests()).filter((r) => r.method === "GET" && LIST_PATH.test(r.path)).length;
  return { result, lists };
}

const base = { count: M, offer: {}, image: "pytorch/pytorch" };
const membersOf = (outs: Props) => outs.members as Member[];

it(`28.1 a fleet of ${M} among ${OTHERS} other instances: create, refresh, preview and destroy each list at most ceil(M/25)+2 times`, async () => {
  await addOthers(OTHERS / 2);
  const made = await listCalls(async () => fleet.create(await checked(base)));
  const outs = made.result.outs as Props;
  expect(membersOf(outs)).toHaveLength(M);
  expect(membersOf(outs).every((m) => m.status === "running")).toBe(true);
  expect(made.lists).toBeLessThanOrEqual(target(M));
  await addOthers(OTHERS / 2);

  const read = await listCalls(() => fleet.read(made.result.id, outs));
  expect(membersOf(read.result.props as Props).map((m) => m.id)).toEqual(membersOf(outs).map((m) => m.id));
  expect(read.lists).toBeLessThanOrEqual(target(M));

  const news = await checked(base, outs);
  const diff = await listCalls(() => fleet.diff(made.result.id, outs, news));
  expect(diff.result.changes).toBe(false);
  expect(diff.lists).toBeLessThanOrEqual(target(M));

  // A heal: one member died; the preview and the update of one `up` share their reads.
  await h.control("POST", `/instances/${membersOf(outs)[4].id}/status`, { actual_status: "exited" });
  const up = await listCalls(async () => {
    expect((await fleet.diff(made.result.id, outs, news)).changes).toBe(true);
    return fleet.update(made.result.id, outs, news);
  });
  const healed = up.result.outs as Props;
  expect(membersOf(healed)).toHaveLength(M);
  expect(membersOf(healed).map((m) => m.id)).not.toContain(membersOf(outs)[4].id);
  expect(up.lists).toBeLessThanOrEqual(target(M));

  const gone = await listCalls(() => fleet.delete(made.result.id, healed));
  expect(gone.lists).toBeLessThanOrEqual(target(M));
  expect(h.sim.state().instances.filter((i: Props) => i.label !== "other-stack")).toEqual([]);
  expect(h.sim.state().instances).toHaveLength(OTHERS);
});

it(`28.1 among ${OTHERS} other instances, the members a killed create left are adopted and a killed update's are destroyed, with at most ceil(M/25)+2 list calls`, async () => {
  await addOthers(OTHERS);
  // A create killed after it rented every member: the same create runs again and adopts them.
  freshProcess();
  const first = await fleet.create(await checked(base));
  const again = await listCalls(async () => fleet.create(await checked(base)));
  expect(membersOf(again.result.outs as Props).map((m) => m.id)).toEqual(membersOf(first.outs as Props).map((m) => m.id));
  expect(again.lists).toBeLessThanOrEqual(target(M));
  expect(h.sim.state().instances).toHaveLength(OTHERS + M);

  // An update (scale up) killed after it rented one member: the destroy still finds it.
  const outs = again.result.outs as Props;
  const news = await checked({ ...base, count: M + 1 }, outs);
  const marker = `${operationPrefix(again.result.id, news)}700001`;
  const left = await h.client.instances.create(700001, { image: "pytorch/pytorch", label: again.result.id, env: { [MARKER_ENV]: marker } });
  const gone = await listCalls(() => fleet.delete(again.result.id, outs));
  expect(gone.lists).toBeLessThanOrEqual(target(M));
  const live = h.sim.state().instances.map((i: Props) => Number(i.id));
  expect(live).not.toContain(left.id);
  expect(live).toHaveLength(OTHERS);
});

it("28.1 healing 5 dead members of a fleet of 50 in one up (preview, then update) lists at most ceil(50/25)+1 times: the update's sweep reuses the preview's walk of the fleet's own label", async () => {
  freshProcess();
  const fifty = { ...base, count: 50 };
  const made = await fleet.create(await checked(fifty));
  const outs = made.outs as Props;
  expect(membersOf(outs).filter((m) => m.status === "running")).toHaveLength(50);
  const dead = membersOf(outs).filter((_, i) => i % 10 === 3);
  for (const [i, m] of dead.entries()) await h.control("POST", `/instances/${m.id}/status`, { actual_status: ["exited", "unknown", "offline"][i % 3] });
  const news = await checked(fifty, outs);
  const up = await listCalls(async () => {
    expect((await fleet.diff(made.id, outs, news)).changes).toBe(true);
    return fleet.update(made.id, outs, news);
  });
  const healed = membersOf(up.result.outs as Props);
  expect(healed.filter((m) => m.status === "running")).toHaveLength(50);
  expect(healed.map((m) => m.id).filter((id) => dead.some((d) => d.id === id))).toEqual([]);
  expect(up.lists).toBeLessThanOrEqual(Math.ceil(50 / 25) + 1);
});
