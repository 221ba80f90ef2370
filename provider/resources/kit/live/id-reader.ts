/**
 * A shared reader over a paged list of objects with numeric ids that the service can filter by
 * id (the v1 instance list: `select_filters` `id: {gte}` or `id: {in}`, ordered by id). A refresh
 * or a preview asks for the objects of one stack, which may be a few among thousands in the
 * account, so its cost must follow the number asked for, not the size of the account:
 *
 * - asks that arrive while a round of listing is running wait and go together in the next
 *   round (a plugin asks in waves as the engine's operations finish);
 * - a round starts a walk at the lowest id asked for, one page of 25 at a time, in id order:
 *   objects a stack created together have neighbouring ids, so one page usually answers many
 *   asks, and later asks for higher ids continue the same walk;
 * - when the ids still wanted lie further ahead than listing them by id would cost (estimated
 *   from the walk's id density and the service's `total` of matching objects), they are listed
 *   by id instead (`id: {in: [...]}`), 25 per page; but asks pages ahead of the walk that one
 *   page holds are read by that page of the walk (see `pageAheadFor`): the same one call, and
 *   none at all where the walk gets there (it goes on from that page instead of listing it).
 *
 * - the engine asks a few at a time (its parallelism), each ask once an earlier one is answered,
 *   so a round rarely holds more than those few ids: listing them by id would cost a call per
 *   wave. Objects a stack made share its label, so once asks answered show a common label, the
 *   ids still open are read through a walk of that label (`label: {eq}`, from the lowest open
 *   id, 25 a page) whose pages also answer the asks the engine sends next. A label page that
 *   served fewer asks than half its objects (the label is shared with other stacks) ends that
 *   label's walk for the TTL, and listing by id takes over.
 *
 * Freshness follows SharedList: an object this process wrote is read alone (`fetchOne`) until a
 * listing that began after the write has seen it; a cached answer serves for `ttlMs`; an
 * absence seen by a listing that began before the ask is confirmed by a read of its own.
 */
import type { SharedListStats } from "./shared-list";

/** One page of a walk: objects with id >= `from`, ascending, after `token`. */
export interface IdPage<T> {
  items: T[];
  next: string | null;
  /** Objects with id >= `from` in all, when the service says. */
  total?: number;
}

export interface IdListSource<T> {
  walkPage(from: number, token: string | null): Promise<IdPage<T>>;
  /**
   * One page of the objects with id < `below`, descending (highest first). Optional: with it, an
   * ask for an id just below a running walk (the engine asks in program order, and creates made
   * at once got their ids in a slightly different order) lists the page under the walk, which
   * answers the asks for its neighbours too, instead of one list call per such id.
   */
  walkDownPage?(below: number): Promise<IdPage<T>>;
  /** The objects among `ids` (absent ones are not there). */
  fetchIds(ids: number[]): Promise<T[]>;
  /** One object directly; null when it does not exist. */
  fetchOne(id: number): Promise<T | null>;
  /** Every object (a whole walk). */
  fetchAll(): Promise<T[]>;
  /**
   * The label of an object (undefined: none), and one page of the objects with `label` and id
   * >= `from`, ascending, after `token`. Both or neither.
   */
  labelOf?(item: T): string | undefined;
  walkLabelPage?(label: string, from: number, token: string | null): Promise<IdPage<T>>;
  idOf(item: T): number;
  ttlMs(): number;
  /** Objects per page of the service (default 25). */
  pageSize?: number;
  /** How long the first asks are gathered before a round starts, ms (default 5). */
  gatherMs?: number;
  now?: () => number;
}

interface Known<T> {
  item: T | null;
  /** Sequence number when the listing that saw it started. */
  seq: number;
  at: number;
  /** The label page that listed it, if one did. */
  page?: LabelPage;
}

/** A page of a label's walk: how many objects it listed, how many asks it answered. */
interface LabelPage {
  items: number;
  hits: number;
}

interface LabelWalk {
  label: string;
  from: number;
  next: string | null;
  done: boolean;
  /** Highest id the pages so far cover. */
  upTo: number;
  startedAt: number;
  last?: LabelPage;
  /** Its pages served too few asks: listing by id serves this label until the TTL passes. */
  stopped: boolean;
}

interface CoveredRange {
  lo: number;
  hi: number;
  seq: number;
  at: number;
}

