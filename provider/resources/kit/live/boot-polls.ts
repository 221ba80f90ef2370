/**
 * Waiting for objects that boot (an instance created, restarted or updated in place): when to
 * look, and one read for everything waiting at that moment.
 *
 * When: a boot takes about as long as the last ones of this process did. So the wait looks
 * once at once (a boot may be instant), then, while no boot was seen yet, at a short interval
 * that grows with the time waited (a sixth of it, so a boot is seen at most about 17 % late; from 1/40 of `vastai:pollIntervalMs` up
 * to that interval); once boots were seen, it sleeps until shortly before the expected end
 * (85 % of the median of the last boots) and then looks every 1/20 of that time (at most the
 * poll interval, at least its 1/40). A roll of members one after the other thus waits about
 * each member's boot, not a whole poll interval per member; a long boot costs a few more reads
 * than the plain interval at its start, and fewer once its length is known. The client's
 * pacing spaces the reads at the service's rate whatever the schedule asks.
 *
 * One read: reads asked while another is on its way, or within a few ms of each other, go
 * together: one object alone is read directly, several are listed by id (25 per call), so a
 * batch of members, or Instances updated at once, are confirmed by one list call per poll.
 * These reads are always fresh (never from a cache that may predate the boot).
 */
import type { VastClient } from "../../../client";
import { pollIntervalMs } from "../settings";

/** Boots remembered per process and kind, for the expected boot time. */
const SAMPLES = 5;

export class BootPace {
  private readonly samples: number[] = [];

  /** A boot seen to end `ms` after its change was sent. */
  note(ms: number): void {
    this.samples.push(Math.max(0, ms));
    if (this.samples.length > SAMPLES) this.samples.shift();
  }

  /** The median of the last boots, ms; undefined before any. */
  expected(): number | undefined {
    if (this.samples.length === 0) return undefined;
    const sorted = [...this.samples].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  }

  /** How long to sleep before the next look, `elapsed` ms after the change was sent. */
  nextDelay(elapsed: number, interval: number = pollIntervalMs()): number {
    const floor = Math.max(1, interval / 40);
    const expected = this.expected();
    if (expected === undefined) return Math.min(interval, Math.max(floor, elapsed / 6));
    const start = 0.85 * expected;
    if (elapsed < start) return start - elapsed;
    return Math.min(interval, Math.max(floor, expected / 20));
  }
}

let paces = new WeakMap<VastClient, Map<string, BootPace>>();

/** The boot pace of `kind` ("instance") for `client`'s process. */
export function bootPaceOf(client: VastClient, kind: string): BootPace {
  let byKind = paces.get(client);
  if (!byKind) {
    byKind = new Map();
    paces.set(client, byKind);
  }
  let pace = byKind.get(kind);
  if (!pace) {
    pace = new BootPace();
    byKind.set(kind, pace);
  }
  return pace;
}

/** Forgets the boots seen (tests). */
export function resetBootPaces(): void {
  paces = new WeakMap();
}

export interface BootReadSource<T> {
  /** One object, read directly; null when it does not exist. */
  fetchOne(id: number): Promise<T | null>;
  /** The objects among `ids` (at most `pageSize`); absent ones are not there. */
  fetchIds(ids: number[]): Promise<T[]>;
  idOf(item: T): number;
  pageSize: number;
  /** How long asks are gathered before a read starts, ms (default 2). */
  gatherMs?: number;
}

interface Ask<T> {
  ids: number[];
  resolve(found: Map<number, T>): void;
  reject(error: unknown): void;
}

/** Fresh reads of booting objects, gathered into as few calls as the page size allows. */
export class BootReads<T> {
  private asks: Ask<T>[] = [];
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly source: BootReadSource<T>) {}

  /** The objects among `ids` as they are now (absent ones are missing from the map). */
  read(ids: readonly number[]): Promise<Map<number, T>> {
    if (ids.length === 0) return Promise.resolve(new Map());
    return new Promise((resolve, reject) => {
      this.asks.push({ ids: [...ids], resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.start();
    }, this.source.gatherMs ?? 2);
  }

  private start(): void {
    const asks = this.asks;
    this.asks = [];
    if (asks.length === 0) return;
    this.running = this.serve(asks).finally(() => {
      this.running = undefined;
      if (this.asks.length > 0) this.schedule();
    });
  }

  private async serve(asks: Ask<T>[]): Promise<void> {
    const ids = [...new Set(asks.flatMap((a) => a.ids))];
    const found = new Map<number, T>();
    try {
      if (ids.length === 1) {
        const one = await this.source.fetchOne(ids[0]);
        if (one !== null) found.set(ids[0], one);
      } else {
        const chunks: number[][] = [];
        for (let i = 0; i < ids.length; i += this.source.pageSize) chunks.push(ids.slice(i, i + this.source.pageSize));
        const pages = await Promise.all(chunks.map((chunk) => this.source.fetchIds(chunk)));
        for (const item of pages.flat()) found.set(this.source.idOf(item), item);
      }
    } catch (error) {
      for (const a of asks) a.reject(error);
      return;
    }
    for (const a of asks) a.resolve(new Map(a.ids.flatMap((id) => (found.has(id) ? [[id, found.get(id) as T] as const] : []))));
  }
}
