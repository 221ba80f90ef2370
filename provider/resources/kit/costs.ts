/**
 * What things cost: the one place of the cost arithmetic, shared by the resources' `hourlyCost`
 * and `spentUsd` outputs and by the cost report (`npx pulumi-vastai costs`, provider/cli/costs.ts),
 * so that both print the same figures for the same object.
 *
 * - **Hourly cost** ($/hour now) comes from live rows: a running (or booting) instance at its
 *   `dph_total`, a stopped one (by its owner, its schedule, or outbid) at its disk alone, a dead
 *   or gone one at nothing; a volume at its storage cost per hour; a fleet as the sum of its
 *   members and their volumes; an endpoint as the sum of its workers. The service bills an
 *   instance's disk for as long as the instance exists, running or not: the disk's $/hour is the
 *   row's `storage_total_cost`, or, on a row without it, `disk_space` GB x `storage_cost` ($ per
 *   GB per month) / 720 (a month of 30 days, as the vendor document's rows give it:
 *   0.149333 x 10 GB / 720 = 0.0020741).
 * - **Spend to date** ($) is the sum of the account's charges (`GET /api/v0/charges/`) of the
 *   object's contracts: `instance-<id>`, `volume-<id>`, and for a serverless endpoint the rows
 *   whose metadata names it (`endpoint_id`, its workers).
 *
 * Both are rounded to 6 decimals (the charges themselves come to 3).
 *
 * **One charges walk per process.** The charges list has no filter by object, only a date range
 * (the `day` filter, required), so every read walks the account's charges in that range. A
 * plugin process serves every resource of a stack, so the walk is shared ({@link ChargesReader}):
 * callers that ask while a walk is gathering (a few ms) or running share it, and its result
 * serves later callers for `spendCacheTtlMs` (default 60 s). A refresh of 50 resources makes one
 * walk, not 50.
 *
 * **The range.** A caller asks for the charges since its object began (an instance's or
 * volume's `start_date`, an endpoint's creation, a fleet's oldest member). The walk reaches
 * back twice the object's age and at least one day before its start ({@link walkStart}), so the
 * resources of a stack made within that window share one walk, while the walk still follows the
 * stack's age, not the account's whole history. An older object widens the range with one more
 * walk; each such walk at least doubles the reach, so a stack whose objects differ in age by a
 * factor of A costs at most 1 + log2(A) walks.
 *
 * **Freshness.** Spend to date only grows with time: no write of this process makes a cached
 * walk wrong, only older. So writes do not drop the cache (dropping it on each create would
 * make an `up` of N creates walk N times); the TTL bounds the age instead, and a contract that
 * began after the walk began shows 0 until the next walk.
 *
 * **Failures.** A walk that fails (no `billing_read` on the key, an outage) fails no resource
 * operation: the resource keeps the value it had and a warning says why, once per process. The
 * failure is remembered for the TTL too, so a refresh of 50 resources makes one failing walk.
 *
 * `vastai:spendOutputs` (or `VASTAI_SPEND_OUTPUTS`) `false` turns the charges reads off: `spentUsd`
 * then keeps what state held and no charges call is made.
 */
import type { Charge, Instance, VastClient, Volume, WorkerGroup } from "../../client";
import { setting } from "../../context";
import { numberSetting } from "./settings";
import { warnOnce } from "./warn";

const DAY_S = 24 * 3600;

/** Dollars to 6 decimals, as every cost output and the cost report give them. */
export const round6 = (n: number): number => Math.round(n * 1e6) / 1e6;

/** The key of an object in the charges: `instance-<id>`, `volume-<id>`, `endpoint-<id>`. */
export type ChargeKey = `${"instance" | "volume" | "endpoint"}-${string}`;

/** The charges key of an instance. */
export const instanceKey = (id: number | string): ChargeKey => `instance-${String(id)}`;
/** The charges key of a volume (local or network). */
export const volumeKey = (id: number | string): ChargeKey => `volume-${String(id)}`;
/** The charges key of a serverless endpoint: its workers' rows name it in `metadata.endpoint_id`. */
export const endpointKey = (id: number | string): ChargeKey => `endpoint-${String(id)}`;

/** What an instance costs per hour depends on: its status, its price, its disk, its volume. */
export interface CostParts {
  /** The status as the service gives it (`running`, `stopped`, `exited`, ...), `gone` when it no longer exists, null while provisioning. */
  status: string | null;
  /** $/hour while it runs (`dph_total`). */
  pricePerHour: number;
  /** $/hour of its disk alone (what a stopped instance still pays). */
  storagePerHour: number;
  /** $/hour of its volume, billed in every state until the volume is deleted. */
  volumePerHour?: number;
}

const NOTHING_PER_HOUR = ["exited", "unknown", "offline", "gone"];

