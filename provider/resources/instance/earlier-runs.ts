/**
 * Before renting, an Instance create with an identity looks for the instance an earlier run of
 * the same create left (its plugin killed while the request was on its way): that instance
 * carries the create's marker in its environment. The look-up used to list the whole account
 * for every create, so a stack's creates cost ceil(account/25) list calls each, whatever the
 * stack (issue 28: cost follows the stack, never the account). Now:
 * - creates that start together share one look-up (asks gathered for a few ms, and while a
 *   look-up is under way);
 * - when every create of a look-up has a label, only instances with those labels are listed
 *   (the service filters the paged list by label): ceil(matches/25) calls, usually one. An
 *   earlier run sent the same label unless the program changed it in between; an instance so
 *   left still carries the stack's marker, and `npx pulumi-vastai orphans` reports it;
 * - a create without a label keeps the whole listing, shared by the creates beside it;
 * - check announces the label of each resource about to be created (the engine checks every
 *   resource a program registers before most of their creates run), and each look-up call fills
 *   up with announced labels (up to LABELS_PER_CALL, and LABEL_CHARS_PER_CALL characters), so
 *   one call serves many creates and the later ones make none.
 *   A listing serves the creates of this process for LISTING_TTL_MS: what a killed earlier
 *   run left was there before this process started, so a listing made since shows it.
 * - a process whose creates have needed LABEL_CALLS_BEFORE_WHOLE look-up calls by label, with
 *   few labels each (the CLI's creates ask a few at a time: a call per few creates), lists one page of
 *   the whole account: when the account holds few instances (WHOLE_PAGES at most: a stack's
 *   first up, a small account), that listing serves every later create of this process
 *   (whatever its label) for LISTING_TTL_MS; a larger account goes on by label as above;
 * - the CLI checks a resource only when one of its (default 8) operation slots is free, so
 *   check announces a few labels ahead at most, and creates ask a few at a time. A look-up
 *   after another one would wait for the paged list's pacing anyway (about a second): its asks
 *   are gathered until then, so each call serves every create that asked meanwhile (about
 *   the slots' worth) instead of those that had asked when the previous call returned.
 * - a look-up the list's pacing would not hold (a process's first) waits while checks and
 *   creates keep coming QUIET_MS apart or less, up to a fifth of the list's spacing: the CLI
 *   checks, then creates, one resource after another (about 5-15 ms apart) as its slots take
 *   them, so 5 ms after the first create's ask only that create and a check or two were in;
 *   the slots' other creates waited a whole list spacing for the next call while the few
 *   served ones left the creation lane idle (0.3-0.5 s once per up, at 8 slots).
 */
import type { Instance, VastClient } from "../../client";
import { currentTiming } from "../kit";
import { INSTANCE_PAGE_SIZE } from "./live";

/** Labels per filtered list call at most... */
const LABELS_PER_CALL = 100;
/** ...and characters of labels per call (they go in the query string; a label may have 1024). */
const LABEL_CHARS_PER_CALL = 2000;
/** How long the first ask of a look-up waits for others, ms. */
const GATHER_MS = 5;
/** A look-up the list's pacing does not hold starts once checks and asks paused this long, ms... */
const QUIET_MS = 15;
/** ...or once this share of the paged list's spacing passed since its first ask. */
const QUIET_CAP_SHARE = 1 / 5;

/**
 * When a check announced a create or a create asked last: `performance.now()`, the clock of the
 * timers that wait for the pause (an injected clock may stand still while they run).
 */
let lastActivity = Number.NEGATIVE_INFINITY;
/** How long a listing of this process serves later creates with the same labels, ms. */
const LISTING_TTL_MS = 10 * 60_000;

/** Pages of the whole account a process lists once, at most, instead of looking up by label... */
const WHOLE_PAGES = 4;
/** ...once its look-ups by label have made this many calls. */
const LABEL_CALLS_BEFORE_WHOLE = 2;

/** Labels of resources about to be created (announced by check), not yet listed. */
const announced = new Set<string>();

/** Check of a resource about to be created: its label joins the next look-up. */
export function announceCreate(label: unknown): void {
  lastActivity = performance.now();
  if (typeof label === "string" && label !== "") announced.add(label);
}

interface Ask {
  label: string | undefined;
  resolve(found: Instance[]): void;
  reject(error: unknown): void;
}

