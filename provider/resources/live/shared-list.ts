/**
 * A coalescing reader over a list endpoint. One plugin process serves every resource of a
 * stack, and a refresh or a preview asks for each object at about the same time: instead of
 * one call per object, concurrent callers share one in-flight listing, and its result serves
 * later callers for a short time (the TTL).
 *
 * Freshness rules:
 * - a snapshot serves a key only when it started after this process last wrote that key
 *   (`noteWrite`); otherwise the key is fetched alone (`fetchOne`), so a process never reads
 *   back an older state than the one it just wrote;
 * - an absence in a cached snapshot (one that started before the caller asked) is confirmed
 *   with `fetchOne`, so an object created elsewhere meanwhile is never reported gone;
 * - `list({ fresh: true })` only accepts a listing that started after the call.
 * A failed listing is not cached: every caller that shared it gets the error.
 */

export interface SharedListSource<T> {
  /** Lists every object (the expensive, shared call). */
  fetchAll(): Promise<T[]>;
  /** Reads one object directly; null when it does not exist. */
  fetchOne(key: string): Promise<T | null>;
  keyOf(item: T): string;
  /** How long a finished listing serves callers, ms (read on every use, so settings can change). */
  ttlMs(): number;
  now?: () => number;
}

interface Snapshot<T> {
  /** Sequence number when the listing started (see `seq`). */
  startSeq: number;
  finishedAt: number;
  items: Map<string, T>;
}

interface Listing<T> {
  startSeq: number;
  promise: Promise<Snapshot<T>>;
}

export interface SharedListStats {
  /** Listings started (each may be several pages). */
  listings: number;
  /** Single-object reads made instead of (or to confirm) a listing. */
  singleReads: number;
  /** Callers served by a listing someone else started, or by a cached one. */
  shared: number;
}

export class SharedList<T> {
  // A counter, not a clock: two events in the same millisecond still have an order.
  private seq = 0;
  private snapshot: Snapshot<T> | undefined;
  private inflight: Listing<T> | undefined;
  private readonly writes = new Map<string, number>();
  private readonly now: () => number;
  readonly stats: SharedListStats = { listings: 0, singleReads: 0, shared: 0 };

  constructor(private readonly source: SharedListSource<T>) {
    this.now = source.now ?? Date.now;
  }

  /** The object with this key, or null when it does not exist. */
  async get(key: string): Promise<T | null> {
    const askedAt = ++this.seq;
    const written = this.writes.get(key) ?? 0;
    const cached = this.usableSnapshot(written);
    if (cached) {
      this.stats.shared++;
      return cached.items.get(key) ?? this.one(key);
    }
    if (this.inflight && this.inflight.startSeq > written) {
      this.stats.shared++;
      return this.fromListing(key, this.inflight, askedAt);
    }
    // A key this process wrote is read alone until a listing that began after the write exists:
    // one direct read is cheaper than a walk of every page.
    if (written > 0) return this.one(key);
    return this.fromListing(key, this.listing(), askedAt);
  }

  private async fromListing(key: string, listing: Listing<T>, askedAt: number): Promise<T | null> {
    const snap = await listing.promise;
    const item = snap.items.get(key);
    if (item) return item;
    // A listing that started after this call saw everything that existed when it was asked.
    return listing.startSeq > askedAt ? null : this.one(key);
  }

  /** Every object; with `fresh`, only from a listing that started after this call. */
  async list(options: { fresh?: boolean } = {}): Promise<T[]> {
    const askedAt = ++this.seq;
    if (!options.fresh) {
      const cached = this.usableSnapshot(0);
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

  /** Records that this process changed (or removed) the object: cached copies no longer serve it. */
  noteWrite(key: string): void {
    this.writes.set(key, ++this.seq);
  }

  /** Forgets the cached listing (the in-flight one, if any, still completes for its callers). */
  clear(): void {
    this.snapshot = undefined;
  }

  private usableSnapshot(writtenSeq: number): Snapshot<T> | undefined {
    const s = this.snapshot;
    if (!s || s.startSeq <= writtenSeq) return undefined;
    return this.now() - s.finishedAt <= this.source.ttlMs() ? s : undefined;
  }

  /** The in-flight listing, or a new one. */
  private listing(): Listing<T> {
    if (this.inflight) {
      this.stats.shared++;
      return this.inflight;
    }
    const startSeq = ++this.seq;
    this.stats.listings++;
    const promise = this.source.fetchAll().then((items) => {
      const snap: Snapshot<T> = { startSeq, finishedAt: this.now(), items: new Map(items.map((i) => [this.source.keyOf(i), i])) };
      if (!this.snapshot || this.snapshot.startSeq < startSeq) this.snapshot = snap;
      return snap;
    });
    const listing: Listing<T> = { startSeq, promise };
    this.inflight = listing;
    const done = () => {
      if (this.inflight === listing) this.inflight = undefined;
    };
    promise.then(done, done);
    return listing;
  }

  private one(key: string): Promise<T | null> {
    this.stats.singleReads++;
    return this.source.fetchOne(key);
  }
}
