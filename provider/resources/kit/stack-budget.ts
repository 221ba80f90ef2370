/**
 * One budget for the whole stack: `vastai:maxHourlyCost` (or `VASTAI_MAX_HOURLY_COST`), $/hour.
 * Every rental that would take the stack's hourly cost above it is refused before anything is
 * sent: an Instance create (and each retry on another offer), every Fleet member (growth, heals,
 * rolls and their spares), a Volume or NetworkVolume create. The refusal names the budget, the
 * rental and the stack's cost by object.
 *
 * **What the stack runs now** is what carries its marker: instances (Instances, Fleet members)
 * whose `PULUMI_VASTAI_MARKER` starts with the stack's tag (kit/create-once.ts), at their hourly
 * cost (kit/costs.ts: running at `dph_total`, stopped at the disk, dead at nothing), and volumes
 * whose name ends with such a marker, at their storage cost; plus the rentals of this process
 * under way. A marker is the only proof of ownership the service keeps, so this holds across
 * runs, heals, rolls and a rerun after a killed run (what the killed run rented carries the
 * marker and counts), whatever the state file says.
 *
 * **What it reads.** The first rental of a process lists the account's instances once (the
 * shared listing, kit/live) and its volumes once; from then on only what changes: every write
 * this process makes through the client is announced (client/writes.ts), and the instances it
 * touched are read again by id before the next decision (25 per call), the volume list again
 * after a volume write. So a run that rents costs one account listing plus reads of its own
 * writes; a run that rents nothing (refresh, preview, an `up` that only updates) reads nothing
 * for the budget. Decisions are taken one at a time within the process: a rental's cost is
 * reserved before the request goes out, so rentals that start together cannot each fit alone
 * and overshoot together.
 *
 * **A lowered budget** destroys nothing: what runs is kept, and every rental is refused while
 * the stack is over (the refusal says by how much), until objects are removed or the budget is
 * raised. Stopping an instance does not lower the stack below it in one step (a stopped instance
 * still pays for its disk).
 */
import type { Instance, VastClient, Volume } from "../../client";
import { setting } from "../../context";
import { LEGACY_MARKER, STACK_TAG_LENGTH } from "./create-once";
import { hourlyCostOf, instanceCostParts, round6, volumeHourlyCost } from "./costs";

/** The instance environment variable that carries a create's marker (instance/inputs.ts MARKER_ENV). */
const MARKER_ENV = "PULUMI_VASTAI_MARKER";
/** A volume's marker: ` [<marker>]` at the end of its name (volume/impl.ts). */
const VOLUME_MARKER = / \[([A-Za-z0-9_-]{16})\]$/;
/** A marker part of this package: 16 characters, or a Fleet member's prefix and offer id. */
const MARKER_PART = /^[A-Za-z0-9_-]{16,22}$/;

/** A rental refused because it would take the stack over `vastai:maxHourlyCost`. */
export class StackBudgetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StackBudgetError";
  }
}

/**
 * The stack tag a marker carries: the first 11 characters of its first part of this release's
 * form. Undefined for a marker of an earlier release (16 hex digits of names only) or of no
 * known form.
 */
export function stackTagOfMarker(marker: string): string | undefined {
  for (const part of marker.split(".").slice(0, 2)) {
    if (LEGACY_MARKER.test(part)) continue;
    if (MARKER_PART.test(part)) return part.slice(0, STACK_TAG_LENGTH);
    return undefined;
  }
  return undefined;
}

/** The stack's budget in $/hour, or undefined when none is set. A value that is not a positive number is an error naming the setting. */
export function stackBudget(): number | undefined {
  const raw = setting("maxHourlyCost", "VASTAI_MAX_HOURLY_COST");
  if (raw === undefined || String(raw).trim() === "") return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 1_000_000) {
    throw new StackBudgetError(
      `vastai:maxHourlyCost (or VASTAI_MAX_HOURLY_COST) must be a number of dollars per hour greater than 0 and at most 1000000, got ${JSON.stringify(String(raw))}`,
    );
  }
  return n;
}