interface Walk {
  from: number;
  /** Lowest id the walk and its pages below `from` cover (`from` until one such page is listed). */
  lo: number;
  /** Objects below `lo` not listed yet, when a page below said. */
  below?: number;
  next: string | null;
  done: boolean;
  /** Highest id the pages so far cover. */
  upTo: number;
  fetched: number;
  total?: number;
  startedAt: number;
  /** A page listed ahead of the walk (pageAhead), which the walk joins when it gets there. */
  ahead?: Segment;
}

/** Pages of a walk listed ahead of it: objects with id >= `from`, up to `hi`, continued by `next`. */
interface Segment {
  from: number;
  hi: number;
  next: string | null;
  done: boolean;
  fetched: number;
  total?: number;
}

interface Waiter<T> {
  id: number;
  askedAt: number;
  resolve(value: T | null): void;
  reject(error: unknown): void;
}

export class IdReader<T> {
  private seq = 0;
  private readonly writes = new Map<number, number>();
  private writtenAll = 0;
  private readonly known = new Map<number, Known<T>>();
  private ranges: CoveredRange[] = [];
  private walk: Walk | undefined;
  private labelWalk: LabelWalk | undefined;
  /** Labels of the objects asks were answered with (how many objects each), and those objects. */
  private readonly labels = new Map<string, number>();
  private readonly labelled = new Set<number>();
  private waiting: Waiter<T>[] = [];
  /** Every id asked for: how much of what the walk listed was asked for (pageAheadFor). */
  private readonly asked = new Set<number>();
  /** Calls that listed one id alone outside what the walk covers (asks one at a time; see walkOnInstead). */
  private outsideCalls = 0;
  private round: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly pageSize: number;
  readonly stats: SharedListStats = { listings: 0, singleReads: 0, shared: 0 };

  constructor(private readonly source: IdListSource<T>) {
    this.now = source.now ?? Date.now;
    this.pageSize = source.pageSize ?? 25;
  }

  /** The object with this id, or null when it does not exist. */
  async get(key: string): Promise<T | null> {
    const id = Number(key);
    const askedAt = ++this.seq;
    this.asked.add(id);
    const written = this.writtenAt(id);
    const cached = this.cached(id, written);
    if (cached !== undefined) {
      this.stats.shared++;
      if (cached.item) this.answered(cached);
      return cached.item ?? this.alone(id);
    }
    if (written > 0) return this.alone(id);
    return new Promise<T | null>((resolve, reject) => {
      this.waiting.push({ id, askedAt, resolve, reject });
      this.schedule();
    });
  }

  /** Every object; with `fresh`, from a listing that starts after this call. */
  async list(options: { fresh?: boolean } = {}): Promise<T[]> {
    void options; // every call lists afresh: a whole walk is only asked for after a lost response
    const seq = ++this.seq;
    this.stats.listings++;
    const items = await this.source.fetchAll();
    const at = this.now();
    for (const item of items) this.known.set(this.source.idOf(item), { item, seq, at });
    return items;
  }

  /** Records that this process changed (or removed) the object; without an id, any object. */
  noteWrite(key?: string): void {
    if (key === undefined) this.writtenAll = ++this.seq;
    else this.writes.set(Number(key), ++this.seq);
  }

  /** Forgets what was read. */
  clear(): void {
    this.known.clear();
    this.ranges = [];
    this.walk = undefined;
    this.labelWalk = undefined;
    this.labels.clear();
    this.labelled.clear();
    this.asked.clear();
  }

  /** An ask was answered with `k`: its label counts, and its label page served one more. */
  private answered(k: Known<T>): void {
    if (k.page) k.page.hits++;
    const label = k.item ? this.source.labelOf?.(k.item) : undefined;
    if (label === undefined || label === "") return;
    // Objects, not asks: a resource read twice (a refresh's read, then its sweep) is one object
    // of its label, and a label of one object is no stack's shared label.
    const id = this.source.idOf(k.item as T);
    if (this.labelled.has(id)) return;
    this.labelled.add(id);
    this.labels.set(label, (this.labels.get(label) ?? 0) + 1);
  }

  private writtenAt(id: number): number {
    return Math.max(this.writes.get(id) ?? 0, this.writtenAll);
  }

  private fresh(at: number): boolean {
    return this.now() - at <= this.source.ttlMs();
  }

  /**
   * What a listing that began after the last write of `id` saw (the object, or null for
   * absent), if it is fresh or began at `since` or later (the current round, whatever the TTL).
   */
  private cached(id: number, written: number, since = Infinity): Known<T> | undefined {
    const usable = (seq: number, at: number) => seq > written && (seq >= since || this.fresh(at));
    const k = this.known.get(id);
    if (k && usable(k.seq, k.at)) return k;
    const range = this.ranges.find((r) => r.lo <= id && id <= r.hi && usable(r.seq, r.at));
    return range ? { item: null, seq: range.seq, at: range.at } : undefined;
  }

