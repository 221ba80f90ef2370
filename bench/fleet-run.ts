/**
 * The Fleet scenarios, one plugin process each (a fresh client, as each pulumi command has):
 * - create: one fleet of 100 members on the simulator's bulk market (its offers are one per
 *   machine, as most single-GPU offers of the marketplace are), timed against the least time
 *   the rate limits allow: the offer search, then 100 creations one interval apart, then one
 *   read that shows the last member running;
 * - heal: 10 of the 100 members die (exited, unknown, offline, through the control API), then
 *   one `up` (check, diff, update) replaces them; its list calls and creates are counted.
 */
import { lowerBoundMs, serviceLimits, idle, type BenchSettings } from "./limits";
import { providers, type LoggedRequest } from "./deps";
import { freshProcess } from "./provider-run";
import { costOf, type Cost } from "./measure";
import type { SimProcess } from "./sim";

type Props = Record<string, unknown>;
type Member = { id: number; offerId: number; status: string };

const fleet = providers.fleet as Required<typeof providers.fleet>;
const CREATE = /^\/api\/v0\/asks\/\d+\/?$/;

export const FLEET_SIZE = 100;
export const FLEET_DEAD = 10;
/** Offers of the simulator's bulk market the benchmark asks for: more than a fleet of 100 and its heals need. */
export const MARKET_OFFERS = 200;

export interface FleetRow {
  members: number;
  create: Cost;
  /** The least time the creation can take under the limits. */
  createBoundMs: number;
  /** Creates the service refused because the offer was taken (404/410): offers lost to a race. */
  offersLost: number;
  /** Distinct offers among the members. */
  distinctOffers: number;
  dead: number;
  heal: Cost;
  healCreates: number;
  /** ceil(members/25) + 1. */
  healListTarget: number;
}

function args(count: number): Props {
  return { __provider: "bench", __identity: `bench/dev/vastai:index:Fleet/workers-${count}`, count, offer: { numGpus: 1 }, image: "pytorch/pytorch" };
}

async function checked(news: Props, olds: Props = {}): Promise<Props> {
  const { inputs, failures } = await fleet.check(olds, news);
  if (failures && failures.length > 0) throw new Error(`check failed: ${failures.map((f) => f.reason).join("; ")}`);
  return inputs as Props;
}

const membersOf = (outs: Props) => (outs.members ?? []) as Member[];

export class FleetRun {
  constructor(
    private readonly sim: SimProcess,
    private readonly settings: BenchSettings,
  ) {}

  private freshProcess(): void {
    freshProcess(this.sim, this.settings);
  }

  private async timed<T>(work: () => Promise<T>): Promise<{ value: T; log: LoggedRequest[]; timeMs: number }> {
    await this.sim.clearLog();
    const started = performance.now();
    const value = await work();
    const timeMs = performance.now() - started;
    return { value, log: await this.sim.log(), timeMs };
  }

  /** A fleet of 3 through its life, untimed: modules loaded and code paths run. */
  async warmUp(): Promise<void> {
    this.freshProcess();
    const { id, outs } = await fleet.create(await checked(args(3)));
    await fleet.delete(id, outs as Props);
  }

  async run(progress: (line: string) => void): Promise<FleetRow> {
    const n = FLEET_SIZE;
    const limits = serviceLimits(this.settings.scale);
    progress(`fleet: create ${n} members, then heal ${FLEET_DEAD} dead ones in one up`);
    this.freshProcess();
    await idle(this.settings, true);
    const made = await this.timed(async () => fleet.create(await checked(args(n))));
    const outs = made.value.outs as Props;
    const members = membersOf(outs);
    if (members.length !== n || members.some((m) => m.status !== "running")) {
      throw new Error(`the fleet has ${members.length} members, ${members.filter((m) => m.status === "running").length} running; expected ${n} running`);
    }
    const creates = made.log.filter((r) => r.method === "PUT" && CREATE.test(r.path));
    const create = costOf(made.log, made.timeMs, { failures: 0 });

    const dead = members.filter((_, i) => i % (n / FLEET_DEAD) === 3).slice(0, FLEET_DEAD);
    for (const [i, m] of dead.entries()) await this.sim.setStatus(m.id, ["exited", "unknown", "offline"][i % 3]);
    this.freshProcess();
    await idle(this.settings, true);
    const healed = await this.timed(async () => {
      const news = await checked(args(n), outs);
      const diff = await fleet.diff(made.value.id, outs, news);
      if (!diff.changes) throw new Error("the diff of a fleet with dead members shows no change");
      return (await fleet.update(made.value.id, outs, news)).outs as Props;
    });
    const after = membersOf(healed.value);
    if (after.length !== n || after.some((m) => m.status !== "running" || dead.some((d) => d.id === m.id))) {
      throw new Error(`after the heal the fleet has ${after.length} members, ${after.filter((m) => m.status === "running").length} running`);
    }
    this.freshProcess();
    await fleet.delete(made.value.id, healed.value);
    return {
      members: n,
      create,
      // The offer search comes before the first creation: one response time more.
      createBoundMs: lowerBoundMs("create", n, limits, this.settings.latencyMs) + this.settings.latencyMs,
      offersLost: creates.filter((r) => r.status === 404 || r.status === 410).length,
      distinctOffers: new Set(members.map((m) => m.offerId)).size,
      dead: dead.length,
      heal: costOf(healed.log, healed.timeMs, { failures: 0 }),
      healCreates: healed.log.filter((r) => r.method === "PUT" && CREATE.test(r.path)).length,
      healListTarget: Math.ceil(n / 25) + 1,
    };
  }
}