/** One object the stack runs, as counted. */
interface Counted {
  what: string;
  perHour: number;
}

const markerOfInstance = (i: Instance) => (i.extraEnv ?? []).find(([k]) => k === MARKER_ENV)?.[1];

/** The stack's objects and the rentals under way, for one client and one stack tag. */
class StackLedger {
  private instances = new Map<number, Counted>();
  private volumes = new Map<number, Counted>();
  private readonly reserved = new Set<Counted>();
  private loaded: Promise<void> | undefined;
  /** Instance ids written since they were read; undefined entries: every instance may have changed. */
  private staleInstances = new Set<number>();
  private allInstancesStale = false;
  private volumesStale = false;
  /** One decision at a time: the reads before it, then the check and the reservation. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: VastClient,
    private readonly tag: string,
  ) {
    client.onWrite((kind, keys) => {
      if (kind === "instances") {
        if (keys === undefined) this.allInstancesStale = true;
        else for (const k of keys) if (Number.isInteger(Number(k))) this.staleInstances.add(Number(k));
      } else if (kind === "volumes") this.volumesStale = true;
    });
  }

  /**
   * Reserves `perHour` for `what` when the stack stays within `budget` with it; the reservation
   * is given back by `settle` (the object's row counts from then on) or `release` (nothing made).
   */
  admit(budget: number, what: string, perHour: number): Promise<Reservation> {
    const decision = this.queue.then(async () => {
      await this.fresh();
      const counted = [...this.instances.values(), ...this.volumes.values(), ...this.reserved];
      const total = round6(counted.reduce((s, c) => s + c.perHour, 0));
      if (total + perHour > budget + 1e-9) {
        throw new StackBudgetError(
          `${what} (${round6(perHour)} $/hour) would bring the stack to ${round6(total + perHour)} $/hour, over vastai:maxHourlyCost ${budget}: ` +
            `the stack runs ${total} $/hour now${breakdown(counted)}; nothing was rented. Raise vastai:maxHourlyCost, or remove or stop objects of the stack (nothing is destroyed to meet the budget)`,
        );
      }
      const mine: Counted = { what, perHour };
      this.reserved.add(mine);
      return new Reservation(this, mine);
    });
    this.queue = decision.catch(() => undefined);
    return decision;
  }

  /** The reservation's object exists as instance `id` (or volume): its row counts from the next decision. */
  settle(reservation: Counted, made?: { instance?: number; volume?: boolean }): void {
    this.reserved.delete(reservation);
    if (made?.instance !== undefined) this.staleInstances.add(made.instance);
    if (made?.volume) this.volumesStale = true;
  }

  release(reservation: Counted): void {
    this.reserved.delete(reservation);
  }

  private async fresh(): Promise<void> {
    this.loaded ??= this.loadAll();
    await this.loaded;
    if (this.allInstancesStale) {
      this.allInstancesStale = false;
      this.staleInstances.clear();
      this.instances = this.countInstances(await this.client.instances.listAll());
    }
    if (this.staleInstances.size > 0) {
      const ids = [...this.staleInstances];
      this.staleInstances.clear();
      const rows = await this.client.instances.listAll(25, { filters: { id: { in: ids } } });
      for (const id of ids) this.instances.delete(id);
      for (const [id, c] of this.countInstances(rows)) this.instances.set(id, c);
    }
    if (this.volumesStale) {
      this.volumesStale = false;
      this.volumes = this.countVolumes(await this.client.volumes.list());
    }
  }

  private async loadAll(): Promise<void> {
    this.staleInstances.clear();
    this.allInstancesStale = false;
    this.volumesStale = false;
    const [instances, volumes] = await Promise.all([this.client.instances.listAll(), this.client.volumes.list()]);
    this.instances = this.countInstances(instances);
    this.volumes = this.countVolumes(volumes);
  }