  private async alone(id: number): Promise<T | null> {
    this.stats.singleReads++;
    return this.source.fetchOne(id);
  }

  private schedule(): void {
    if (this.round || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.startRound();
    }, this.source.gatherMs ?? 5);
  }

  private startRound(): void {
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 0) return;
    this.round = this.serve(batch).finally(() => {
      this.round = undefined;
      // Asks that came while this round ran go together in the next one.
      if (this.waiting.length > 0) this.startRound();
    });
  }

  private async serve(batch: Waiter<T>[]): Promise<void> {
    try {
      const roundSeq = ++this.seq;
      await this.fill(new Set(batch.map((w) => w.id)), roundSeq);
      for (const w of batch) {
        const k = this.cached(w.id, this.writtenAt(w.id), roundSeq);
        if (k?.item) {
          this.answered(k);
          w.resolve(k.item);
        }
        // Absent in a listing of this round (it began after the ask): gone. In an older one: confirm.
        else if (k && k.seq >= roundSeq) w.resolve(null);
        else this.alone(w.id).then(w.resolve, w.reject);
      }
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }

  /** Lists until every id in `wanted` is known (present or absent). */
  private async fill(wanted: Set<number>, roundSeq: number): Promise<void> {
    const open = () => [...wanted].filter((id) => this.cached(id, this.writtenAt(id), roundSeq) === undefined).sort((a, b) => a - b);
    let labelPaged = false;
    let downPaged = false;
    let downAgain = false;
    for (let ids = open(); ids.length > 0; ids = open()) {
      // One label page a round, unless it answered some of the round's ids (then another may).
      const byLabel = labelPaged ? undefined : this.labelWalkFor(ids);
      if (byLabel) {
        const before = ids.length;
        await this.nextLabelPage(byLabel, ids[0]);
        labelPaged = open().length === before;
        continue;
      }
      const walk = this.walk && this.fresh(this.walk.startedAt) ? this.walk : undefined;
      // Ids just below the walk: one page under it serves them and their neighbours (once a
      // round, twice when the next page under it holds them; ids further down than that are
      // listed by id below).
      if (walk && ids[0] < walk.lo && this.source.walkDownPage && (!downPaged || this.pageDownInstead(walk) || (!downAgain && this.nextPageBelowHolds(ids, walk)))) {
        if (downPaged) downAgain = true;
        downPaged = true;
        await this.pageBelow(walk);
        continue;
      }
      if (!walk || walk.done || ids[0] < walk.from) {
        // Ids below a running walk, or after a finished one, are listed by id when that is
        // cheaper than a new walk from the lowest of them; a new walk otherwise.
        if (walk && (walk.done || ids[0] < walk.from) && this.byIdIsCheaper(ids, undefined)) {
          if (ids[0] < walk.lo && ids.length === 1) this.outsideCalls++;
          await this.listByIds(ids);
        } else await this.walkFrom(ids[0]);
        continue;
      }
      if (this.byIdIsCheaper(ids, walk) && !this.walkOnInstead(walk)) {
        if (ids[0] > walk.upTo && ids.length === 1) this.outsideCalls++;
        const at = this.pageAheadFor(ids, walk);
        if (at !== undefined) await this.pageAhead(walk, at);
        else await this.listByIds(ids);
      } else await this.nextPage(walk);
    }
  }

  /**
   * The label walk that should serve `ids` (open, ascending): the label most asks were answered
   * with, when at least two were, its walk not stopped, and `ids` beyond what it covered.
   */
  private labelWalkFor(ids: number[]): LabelWalk | undefined {
    if (!this.source.walkLabelPage) return undefined;
    let label: string | undefined;
    let most = 1;
    for (const [l, n] of this.labels) if (n > most) [label, most] = [l, n];
    if (label === undefined) return undefined;
    const walk = this.labelWalk;
    if (walk && walk.label === label && this.fresh(walk.startedAt)) {
      if (walk.stopped) return undefined;
      // A page that served fewer asks than half its objects: the label is not this stack's alone.
      if (walk.last && walk.last.hits * 2 < walk.last.items) {
        walk.stopped = true;
        return undefined;
      }
      if (!walk.done && ids[0] >= walk.from && ids[ids.length - 1] > walk.upTo) return walk;
      if (ids[0] >= walk.from && ids[ids.length - 1] <= walk.upTo) return undefined;
    }
    return { label, from: ids[0], next: null, done: false, upTo: ids[0] - 1, startedAt: this.now(), stopped: false };
  }

  private async nextLabelPage(walk: LabelWalk, lowest: number): Promise<void> {
    if (this.labelWalk !== walk) {
      walk.from = lowest;
      walk.upTo = lowest - 1;
      this.labelWalk = walk;
    }
    const seq = ++this.seq;
    this.stats.listings++;
    const page = await this.source.walkLabelPage!(walk.label, walk.from, walk.next);
    const at = this.now();
    const listed: LabelPage = { items: page.items.length, hits: 0 };
    for (const item of page.items) this.known.set(this.source.idOf(item), { item, seq, at, page: listed });
    walk.last = listed;
    walk.done = page.next === null || page.items.length === 0 || page.next === walk.next;
    walk.upTo = walk.done ? Number.MAX_SAFE_INTEGER : page.items.length > 0 ? this.source.idOf(page.items[page.items.length - 1]) : walk.upTo;
    walk.next = page.next;
  }

  /** Ids per object in what `walk` listed (at least 1): how far in ids its pages reach. */
  private density(walk: Walk): number {
    return walk.fetched > 0 ? Math.max(1, (walk.upTo - walk.from + 1) / walk.fetched) : 1;
  }

  /**
   * Where the page of `walk` that holds the ids of `ids` beyond its next page starts: when one
   * page holds them all (estimated from the walk's density, on the grid of its pages), none was
   * listed ahead yet, and, if some of `ids` lie within the next page (which the walk lists for
   * them), at least half of what the walk listed was asked for (the stack's own instances,
   * through which the next asks walk on). Undefined otherwise: the ids are listed by id.
   *
   * The engine diffs one resource at a time in the order the program's registrations reached
   * it, and `up` gave the ids in the order the creates reached the service: a few asks land
   * pages ahead of the walk. Listed by id, each cost a call of its own; the walk's page that
   * holds one costs that same call, and it is one of the pages the walk lists anyway when it
   * gets there (it joins it, see joinAhead): on the account of one stack, the ask costs nothing.
   */
  private pageAheadFor(ids: number[], walk: Walk): number | undefined {
    if (walk.ahead || walk.done || ids[0] < walk.from) return undefined;
    const density = this.density(walk);
    const span = this.pageSize * density;
    const far = ids.filter((id) => id - walk.upTo - 1 >= span);
    if (far.length === 0 || far.length > this.pageSize) return undefined;
    const at = walk.upTo + 1 + Math.round(Math.floor((far[0] - walk.upTo - 1) / span) * span);
    if (far[far.length - 1] >= at + span) return undefined;
    if (far.length < ids.length) {
      let asked = 0;
      for (const id of this.asked) if (id >= walk.from && id <= walk.upTo && this.known.get(id)?.item) asked++;
      if (asked * 2 < walk.fetched) return undefined;
    }
    return at;
  }

  /** Lists the page of `walk` from `from`, ahead of where the walk is. */
  private async pageAhead(walk: Walk, from: number): Promise<void> {
    const seq = ++this.seq;
    this.stats.listings++;
    const page = await this.source.walkPage(from, null);
    const at = this.now();
    for (const item of page.items) this.known.set(this.source.idOf(item), { item, seq, at });
    const done = page.next === null || page.items.length === 0;
    const hi = done ? Number.MAX_SAFE_INTEGER : this.source.idOf(page.items[page.items.length - 1]);
    this.ranges.push({ lo: from, hi, seq, at });
    walk.ahead = { from, hi, next: page.next, done, fetched: page.items.length, total: page.total };
  }

  /**
   * The walk reached the page listed ahead of it: it goes on from there, where that page's
   * cursor left off, instead of listing those objects again.
   */
  private joinAhead(walk: Walk): void {
    const ahead = walk.ahead;
    if (!ahead || walk.upTo + 1 < ahead.from) return;
    walk.ahead = undefined;
    if (walk.upTo >= ahead.hi) return;
    walk.from = ahead.from;
    walk.next = ahead.next;
    walk.done = ahead.done;
    walk.upTo = ahead.hi;
    walk.fetched = ahead.fetched;
    walk.total = ahead.total;
  }

  /**
   * Every id of `ids` below the walk is within the next page under it (estimated from the
   * walk's density): that page serves them and their neighbours for the one call listing them
   * by id would cost (once more in a round).
   */
  private nextPageBelowHolds(ids: number[], walk: Walk): boolean {
    if (walk.below === 0) return false;
    const below = ids.filter((id) => id < walk.lo);
    return below.length > 0 && (walk.lo - below[0]) / this.density(walk) <= this.pageSize;
  }

  /**
   * Asks ahead of the walk listed by id so far cost as many calls as walking on through a quarter of
   * what the walk has left: walk on. The engine diffs one resource at a time in the order the
   * program registered them, which is not the order their ids were given in; one by-id call for
   * each ask that lands ahead of the walk would cost a call per ask, where the walk serves all.
   * In an account of many other instances the walk has far to go, and by-id stays.
   */
  private walkOnInstead(walk: Walk): boolean {
    if (walk.total === undefined) return false;
    const left = Math.ceil(Math.max(0, walk.total - walk.fetched) / this.pageSize);
    return left > 0 && this.outsideCalls >= Math.max(1, Math.floor(left / 4));
  }

  /** As walkOnInstead, downwards: pages under the walk while by-id calls below it have cost a quarter of what is left there. */
  private pageDownInstead(walk: Walk): boolean {
    if (walk.below === undefined) return false;
    return walk.below > 0 && this.outsideCalls >= Math.max(1, Math.floor(Math.ceil(walk.below / this.pageSize) / 4));
  }

  /** Listing `ids` by id costs fewer calls than walking on to the highest of them. */
  private byIdIsCheaper(ids: number[], walk: Walk | undefined): boolean {
    const byId = Math.ceil(ids.length / this.pageSize);
    if (!walk) return byId <= 1;
    const max = ids[ids.length - 1];
    const ahead = Math.ceil((max - walk.upTo) / this.density(walk) / this.pageSize);
    const left = walk.total === undefined ? Infinity : Math.ceil(Math.max(0, walk.total - walk.fetched) / this.pageSize);
    return byId < Math.max(1, Math.min(ahead, left));
  }

  private async walkFrom(from: number): Promise<void> {
    this.walk = { from, lo: from, next: null, done: false, upTo: from - 1, fetched: 0, startedAt: this.now() };
    await this.nextPage(this.walk);
  }

  private async nextPage(walk: Walk): Promise<void> {
    // Reached the page listed ahead: on from there (the asks are looked at again first).
    const reached = walk.upTo;
    this.joinAhead(walk);
    if (walk.upTo !== reached) return;
    const seq = ++this.seq;
    this.stats.listings++;
    const page = await this.source.walkPage(walk.from, walk.next);
    const at = this.now();
    for (const item of page.items) this.known.set(this.source.idOf(item), { item, seq, at });
    const last = page.items.length > 0 ? this.source.idOf(page.items[page.items.length - 1]) : walk.upTo;
    const done = page.next === null || page.items.length === 0 || page.next === walk.next;
    this.ranges.push({ lo: walk.upTo + 1, hi: done ? Number.MAX_SAFE_INTEGER : last, seq, at });
    walk.upTo = done ? Number.MAX_SAFE_INTEGER : last;
    walk.next = page.next;
    walk.done = done;
    walk.fetched += page.items.length;
    walk.total = page.total ?? walk.total;
    this.joinAhead(walk);
  }

  /** The page of objects just below what `walk` covers: known, and their id range covered. */
  private async pageBelow(walk: Walk): Promise<void> {
    const seq = ++this.seq;
    this.stats.listings++;
    const page = await this.source.walkDownPage!(walk.lo);
    const at = this.now();
    for (const item of page.items) this.known.set(this.source.idOf(item), { item, seq, at });
    const ids = page.items.map((item) => this.source.idOf(item));
    const complete = page.next === null || page.items.length < this.pageSize;
    const lo = complete ? 0 : Math.min(...ids);
    this.ranges.push({ lo, hi: walk.lo - 1, seq, at });
    walk.lo = lo;
    walk.below = complete ? 0 : page.total === undefined ? undefined : Math.max(0, page.total - page.items.length);
  }

  private async listByIds(ids: number[]): Promise<void> {
    for (let i = 0; i < ids.length; i += this.pageSize) {
      const chunk = ids.slice(i, i + this.pageSize);
      const seq = ++this.seq;
      this.stats.listings++;
      const items = await this.source.fetchIds(chunk);
      const at = this.now();
      for (const id of chunk) this.known.set(id, { item: null, seq, at });
      for (const item of items) this.known.set(this.source.idOf(item), { item, seq, at });
    }
  }
}
