/**
 * The Instance provider driven as Pulumi's engine drives the plugin: `check` then `create`,
 * `read` (refresh), `check` then `diff` (preview of an unchanged program) and `delete`, with
 * `parallel` resource operations at once, all in this one process as in the plugin. Each
 * operation starts with a fresh client (fresh shared readers), as each pulumi command starts a
 * new plugin process; the pacing slots stay, as the service's memory of recent calls does.
 */
import { clientPacing, idle, scaledBackoff, type BenchSettings, type Operation } from "./limits";
import { providers, setClientOptions } from "./deps";
import { measure, pool, type Cost } from "./measure";
import type { SimProcess } from "./sim";

type Props = Record<string, unknown>;

export interface InstanceState {
  id: string;
  inputs: Props;
  outs: Props;
}

const provider = providers.instance as Required<typeof providers.instance>;

/** First offer of the simulator's bulk market (its option `marketOffers`). */
const MARKET_FIRST_OFFER_ID = 800_001;

/**
 * The inputs of instance `i` of the benchmark stack: an offer of its own on the bulk market, as
 * a rented offer is taken (the simulator refuses a second rental, as the service does).
 */
export function instanceArgs(i: number): Props {
  return { offerId: MARKET_FIRST_OFFER_ID + i, image: "pytorch/pytorch", label: `bench-${i}` };
}

/** The stack nonce of the benchmark stack (resources/stackIdentity makes one per stack). */
const BENCH_NONCE = "be4c0de5eed5a1eabe4c0de5eed5a1ea";
let resources = 0;

/**
 * The inputs as the Instance class passes them: with an identity (a resource name of its own)
 * and generation, so each create looks for what a killed earlier run left, as in every program.
 */
function asTheClassSends(news: Props): Props {
  if (news.__identity !== undefined) return news;
  return { ...news, __identity: `stack:${BENCH_NONCE}/Instance/gpu-${++resources}`, __generation: 1 };
}

/** check as the engine calls it: `olds` are the inputs in state (none for a resource to create). */
async function checked(news: Props, olds: Props = {}): Promise<Props> {
  const { inputs, failures } = await provider.check(olds, { __provider: "bench", ...asTheClassSends(news) });
  if (failures && failures.length > 0) throw new Error(`check failed: ${failures.map((f) => f.reason).join("; ")}`);
  return inputs as Props;
}

/**
 * A new provider process, as far as the providers can tell: a new client (new claims, new
 * shared readers) with the client's pacing and backoff scaled like the service's limits.
 */
export function freshProcess(sim: SimProcess, settings: BenchSettings): void {
  setClientOptions({
    apiKey: sim.apiKey,
    apiUrl: sim.url,
    runUrl: sim.runUrl,
    pacing: { intervalsMs: clientPacing(settings.scale) },
    backoff: scaledBackoff(settings.scale),
  });
}

export class ProviderRun {
  constructor(
    private readonly sim: SimProcess,
    private readonly settings: BenchSettings,
  ) {}

  private freshProcess(): void {
    freshProcess(this.sim, this.settings);
  }

  /**
   * Three instances through their whole life, at once and untimed: the provider modules and the
   * HTTP library loaded and every code path run, in this process and in the simulator's, as in
   * a plugin past its first calls (the first call is timed apart: the cold start).
   */
  async warmUp(): Promise<void> {
    this.freshProcess();
    await Promise.all(
      [0, 1, 2].map(async (i) => {
        const inputs = await checked(instanceArgs(i));
        const { id, outs } = await provider.create(inputs);
        await provider.read(id, outs as Props);
        await provider.diff(id, outs as Props, inputs);
        await provider.delete(id, outs as Props);
      }),
    );
  }

  private async run(op: Operation, work: () => Promise<{ failures: number; firstError?: string }>): Promise<Cost> {
    this.freshProcess();
    // Every operation but destroy calls the paged list (a create looks for a killed run's leftover).
    await idle(this.settings, op !== "destroy");
    return measure(this.sim, work);
  }

  async create(n: number): Promise<{ cost: Cost; states: InstanceState[] }> {
    const states: InstanceState[] = [];
    // The engine checks each resource as the program registers it, before its create runs.
    const cost = await this.run("create", async () => {
      const checks = await Promise.all(Array.from({ length: n }, (_, i) => checked(instanceArgs(i))));
      return pool(checks, this.settings.parallel, async (inputs) => {
        const { id, outs } = await provider.create(inputs);
        states.push({ id, inputs, outs: outs as Props });
      });
    });
    return { cost, states };
  }

  refresh(states: readonly InstanceState[]): Promise<Cost> {
    return this.run("refresh", () =>
      pool(states, this.settings.parallel, async (s) => {
        const read = await provider.read(s.id, s.outs);
        if (read.id !== s.id) throw new Error(`instance ${s.id} read as gone`);
      }),
    );
  }

  diff(states: readonly InstanceState[]): Promise<Cost> {
    return this.run("diff", () =>
      pool(states, this.settings.parallel, async (s) => {
        const diff = await provider.diff(s.id, s.outs, await checked(s.inputs, s.inputs));
        if (diff.changes !== false) throw new Error(`instance ${s.id} shows changes: ${JSON.stringify(diff)}`);
      }),
    );
  }

  /**
   * State entries for instances put on the account outside the provider (the set-up of a
   * scenario), as the provider would hold them after creating them with `args`.
   */
  async existingStates(ids: readonly number[], args: Props): Promise<InstanceState[]> {
    // Checked as resources already in state (their inputs as olds), as the engine does.
    const inputs = await checked({ offerId: 700001, ...args }, { offerId: 700001, ...args });
    return ids.map((id) => ({ id: String(id), inputs, outs: { ...inputs, instanceId: id, actualStatus: "running", marker: `existing-${id}` } }));
  }

  /**
   * One `up` of a stack that holds `existing` and adds `created` instances: the engine diffs each
   * existing instance (check, then diff: the live status is read) and creates each new one,
   * interleaved, `parallel` operations at once, in one plugin process.
   */
  mixedUp(existing: readonly InstanceState[], created: number): Promise<Cost> {
    return this.run("create", async () => {
      // Every resource is checked as the program registers it; the diffs and creates follow.
      const steps: Array<() => Promise<void>> = [];
      for (let i = 0; i < Math.max(existing.length, created); i++) {
        const s = existing[i];
        if (s) {
          const news = await checked(s.inputs, s.inputs);
          steps.push(async () => {
            const diff = await provider.diff(s.id, s.outs, news);
            if (diff.changes !== false) throw new Error(`instance ${s.id} shows changes: ${JSON.stringify(diff)}`);
          });
        }
        if (i < created) {
          const news = await checked(instanceArgs(i));
          steps.push(async () => {
            await provider.create(news);
          });
        }
      }
      return pool(steps, this.settings.parallel, (step) => step());
    });
  }

  destroy(states: readonly InstanceState[]): Promise<Cost> {
    return this.run("destroy", () => pool(states, this.settings.parallel, (s) => provider.delete(s.id, s.outs)));
  }
}