class EarlierRuns {
  private waiting: Ask[] = [];
  /** The instances of each label a listing of this process found, and when it began. */
  private readonly listed = new Map<string, { at: number; instances: Instance[] }>();
  /** The whole account's instances when the process's first look-up found it small, and when that listing began. */
  private whole: { at: number; instances: Instance[] } | undefined;
  /** A look-up has tried the whole account; calls by label so far. */
  private probed = false;
  private labelCalls = 0;
  private labelsListed = 0;
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** When the last list call of the last look-up was made and when that look-up ended (currentTiming). */
  private lastCall: number | undefined;
  private lastEnd = 0;

  constructor(private readonly client: VastClient) {}

  /** Every instance with `label`, or all of them without one, from a listing that starts after this call. */
  candidates(label: string | undefined): Promise<Instance[]> {
    const whole = this.freshWhole();
    if (whole) return Promise.resolve(label ? whole.filter((instance) => instance.label === label) : whole);
    if (label && this.fresh(label)) return Promise.resolve(this.listed.get(label)!.instances);
    lastActivity = performance.now();
    return new Promise<Instance[]>((resolve, reject) => {
      this.waiting.push({ label: label === "" ? undefined : label, resolve, reject });
      if (!this.running && !this.timer) this.arm();
    });
  }

  /**
   * The first ask of a look-up while none is under way: when the list's pacing would hold the
   * call, the look-up starts when it may go (asks that come until then are in it); otherwise
   * once the checks and asks pause.
   */
  private arm(): void {
    const pacedMs = this.pacedWaitMs();
    if (pacedMs > GATHER_MS) {
      this.timer = setTimeout(() => this.start(), pacedMs);
      return;
    }
    const firstAsk = performance.now();
    this.timer = setTimeout(() => this.startWhenQuiet(firstAsk), GATHER_MS);
  }

  /**
   * Starts the look-up once checks and asks have paused for QUIET_MS (or a fifth of the list's
   * spacing after `firstAsk`): creates that come one after another a few ms apart go in this
   * call, not in the next one, which the list's pacing would hold.
   */
  private startWhenQuiet(firstAsk: number): void {
    const now = performance.now();
    const quietFor = now - lastActivity;
    const capLeft = firstAsk + this.client.instances.listPageSpacingMs() * QUIET_CAP_SHARE - now;
    if (quietFor >= QUIET_MS || capLeft <= 0) return this.start();
    this.timer = setTimeout(() => this.startWhenQuiet(firstAsk), Math.max(1, Math.min(QUIET_MS - quietFor, capLeft)));
  }

