/**
 * The fleet's call counts at the size the benchmark measures (bench/fleet-run.ts times them):
 * a fleet of 100 on the simulator's bulk market, created with one list call per 25 members
 * (their boots confirmed while the rest are rented), and healed of 10 dead members in one up
 * with ceil(100/25)+1 list calls and 10 creates. Counts, never times.
 */
import { drive } from "./account-resources-support";
import { providers } from "../../provider/providers";
import { resetClaims } from "../../provider/resources/fleet/claims";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";
import { CREATE_PATH, PAGE_PATH, count } from "./instance-support";

type Props = Record<string, unknown>;
type Member = { id: number; offerId: number; machineId: number; status: string };

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS, simulator: { marketOffers: 200 } });
const fleet = drive(providers.fleet);
const N = 100;
const args = { count: N, offer: { numGpus: 1 }, image: "pytorch/pytorch" };

beforeEach(() => resetClaims());

async function checked(news: Props, olds: Props = {}): Promise<Props> {
  const { inputs, failures } = await fleet.check(olds, { __provider: "p", __identity: "proj/dev/Fleet/big", ...news });
  expect(failures).toEqual([]);
  return inputs as Props;
}

const membersOf = (outs: Props) => outs.members as Member[];

it(`creates ${N} members on ${N} distinct offers with ${N} creates and ceil(${N}/25)+1 list calls, confirming boots while renting`, async () => {
  await h.clearRequests();
  const { outs } = await fleet.create(await checked(args));
  const members = membersOf(outs as Props);
  expect(members).toHaveLength(N);
  expect(members.every((m) => m.status === "running")).toBe(true);
  expect(new Set(members.map((m) => m.offerId)).size).toBe(N);
  expect(new Set(members.map((m) => m.machineId)).size).toBe(N);
  const log = await h.requests();
  expect(count(log, "PUT", CREATE_PATH)).toBe(N);
  expect(count(log, "GET", PAGE_PATH)).toBeLessThanOrEqual(Math.ceil(N / 25) + 1);
  expect(log.filter((r) => r.status >= 400)).toEqual([]);
  // The first members' boots are confirmed while the others are still being rented.
  const lastCreate = log.map((r) => r.method === "PUT" && CREATE_PATH.test(r.path)).lastIndexOf(true);
  const firstCreate = log.findIndex((r) => r.method === "PUT" && CREATE_PATH.test(r.path));
  expect(log.slice(firstCreate, lastCreate).filter((r) => r.method === "GET" && PAGE_PATH.test(r.path)).length).toBeGreaterThanOrEqual(1);
});

it(`heals 10 dead members of ${N} in one up (diff and update) with ceil(${N}/25)+1 list calls and 10 creates`, async () => {
  const { id, outs } = await fleet.create(await checked(args));
  const dead = membersOf(outs as Props).filter((_, i) => i % 10 === 3);
  expect(dead).toHaveLength(10);
  for (const [i, m] of dead.entries()) await h.control("POST", `/instances/${m.id}/status`, { actual_status: ["exited", "unknown", "offline"][i % 3] });
  await h.clearRequests();
  const news = await checked(args, outs as Props);
  expect((await fleet.diff(id, outs as Props, news)).changes).toBe(true);
  const { outs: healed } = await fleet.update(id, outs as Props, news);
  const members = membersOf(healed as Props);
  expect(members).toHaveLength(N);
  expect(members.every((m) => m.status === "running")).toBe(true);
  expect(members.filter((m) => dead.some((d) => d.id === m.id))).toEqual([]);
  const log = await h.requests();
  expect(count(log, "PUT", CREATE_PATH)).toBe(10);
  expect(count(log, "GET", PAGE_PATH)).toBeLessThanOrEqual(Math.ceil(N / 25) + 1);
  expect(log.filter((r) => r.status === 429)).toEqual([]);
});