  private countInstances(rows: readonly Instance[]): Map<number, Counted> {
    const out = new Map<number, Counted>();
    for (const i of rows) {
      const marker = markerOfInstance(i);
      if (marker === undefined || stackTagOfMarker(marker) !== this.tag) continue;
      out.set(i.id, { what: `instance ${i.id}${i.label ? ` (${i.label})` : ""}`, perHour: hourlyCostOf(instanceCostParts(i)) });
    }
    return out;
  }

  private countVolumes(rows: readonly Volume[]): Map<number, Counted> {
    const out = new Map<number, Counted>();
    for (const v of rows) {
      const marker = v.name === null ? undefined : VOLUME_MARKER.exec(v.name)?.[1];
      if (marker === undefined || stackTagOfMarker(marker) !== this.tag) continue;
      out.set(v.id, { what: `volume ${v.id}`, perHour: volumeHourlyCost(v) });
    }
    return out;
  }
}

/** A rental's share of the budget, held from before its request until its object is counted. */
export class Reservation {
  constructor(
    private readonly ledger: StackLedger,
    private readonly held: Counted,
  ) {}

  /** The object was made (or found again after a lost answer): count its row instead. */
  settle(made: { instance?: number; volume?: boolean }): void {
    this.ledger.settle(this.held, made);
  }

  /** Nothing was made. */
  release(): void {
    this.ledger.release(this.held);
  }
}

function breakdown(counted: readonly Counted[]): string {
  const costly = counted.filter((c) => c.perHour > 0).sort((a, b) => b.perHour - a.perHour);
  if (costly.length === 0) return "";
  const shown = costly.slice(0, 10).map((c) => `${c.what} ${round6(c.perHour)}`);
  return ` (${shown.join(", ")}${costly.length > 10 ? `, and ${costly.length - 10} more` : ""})`;
}

const ledgers = new WeakMap<VastClient, Map<string, StackLedger>>();

function ledgerOf(client: VastClient, tag: string): StackLedger {
  let byTag = ledgers.get(client);
  if (!byTag) ledgers.set(client, (byTag = new Map()));
  let ledger = byTag.get(tag);
  if (!ledger) byTag.set(tag, (ledger = new StackLedger(client, tag)));
  return ledger;
}

/**
 * Runs `rent` when the stack's budget (if one is set) admits `perHour` more for `what`; `rent`
 * answers what it made. Without a budget it just runs `rent`. A rental whose cost is unknown
 * (`perHour` undefined) is refused under a budget: nothing proves it fits.
 */
export async function withinStackBudget<T>(
  client: VastClient,
  /** The marker the rental carries: its stack tag names the stack whose objects count. */
  marker: string,
  what: string,
  perHour: number | undefined,
  rent: () => Promise<T>,
  madeOf: (result: T) => { instance?: number; volume?: boolean },
): Promise<T> {
  const budget = stackBudget();
  if (budget === undefined) return rent();
  const tag = stackTagOfMarker(marker);
  if (tag === undefined) {
    throw new StackBudgetError(
      `${what}: vastai:maxHourlyCost is set but the resource carries no stack identity, so the stack's objects cannot be told from others; run \`pulumi up\` with this release's classes (they give every resource one)`,
    );
  }
  if (perHour === undefined || !Number.isFinite(perHour)) {
    throw new StackBudgetError(`${what}: its price per hour is not known, so vastai:maxHourlyCost ${budget} cannot be checked; nothing was rented`);
  }
  const reservation = await ledgerOf(client, tag).admit(budget, what, perHour);
  let result: T;
  try {
    result = await rent();
  } catch (error) {
    // A lost answer may have made the object anyway: its row is read before the next decision.
    reservation.settle({});
    throw error;
  }
  reservation.settle(madeOf(result));
  return result;
}
