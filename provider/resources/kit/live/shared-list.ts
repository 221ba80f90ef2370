/**
 * A coalescing reader over a list endpoint. One plugin process serves every resource of a
 * stack, and a refresh or a preview asks for each object at about the same time: instead of
 * one call per object, concurrent callers share one in-flight listing, and its result serves
 * later callers for a short time (the TTL).
 *
 * Two kinds of source:
 * - `fetchAll` lists every object (instances, SSH keys, secrets): one listing serves any key;
 * - `fetchKeys` lists the objects with the given keys (templates by id, maintenance windows
 *   by machine): keys asked for within `gatherMs` go into one listing, and a listing serves
 *   only the keys it asked for.
 *
 * Freshness rules:
 * - a listing serves a key only when it started after this process last wrote that key
 *   (`noteWrite`); otherwise the key is read alone (`fetchOne`, or else a listing that starts
 *   after the write), so a process never reads back an older state than the one it just wrote;
 * - an absence in a cached listing (one that started before the caller asked) is confirmed the
 *   same way, so an object created elsewhere meanwhile is never reported gone;
 * - `list({ fresh: true })` only accepts a listing that started after the call.
 * A failed listing is not cached: every caller that shared it gets the error.
 */

export interface SharedListSource<T> {
  /** Lists every object (the expensive, shared call). Give this or `fetchKeys`. */
  fetchAll?(): Promise<T[]>;
  /** Lists the objects with these keys; a key without an object in the answer does not exist. */
  fetchKeys?(keys: string[]): Promise<T[]>;
  /** Reads one object directly; null when it does not exist. Without it, a new listing serves. */
  fetchOne?(key: string): Promise<T | null>;
  keyOf(item: T): string;
  /** How long a finished listing serves callers, ms (read on every use, so settings can change). */
  ttlMs(): number;
  /** With `fetchKeys`: how long keys are gathered into one listing, ms (default 5). */
  gatherMs?: number;
  now?: () => number;
}

interface Snapshot<T> {
  /** Sequence number when the listing started (see `seq`). */
  startSeq: number;
  finishedAt: number;
  items: Map<string, T>;
}

interface Listing<T> {
  /** Infinity while a keyed listing is still gathering keys: it starts after every ask so far. */
  startSeq: number;
  /** The keys asked for; undefined when it lists everything. */
  keys?: Set<string>;
  promise: Promise<Snapshot<T>>;
}

export interface SharedListStats {
  /** Listings started (each may be several pages or calls). */
  listings: number;
  /** Single-object reads made instead of (or to confirm) a listing. */
  singleReads: number;
  /** Callers served by a listing someone else started, or by a cached one. */
  shared: number;
}

export class SharedList<T> {
  // A counter, not a clock: two events in the same millisecond still have an order.
  private seq = 0;
  /** Whole listings: the latest finished one. */
  private snapshot: Snapshot<T> | undefined;
  private inflight: Listing<T> | undefined;
  /** Keyed listings: the latest finished and in-flight listing of each key, and the one gathering. */
  private readonly byKey = new Map<string, Snapshot<T>>();
  private readonly inflightByKey = new Map<string, Listing<T>>();
  private gathering: Listing<T> | undefined;
  private readonly writes = new Map<string, number>();
  /** When this process last wrote objects it could not name (every key counts as written then). */
  private writtenAll = 0;
  private readonly now: () => number;
  readonly stats: SharedListStats = { listings: 0, singleReads: 0, shared: 0 };

  constructor(private readonly source: SharedListSource<T>) {
    if (!source.fetchAll === !source.fetchKeys) throw new Error("SharedList needs exactly one of fetchAll and fetchKeys");
    this.now = source.now ?? Date.now;
  }

  /** The object with this key, or null when it does not exist. */
  async get(key: string): Promise<T | null> {
    const askedAt = ++this.seq;
    const written = this.writtenAt(key);
    const cached = this.usableSnapshot(key, written);
    if (cached) {
      this.stats.shared++;
      return cached.items.get(key) ?? this.alone(key);
    }
    const running = this.source.fetchAll ? this.inflight : this.inflightByKey.get(key);
    if (running && running.startSeq > written) {
      this.stats.shared++;
      return this.fromListing(key, running, askedAt);
    }
    // A key this process wrote is read alone until a listing that began after the write exists:
    // one direct read is cheaper than a walk of every page.
    if (written > 0) return this.alone(key);
    return this.fromListing(key, this.source.fetchAll ? this.listing() : this.gather(key), askedAt);
  }