/**
 * $/hour now: the disk alone while stopped, nothing once dead or gone, the price otherwise;
 * plus the volume's storage in every state. Not rounded (sums are rounded once).
 */
export function hourlyCostOf(m: CostParts): number {
  const status = typeof m.status === "string" ? m.status.trim().toLowerCase() : null;
  const volume = typeof m.volumePerHour === "number" ? m.volumePerHour : 0;
  if (status === "stopped") return m.storagePerHour + volume;
  if (status !== null && NOTHING_PER_HOUR.includes(status)) return volume;
  return m.pricePerHour + volume;
}

/** Hours in the month that storage prices ($ per GB per month) are quoted for: 30 days. */
export const STORAGE_HOURS_PER_MONTH = 30 * 24;

/**
 * $/hour of a live instance's disk, what it bills while stopped: `storage_total_cost`, else
 * `disk_space` x `storage_cost` / 720; null when the row has neither.
 */
export function instanceStoragePerHour(instance: Instance): number | null {
  const total = instance.storageTotalCostPerHour;
  if (typeof total === "number" && Number.isFinite(total)) return total;
  const price = instance.storageCostPerGbMonth;
  const gb = instance.diskSpace;
  if (typeof price === "number" && Number.isFinite(price) && typeof gb === "number" && Number.isFinite(gb)) return (price * gb) / STORAGE_HOURS_PER_MONTH;
  return null;
}

/** The parts of a live instance row (the disk's $/hour: {@link instanceStoragePerHour}, 0 when the row gives no storage price). */
export function instanceCostParts(instance: Instance | null | undefined): CostParts {
  if (!instance) return { status: "gone", pricePerHour: 0, storagePerHour: 0 };
  return { status: instance.actualStatus, pricePerHour: instance.dphTotal ?? 0, storagePerHour: instanceStoragePerHour(instance) ?? 0 };
}

/** $/hour of a live volume row; 0 when it is gone. */
export function volumeHourlyCost(volume: Volume | null | undefined): number {
  return volume?.storageTotalCostPerHour ?? 0;
}

/**
 * The worker instances of serverless endpoint `endpointId`: those its worker groups (from
 * `groups`, the account's list) run, one `get_workergroup_workers` call per group of the
 * endpoint. An endpoint's hourly cost is its workers' ({@link hourlyCostOf} of each row).
 */
export async function endpointWorkerIds(client: VastClient, endpointId: number, groups: readonly WorkerGroup[]): Promise<number[]> {
  const own = groups.filter((g) => g.endpointId === endpointId);
  return (await Promise.all(own.map((g) => client.workerGroups.workers(g.id)))).flatMap((ids) => ids ?? []);
}

/** $/hour of instance rows (a worker gone is null: nothing), summed and rounded. */
export function rowsHourlyCost(rows: readonly (Instance | null | undefined)[]): number {
  return round6(rows.reduce((sum, row) => sum + hourlyCostOf(instanceCostParts(row)), 0));
}

/** Spend to date by charges key, from the account's charges. */
export class Spend {
  private readonly by = new Map<string, number>();

  constructor(charges: readonly Charge[]) {
    for (const c of charges) {
      const keys: string[] = [];
      if (c.source) keys.push(c.source);
      const endpointId = c.metadata.endpoint_id;
      if (endpointId !== undefined && endpointId !== null) keys.push(endpointKey(String(endpointId)));
      for (const k of keys) this.by.set(k, (this.by.get(k) ?? 0) + c.amount);
    }
  }

  /** $ charged to these keys (summed; a key without charges adds 0), rounded to 6 decimals. */
  of(...keys: readonly string[]): number {
    return round6(keys.reduce((sum, k) => sum + (this.by.get(k) ?? 0), 0));
  }
}

/** Where the walk of charges for an object that began at `since` starts (Unix seconds): twice its age back, at least a day before it. */
export function walkStart(since: number, nowS: number): number {
  return Math.max(0, Math.floor(since - Math.max(DAY_S, nowS - since)));
}

/** How long one walk of the charges serves other callers, ms (`vastai:spendCacheTtlMs`, default 60000). */
export function spendCacheTtlMs(): number {
  return numberSetting("spendCacheTtlMs", "VASTAI_SPEND_CACHE_TTL_MS", 60_000);
}

/** Whether the resources read the charges for `spentUsd` (`vastai:spendOutputs`, default true). */
export function spendOutputsOn(): boolean {
  const raw = setting("spendOutputs", "VASTAI_SPEND_OUTPUTS");
  if (raw === undefined || raw.trim() === "") return true;
  const v = raw.trim().toLowerCase();
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw new Error(`setting vastai:spendOutputs (or VASTAI_SPEND_OUTPUTS) must be true or false, got "${raw}"`);
}