  private start(): void {
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 0) return;
    // Asks that waited for the process's whole listing are served by it.
    const whole = this.freshWhole();
    if (whole) {
      for (const ask of batch) ask.resolve(ask.label === undefined ? whole : whole.filter((instance) => instance.label === ask.label));
      return;
    }
    this.running = this.serve(batch).finally(() => {
      this.running = undefined;
      this.lastEnd = currentTiming().now();
      // Asks that came during this look-up go together in the next one, with those that come
      // until the paged list may be called again.
      if (this.waiting.length > 0) this.startWhenPaced();
    });
  }

  /**
   * Starts the next look-up when the paged list may be called again: one spacing after the last
   * call went out. It went out between when it was made (the pacer may hold it) and when it was
   * answered; taken as at most a fifth of the spacing before its answer, so that asks that come
   * while the pacer would hold the next call are in it.
   */
  private startWhenPaced(): void {
    const waitMs = this.pacedWaitMs();
    if (waitMs <= GATHER_MS) return this.start();
    this.timer = setTimeout(() => this.start(), waitMs);
  }

  /** How long until the paged list may be called again, ms (0 or less: now). */
  private pacedWaitMs(): number {
    const spacing = this.client.instances.listPageSpacingMs();
    const sentAt = this.lastCall === undefined ? undefined : Math.max(this.lastCall, this.lastEnd - spacing / 5);
    return sentAt === undefined ? 0 : sentAt + spacing - currentTiming().now();
  }

  private async serve(batch: Ask[]): Promise<void> {
    try {
      const whole = await this.list(batch);
      for (const ask of batch) {
        // A whole listing (an ask without a label was in the batch) serves the labeled asks too.
        if (whole) ask.resolve(ask.label === undefined ? whole : whole.filter((instance) => instance.label === ask.label));
        else ask.resolve(this.listed.get(ask.label as string)?.instances ?? []);
      }
    } catch (error) {
      for (const ask of batch) ask.reject(error);
    }
  }

  /** Lists what the batch needs: the whole account (returned) when an ask has no label, else the labels not listed lately. */
  private async list(batch: Ask[]): Promise<Instance[] | undefined> {
    const at = currentTiming().now();
    // Only when those calls carried few labels each (creates asking a few at a time): full calls
    // (labels announced by check ahead of the creates) already serve many creates each.
    if (!this.probed && this.labelCalls >= LABEL_CALLS_BEFORE_WHOLE && this.labelsListed * 2 < this.labelCalls * LABELS_PER_CALL) {
      this.probed = true;
      const small = await this.smallAccount();
      if (small) {
        this.whole = { at, instances: small };
        return small;
      }
    }
    if (batch.some((ask) => ask.label === undefined)) {
      this.lastCall = at;
      return this.client.instances.listAll(INSTANCE_PAGE_SIZE);
    }
    // The labels asked for, each call filled up with labels announced by check: the asks wait for
    // no more calls than their own labels need, and later creates find theirs listed already.
    const asked = [...new Set(batch.map((ask) => ask.label as string))].filter((l) => !this.fresh(l));
    while (asked.length > 0) {
      const some = [asked.shift() as string];
      let chars = some[0].length;
      const fits = (label: string) => some.length < LABELS_PER_CALL && chars + label.length <= LABEL_CHARS_PER_CALL;
      while (asked.length > 0 && fits(asked[0])) {
        const label = asked.shift() as string;
        some.push(label);
        chars += label.length;
      }
      for (const label of announced) {
        if (some.length >= LABELS_PER_CALL) break;
        if (this.fresh(label)) announced.delete(label);
        else if (fits(label) && !some.includes(label)) {
          some.push(label);
          chars += label.length;
        }
      }
      this.lastCall = currentTiming().now();
      this.labelCalls++;
      this.labelsListed += some.length;
      const page = await this.client.instances.listAll(INSTANCE_PAGE_SIZE, { filters: { label: { in: some } } });
      for (const label of some) {
        announced.delete(label);
        this.listed.set(label, { at, instances: page.filter((instance) => instance.label === label) });
      }
    }
    return undefined;
  }

  /** Every instance of the account when it has WHOLE_PAGES pages at most (the first page says), else undefined. */
  private async smallAccount(): Promise<Instance[] | undefined> {
    this.lastCall = currentTiming().now();
    let page = await this.client.instances.listPage({ limit: INSTANCE_PAGE_SIZE });
    if (page.nextToken !== null && (page.totalInstances === undefined || Math.ceil(page.totalInstances / INSTANCE_PAGE_SIZE) > WHOLE_PAGES)) return undefined;
    const instances = [...page.instances];
    for (let pages = 1; page.nextToken !== null && page.instances.length > 0; pages++) {
      if (pages >= WHOLE_PAGES) return undefined;
      this.lastCall = currentTiming().now();
      page = await this.client.instances.listPage({ limit: INSTANCE_PAGE_SIZE, afterToken: page.nextToken });
      instances.push(...page.instances);
    }
    return instances;
  }

  private freshWhole(): Instance[] | undefined {
    return this.whole && currentTiming().now() - this.whole.at <= LISTING_TTL_MS ? this.whole.instances : undefined;
  }

  private fresh(label: string): boolean {
    const seen = this.listed.get(label);
    return seen !== undefined && currentTiming().now() - seen.at <= LISTING_TTL_MS;
  }
}

const lookups = new WeakMap<VastClient, EarlierRuns>();

/**
 * The instances, listed afresh after this call, among which an instance carrying a create's
 * marker would be: those with the create's label, or every instance when it has none. Creates
 * that ask at about the same time share the listing.
 */
export function instancesThatMayCarry(client: VastClient, label: string | undefined): Promise<Instance[]> {
  let finder = lookups.get(client);
  if (!finder) {
    finder = new EarlierRuns(client);
    lookups.set(client, finder);
  }
  return finder.candidates(label);
}