  private async fromListing(key: string, listing: Listing<T>, askedAt: number): Promise<T | null> {
    const snap = await listing.promise;
    const item = snap.items.get(key);
    if (item) return item;
    // A listing that started after this call saw everything that existed when it was asked.
    return listing.startSeq > askedAt ? null : this.alone(key);
  }

  /** Every object; with `fresh`, only from a listing that started after this call. */
  async list(options: { fresh?: boolean } = {}): Promise<T[]> {
    if (!this.source.fetchAll) throw new Error("SharedList.list() needs a source with fetchAll");
    const askedAt = ++this.seq;
    if (!options.fresh) {
      const cached = this.usableSnapshot("", this.writtenAll);
      if (cached) {
        this.stats.shared++;
        return [...cached.items.values()];
      }
    }
    let listing = this.listing();
    if (options.fresh && listing.startSeq < askedAt) {
      await listing.promise.catch(() => undefined);
      listing = this.listing();
    }
    return [...(await listing.promise).items.values()];
  }

  /**
   * Records that this process changed (or removed) the object: cached copies no longer serve
   * it. Without a key, any object may have changed.
   */
  noteWrite(key?: string): void {
    if (key === undefined) this.writtenAll = ++this.seq;
    else this.writes.set(key, ++this.seq);
  }

  private writtenAt(key: string): number {
    return Math.max(this.writes.get(key) ?? 0, this.writtenAll);
  }

  /** Forgets cached listings (in-flight ones still complete for their callers). */
  clear(): void {
    this.snapshot = undefined;
    this.byKey.clear();
  }

  private usableSnapshot(key: string, writtenSeq: number): Snapshot<T> | undefined {
    const s = this.source.fetchAll ? this.snapshot : this.byKey.get(key);
    if (!s || s.startSeq <= writtenSeq) return undefined;
    return this.now() - s.finishedAt <= this.source.ttlMs() ? s : undefined;
  }

  /** The object from a read that starts now: `fetchOne`, else a listing that starts after this call. */
  private async alone(key: string): Promise<T | null> {
    if (this.source.fetchOne) {
      this.stats.singleReads++;
      return this.source.fetchOne(key);
    }
    if (this.source.fetchAll) return (await this.list({ fresh: true })).find((item) => this.source.keyOf(item) === key) ?? null;
    return (await this.gather(key).promise).items.get(key) ?? null;
  }

  /** The in-flight whole listing, or a new one. */
  private listing(): Listing<T> {
    if (this.inflight) {
      this.stats.shared++;
      return this.inflight;
    }
    const listing = { startSeq: ++this.seq } as Listing<T>;
    listing.promise = this.run(listing, () => this.source.fetchAll!());
    this.inflight = listing;
    const done = () => {
      if (this.inflight === listing) this.inflight = undefined;
    };
    listing.promise.then(done, done);
    return listing;
  }

  /** The keyed listing still gathering keys (a new one when none is), with `key` added. */
  private gather(key: string): Listing<T> {
    if (this.gathering) {
      this.stats.shared++;
      this.gathering.keys!.add(key);
      return this.gathering;
    }
    const keys = new Set([key]);
    const listing = { startSeq: Infinity, keys } as Listing<T>;
    listing.promise = new Promise<void>((resolve) => setTimeout(resolve, this.source.gatherMs ?? 5)).then(() => {
      this.gathering = undefined;
      listing.startSeq = ++this.seq;
      for (const k of keys) this.inflightByKey.set(k, listing);
      const done = () => {
        for (const k of keys) if (this.inflightByKey.get(k) === listing) this.inflightByKey.delete(k);
      };
      const result = this.run(listing, () => this.source.fetchKeys!([...keys]));
      result.then(done, done);
      return result;
    });
    this.gathering = listing;
    return listing;
  }

  /** Runs one listing and records its snapshot as the newest for the keys it covered. */
  private async run(listing: Listing<T>, fetch: () => Promise<T[]>): Promise<Snapshot<T>> {
    this.stats.listings++;
    const items = await fetch();
    const snap: Snapshot<T> = { startSeq: listing.startSeq, finishedAt: this.now(), items: new Map(items.map((i) => [this.source.keyOf(i), i])) };
    if (!listing.keys) {
      if (!this.snapshot || this.snapshot.startSeq < snap.startSeq) this.snapshot = snap;
    } else {
      for (const k of listing.keys) if ((this.byKey.get(k)?.startSeq ?? 0) < snap.startSeq) this.byKey.set(k, snap);
    }
    return snap;
  }
}