/** Where a ChargesReader gets its charges and time. */
export interface ChargesSource {
  /** Every charge overlapping [start, now], Unix seconds (all pages). */
  fetch(start: number): Promise<Charge[]>;
  ttlMs(): number;
  /** Epoch ms (default Date.now). */
  now?: () => number;
  /** How long callers are gathered into one walk, ms (default 5). */
  gatherMs?: number;
}

interface Walk {
  /** Unix seconds the walk starts from (Infinity while still gathering). */
  start: number;
  promise: Promise<Spend>;
}

/** Counters of a ChargesReader, for tests and the bench. */
export interface ChargesReaderStats {
  /** Walks of the charges started. */
  walks: number;
  /** Callers served by a walk someone else started, or by a cached one (or its failure). */
  shared: number;
}

/** One shared, cached walk of the account's charges (see the module's comment). */
export class ChargesReader {
  private done: { start: number; finishedAt: number; result: { spend: Spend } | { error: unknown } } | undefined;
  private running: Walk | undefined;
  private gathering: (Walk & { wanted: number }) | undefined;
  private readonly now: () => number;
  readonly stats: ChargesReaderStats = { walks: 0, shared: 0 };

  constructor(private readonly source: ChargesSource) {
    this.now = source.now ?? Date.now;
  }

  /** Spend to date by key, from a walk that covers every charge since `since` (Unix seconds). */
  async spend(since: number): Promise<Spend> {
    const done = this.done;
    if (done && done.start <= since && this.now() - done.finishedAt <= this.source.ttlMs()) {
      this.stats.shared++;
      if ("error" in done.result) throw done.result.error;
      return done.result.spend;
    }
    if (this.running && this.running.start <= since) {
      this.stats.shared++;
      return this.running.promise;
    }
    const start = walkStart(since, this.now() / 1000);
    if (this.gathering) {
      this.stats.shared++;
      this.gathering.wanted = Math.min(this.gathering.wanted, start);
      return this.gathering.promise;
    }
    const walk = { start: Infinity, wanted: start } as Walk & { wanted: number };
    walk.promise = new Promise<void>((resolve) => setTimeout(resolve, this.source.gatherMs ?? 5)).then(async () => {
      this.gathering = undefined;
      walk.start = walk.wanted;
      this.running = walk;
      this.stats.walks++;
      try {
        const spend = new Spend(await this.source.fetch(walk.start));
        this.keep(walk.start, { spend });
        return spend;
      } catch (error) {
        this.keep(walk.start, { error });
        throw error;
      } finally {
        if (this.running === walk) this.running = undefined;
      }
    });
    this.gathering = walk;
    return walk.promise;
  }

  private keep(start: number, result: { spend: Spend } | { error: unknown }): void {
    // The widest recent walk is kept: a narrower one that finished later does not replace it while it serves.
    const old = this.done;
    const oldServes = old && this.now() - old.finishedAt <= this.source.ttlMs() && old.start < start && "spend" in old.result;
    if (!oldServes) this.done = { start, finishedAt: this.now(), result };
  }
}

const readers = new WeakMap<VastClient, ChargesReader>();

/** The shared charges reader of `client` (a new client, for another account or URL, has its own). */
export function chargesReader(client: VastClient): ChargesReader {
  let reader = readers.get(client);
  if (!reader) {
    reader = new ChargesReader({ fetch: (start) => client.billing.charges({ start, limit: 500 }), ttlMs: spendCacheTtlMs });
    readers.set(client, reader);
  }
  return reader;
}

/** Unix seconds of an ISO 8601 date or a number of seconds; undefined otherwise. */
export function unixOf(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v) && v > 0) return v > 1e11 ? Math.floor(v / 1000) : v;
  if (typeof v === "string" && v !== "") {
    const ms = Date.parse(v);
    if (Number.isFinite(ms)) return Math.floor(ms / 1000);
  }
  return undefined;
}

/**
 * `spentUsd` of a resource: the charges of `keys` since `since` (Unix seconds; undefined: a day
 * back), through the process's shared walk. When the charges cannot be read (or
 * `vastai:spendOutputs` is false) it is `previous` (what state held, or undefined), and a
 * warning says why once per process; the operation goes on.
 */
export async function spentUsd(client: VastClient, what: string, keys: readonly string[], since: number | undefined, previous: unknown): Promise<number | undefined> {
  const kept = typeof previous === "number" && Number.isFinite(previous) ? previous : undefined;
  if (!spendOutputsOn()) return kept;
  try {
    const spend = await chargesReader(client).spend(since ?? Math.floor(Date.now() / 1000) - DAY_S);
    return spend.of(...keys);
  } catch (error) {
    warnOnce(
      "spend-read-failed",
      `${what}: reading the account's charges for spentUsd failed (${(error as Error).message.replace(/\.$/, "")}); ` +
        "spentUsd keeps its last value. An API key needs billing_read for it; `vastai:spendOutputs: false` turns the reads off.",
    );
    return kept;
  }
}
