/**
 * The naive baseline: what a provider without shared reads or pacing would send. Direct client
 * calls with pacing off, one call per read, 429s retried soon (limits.ts `naiveBackoff`),
 * `parallel` at once like the engine. Reads of a diff check each instance's
 * live status, as the Instance provider's diff does.
 */
import { createClient, type VastClient } from "./deps";
import { idle, naiveBackoff, type BenchSettings } from "./limits";
import { measure, pool, type Cost } from "./measure";
import type { SimProcess } from "./sim";

/** Attempts per call: enough that every call gets through in the end rather than failing. */
const ATTEMPTS = 200;

export class NaiveRun {
  private readonly client: VastClient;

  constructor(
    private readonly sim: SimProcess,
    private readonly settings: BenchSettings,
  ) {
    this.client = createClient({
      apiKey: sim.apiKey,
      apiUrl: sim.url,
      runUrl: sim.runUrl,
      pacing: false,
      maxAttempts: ATTEMPTS,
      backoff: naiveBackoff(settings.scale),
    });
  }

  async create(n: number, args: (i: number) => Record<string, unknown>): Promise<{ cost: Cost; ids: number[] }> {
    const ids: number[] = [];
    const cost = await this.op(() =>
      pool(Array.from({ length: n }, (_, i) => i), this.settings.parallel, async (i) => {
        const a = args(i);
        const { id } = await this.client.instances.create(Number(a.offerId), { image: String(a.image), label: String(a.label) });
        ids.push(id);
        // The simulator boots at once (bootMs 0): the first read normally shows it running.
        for (let reads = 1; (await this.client.instances.get(id))?.actualStatus !== "running"; reads++) {
          if (reads >= 50) throw new Error(`instance ${id} was not running after ${reads} reads`);
        }
      }),
    );
    return { cost, ids };
  }

  /** One read per instance (refresh, and the live check of a diff). */
  readEach(ids: readonly number[]): Promise<Cost> {
    return this.op(() =>
      pool(ids, this.settings.parallel, async (id) => {
        if (!(await this.client.instances.get(id))) throw new Error(`instance ${id} read as gone`);
      }),
    );
  }

  destroy(ids: readonly number[]): Promise<Cost> {
    return this.op(() =>
      pool(ids, this.settings.parallel, async (id) => {
        await this.client.instances.destroy(id);
      }),
    );
  }

  private async op(work: () => Promise<{ failures: number; firstError?: string }>): Promise<Cost> {
    await idle(this.settings, false); // the naive client never calls the paged list
    return measure(this.sim, work);
  }
}
