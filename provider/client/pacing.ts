/**
 * Per-endpoint pacing: the service enforces a minimum interval between calls per endpoint and
 * per key (api-facts: Rate limits), and answers 429 without Retry-After when a call comes too
 * soon. Rather than provoke 429s, every request awaits `acquire` before it is sent and reports
 * its answer through the slot's `done`; nothing else of this module is the request core's business.
 *
 * Lanes (one per API URL, endpoint and hash of the API key, never the key itself) live in one
 * process-wide registry, so every client in the process (all the resources of a Pulumi program
 * run in one provider process) shares them. A caller reserves its slot synchronously, so
 * concurrent callers queue one interval apart instead of all waking at once. The same registry
 * counts the requests in flight, capped by `maxConcurrentRequests`.
 *
 * Slots are reserved one interval apart: the interval (the limit plus PACING_MARGIN) is the
 * lane's pace, and a caller that wakes late does not push the slots behind it, so the lane
 * catches up on what late timers lost instead of adding it to every call. The service only
 * needs two calls it counts at least its limit apart; it counts a call somewhere between its
 * send and its answer, not at the send, so three rules keep the calls as it counts them at
 * least the lane's spacing apart (the limit plus half the margin, `spacing`). Each stays
 * because the burst under the service's realistic limits at a cold start
 * (test/integration/perf-burst.test.ts) is refused without it:
 * - `dispatch`, just before sending: never closer than the spacing to the previous send. The
 *   slot alone is not enough: a timer that fires late (a busy event loop) would let the next
 *   caller, woken on time, go out right after it.
 * - `settled`, on each answer: an answer slower than the fastest one seen from the endpoint (a
 *   stall on either side) may mean the call was counted late; beyond a small tolerance (the
 *   other half of the margin), the next send keeps the spacing from that latest moment,
 *   callers already waiting included. Round trips count from the call's dispatch: the write a
 *   busy event loop reports late would make them look shorter than the service's own time.
 * - `gate`: the first call of each endpoint in a process goes alone, the next waits for its
 *   answer (and keeps an interval from it, by `settled`). A process's first calls meet code
 *   still loading and cold connections, which can hold a call between its send and the wire
 *   for longer than an interval while the next one goes out on time; no round trip has been
 *   seen yet to judge the delay by, so the answer itself is the only safe bound.
 *
 * Every send is paced by the time it actually left (`sent`, reported by the transport once the
 * request was handed to the network), less the shortest delay seen between a dispatch and its
 * write (the next call takes as long to be written), not by the time its caller woke: a call
 * still waiting to be written holds the next one, so a busy event loop that delays writes cannot
 * bunch them up.
 *
 * The pace is learned from the service (all per lane, so shared by every caller and client of
 * the process): a refused call (429) widens the lane's interval at once (x1.25, at most x4; the
 * refusals of calls sent before that widening widen nothing more) and
 * moves its floor an interval past the refused call (or to the end of its `Retry-After`, when the
 * answer has one), so every waiting caller of the lane slows down, not just the refused one; a
 * threshold named by the refusal (`endpoint threshold=N`, seconds) raises the lane's interval to
 * at least that limit with the default margin; each answered call then narrows the widening
 * again by 1 % of the interval, down to the configured interval, never below it. Because a
 * refusal widens the lane, the default intervals need only a small margin (PACING_MARGIN).
 */
import { createHash } from "node:crypto";

/** Minimum interval per endpoint key (`METHOD /route/{param}/`), ms. */
export type IntervalTable = Readonly<Record<string, number>>;

/** How the client spaces its requests: minimum intervals per endpoint, and the cap of requests in flight. */
export interface PacingOptions {
  /** Overrides per endpoint key, for example `{"PUT /api/v0/instances/{id}/": 2000}`. */
  intervalsMs?: Record<string, number>;
  /** Interval for endpoints that have no entry of their own, ms. */
  defaultIntervalMs?: number;
}

/** How the pacer waits and how hard it holds back; the client validates the numbers. */
export interface PacerLimits {
  /** Waits for a slot; default a real timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Factor on every interval (2 halves the rate); default 1. */
  rateLimitScale?: number;
  /** Requests in flight at once in this process, across endpoints; default unlimited. */
  maxConcurrentRequests?: number;
}

/** What `acquire` hands the caller: the send may go now; `done` reports its answer. */
export interface PacingSlot {
  /** How long the call waited for its turn, ms (subtract it from the call's time budget). */
  readonly waitedMs: number;
  /**
   * Report that the request was handed to the network at `at` (epoch ms): the lane's next send
   * keeps its spacing from then. Without it the send counts from the moment `acquire` returned.
   */
  sent(at: number): void;
  /**
   * Report the answer (`status`), or the failure to get one (`status` undefined), of the call
   * sent at `sentAt` and finished at `endedAt`, with what a 429 told of the service's pace.
   * Call exactly once.
   */
  done(sentAt: number, endedAt: number, status: number | undefined, refusal?: Refusal): void;
}

/** What a refused call's answer (429) told of the service's pace. */
export interface Refusal {
  /** The interval the service named in its answer (`endpoint threshold=N`), ms. */
  thresholdMs?: number;
  /** The answer's `Retry-After`, ms from its arrival. */
  retryAfterMs?: number;
}

/**
 * The margin of the default intervals over the service's limits (endpoints.ts): small, since a
 * refusal widens its lane at once (see the module's note).
 */
export const PACING_MARGIN = 0.03;
/**
 * Answers of a service and key seen before the fastest of them is trusted (`settled`), and
 * writes of a lane seen before the shortest delay to a write is (`sent`).
 */
const WARM_ANSWERS = 4;
/** A refusal multiplies the lane's interval by this... */
const WIDEN = 1.25;
/** ...up to this factor over the configured interval... */
const MAX_FACTOR = 4;
/** ...and each answered call takes this much of the factor back, down to 1. */
const NARROW = 0.01;

/**
 * How much later than its send an answer may show a call was counted before the next send
 * moves: half the interval's margin over the limit (the other half is for the spread between
 * sending and arrival), so the usual spread of round trips moves nothing.
 */
function tolerance(interval: number, factor: number): number {
  return (interval * (1 - 1 / ((1 + PACING_MARGIN) * factor))) / 2;
}

/**
 * The least gap between two sends of a lane: halfway between the service's limit (the interval
 * less its margin and widening) and the interval. Calls are reserved one interval apart (the
 * pace); a call that leaves late does not push the next reservations, so the lane catches up on
 * the time a late timer lost, never closer than this to the send before.
 */
function spacing(interval: number, factor: number): number {
  return interval - tolerance(interval, factor);
}

interface Lane {
  /** The earliest time the next reservation may start. */
  nextSlot: number;
  /**
   * When the last call was sent, as a dispatch time: its write less the shortest delay seen from
   * a dispatch to its write (`minWriteMs`), so the usual delay of writing is not paid twice.
   */
  lastSend: number;
  /** The shortest time seen from a call's dispatch to its write, ms, and over how many writes. */
  minWriteMs: number;
  writes: number;
  /** The earliest next send that the answers seen so far allow. */
  floor: number;
  /** The first call's answer still awaited (and how to open it), or open. */
  gate: { answered: Promise<void>; open(): void } | "open" | undefined;
  /** Factor on the interval that refusals set (>= 1, back to 1 as calls are answered). */
  factor: number;
  /** The service's limit named by a refusal, ms (0 until one names it). */
  learnedMs: number;
  /** Calls let go that the transport has not yet reported sent. */
  unsent: number;
  /** When a refusal last widened the lane. */
  widenedAt: number;
  /** The fastest round trip of this endpoint seen, ms, and how many answers it was taken from. */
  fastestMs: number;
  answers: number;
}

interface Registry {
  lanes: Map<string, Lane>;
  /** Per scope (URL and key): the fastest round trip seen, ms, and how many answers it was taken from. */
  fastest: Map<string, number>;
  answers: Map<string, number>;
  /** Requests of the process in flight, and the callers waiting for one to end. */
  inFlight: number;
  waiting: Array<() => void>;
}

const REGISTRY_SLOT = Symbol.for("pulumi-vastai.client.pacing-lanes");

/** The process-wide registry, kept on globalThis so every copy of this module shares it. */
function registry(): Registry {
  const holder = globalThis as unknown as Record<symbol, Registry | undefined>;
  holder[REGISTRY_SLOT] ??= { lanes: new Map(), fastest: new Map(), answers: new Map(), inFlight: 0, waiting: [] };
  holder[REGISTRY_SLOT].answers ??= new Map();
  return holder[REGISTRY_SLOT];
}

/** A short, non-reversible tag of the API key, so slots are per key without storing it. */
export function keyTag(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("hex").slice(0, 16);
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class Pacer {
  private readonly scope: string;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly scale: number;
  private readonly maxInFlight: number;

  /**
   * @param apiUrl base URL the client talks to
   * @param apiKey the key; only its hash is kept
   * @param defaults built-in intervals per endpoint key
   * @param options user overrides, or false to turn pacing off
   * @param now the clock, epoch ms
   * @param limits how to wait, the interval factor and the cap of requests in flight
   */
  constructor(
    apiUrl: string,
    apiKey: string,
    private readonly defaults: { intervalsMs: IntervalTable; defaultIntervalMs: number },
    private readonly options: PacingOptions | false,
    private readonly now: () => number,
    limits: PacerLimits = {},
  ) {
    this.scope = `${apiUrl.replace(/\/+$/, "")}|${keyTag(apiKey)}`;
    this.sleep = limits.sleep ?? realSleep;
    this.scale = limits.rateLimitScale ?? 1;
    this.maxInFlight = limits.maxConcurrentRequests ?? Infinity;
  }

  /**
   * The one call a request makes before sending: waits for the endpoint's slot, for the answer
   * of the endpoint's first call, for room under the cap of requests in flight, and until the
   * send keeps its spacing; then records the send. Returns null, reserving nothing, when the
   * slot lies beyond `maxWaitMs` (what is left of the caller's deadline).
   */
  async acquire(endpointKey: string, maxWaitMs = Infinity): Promise<PacingSlot | null> {
    const reservedAt = this.now();
    const wait = this.reserve(endpointKey, maxWaitMs);
    if (wait === null) return null;
    if (wait > 0) await this.sleep(wait);
    await this.firstAnswer(endpointKey);
    await this.enter();
    // A clock that stood still over the slot's wait (tests) is not believed over later waits.
    const frozen = wait > 0 && this.now() === reservedAt;
    const late = await this.untilSendable(endpointKey, reservedAt + wait, frozen);
    const dispatchedAt = this.now();
    // From here until `sent`, this call holds the next send of its lane (dispatch).
    let unsent = this.intervalFor(endpointKey) > 0;
    if (unsent) this.lane(endpointKey).unsent++;
    let open = true;
    const sent = (at: number) => {
      if (!unsent) return;
      unsent = false;
      this.sent(endpointKey, at, dispatchedAt);
    };
    return {
      // The wait for room under the cap counts too; a clock that stands still while sleeping
      // (tests) still shows the slot's wait.
      waitedMs: Math.max(wait + late, this.now() - reservedAt),
      sent,
      done: (sentAt, endedAt, status, refusal) => {
        if (!open) return;
        open = false;
        sent(sentAt);
        this.leave();
        // A refused call does not count, and a failed one tells nothing of when it was counted.
        if (status === 429) this.refused(endpointKey, sentAt, endedAt, refusal);
        // Judged from the dispatch, not the reported write: a busy event loop reports a write
        // late, which would make its round trip look shorter than the service's own time.
        else if (status !== undefined) this.settled(endpointKey, Math.min(dispatchedAt, sentAt), endedAt);
        this.answered(endpointKey);
      },
    };
  }

  /**
   * While the first call of the endpoint in this process has no answer, waits for it: at most
   * two intervals of real time (a cap, not pacing, so not the injected clock), so a first call
   * that hangs holds the others no longer than that.
   */
  private async firstAnswer(endpointKey: string): Promise<void> {
    const gate = this.gate(endpointKey);
    if (!gate) return;
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 2 * this.intervalFor(endpointKey));
      timer.unref();
    });
    try {
      await Promise.race([gate, cap]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits for room under the process-wide cap of requests in flight. */
  private async enter(): Promise<void> {
    const r = registry();
    while (r.inFlight >= this.maxInFlight) await new Promise<void>((resolve) => r.waiting.push(resolve));
    r.inFlight++;
  }

  private leave(): void {
    const r = registry();
    r.inFlight--;
    // Wake every waiter: each checks against its own client's cap, and those still over it wait again.
    for (const wake of r.waiting.splice(0)) wake();
  }

  /**
   * Waits, past the reserved slot, until `dispatch` lets the call go (a late wake-up of the call
   * before it, or an answer showing it was counted late, moves this one); returns the extra ms.
   * A clock that does not move while sleeping (tests) sends after one extra wait.
   */
  private async untilSendable(endpointKey: string, slot: number, frozen: boolean): Promise<number> {
    let waited = 0;
    let stuck = false;
    for (;;) {
      const before = this.now();
      // A moving clock is believed over the time slept: a timer may fire before the clock (whole
      // ms) shows its time, and a send recorded at the time it should have been would then go
      // out up to a ms closer to the one before than recorded.
      const more = this.dispatch(endpointKey, stuck || frozen ? slot + waited : Math.min(slot + waited, before), stuck);
      if (more <= 0) return waited;
      await this.sleep(more);
      waited += more;
      stuck = this.now() === before;
    }
  }

  /** The configured interval of an endpoint key, `rateLimitScale` applied, ms (0 when pacing is off). */
  private configuredFor(endpointKey: string): number {
    if (this.options === false) return 0;
    const own = this.options.intervalsMs?.[endpointKey] ?? this.defaults.intervalsMs[endpointKey];
    return Math.max(0, own ?? this.options.defaultIntervalMs ?? this.defaults.defaultIntervalMs) * this.scale;
  }

  /**
   * The interval that applies to an endpoint key now, ms (0 when pacing is off): the configured
   * one (`rateLimitScale` applied), raised to a limit the service named, times the lane's factor.
   */
  intervalFor(endpointKey: string): number {
    const configured = this.configuredFor(endpointKey);
    if (configured === 0) return 0;
    const lane = registry().lanes.get(`${this.scope}|${endpointKey}`);
    if (!lane) return configured;
    return Math.max(configured, lane.learnedMs * (1 + PACING_MARGIN)) * lane.factor;
  }

  /** The least gap between two sends of an endpoint key now, ms (see `spacing`; 0 when pacing is off). */
  spacingFor(endpointKey: string): number {
    const interval = this.intervalFor(endpointKey);
    if (interval === 0) return 0;
    return spacing(interval, registry().lanes.get(`${this.scope}|${endpointKey}`)?.factor ?? 1);
  }

  private lane(endpointKey: string): Lane {
    const lanes = registry().lanes;
    const key = `${this.scope}|${endpointKey}`;
    let lane = lanes.get(key);
    if (!lane) {
      lane = {
        nextSlot: -Infinity,
        lastSend: -Infinity,
        minWriteMs: Infinity,
        writes: 0,
        floor: -Infinity,
        gate: undefined,
        factor: 1,
        learnedMs: 0,
        unsent: 0,
        widenedAt: -Infinity,
        fastestMs: Infinity,
        answers: 0,
      };
      lanes.set(key, lane);
    }
    return lane;
  }

  // The steps below are `acquire`'s; they are public so the unit tests can drive each rule with
  // a clock of their own. Requests go through `acquire` only.

  /**
   * Reserve the next free slot of `endpointKey` and return how long to wait for it, ms.
   * Returns null, reserving nothing, when the wait would exceed `maxWaitMs`.
   */
  reserve(endpointKey: string, maxWaitMs = Infinity): number | null {
    const interval = this.intervalFor(endpointKey);
    if (interval === 0) return 0;
    const lane = this.lane(endpointKey);
    const t = this.now();
    const slot = Math.max(t, lane.nextSlot);
    const wait = slot - t;
    if (wait > maxWaitMs) return null;
    lane.nextSlot = slot + interval;
    return wait;
  }

  /**
   * Called before sending: undefined when the call may go, else the answer of the endpoint's
   * first call in this process, to wait for (the caller bounds the wait). The first caller
   * itself goes at once.
   */
  gate(endpointKey: string): Promise<void> | undefined {
    if (this.intervalFor(endpointKey) === 0) return undefined;
    const lane = this.lane(endpointKey);
    if (lane.gate === "open") return undefined;
    if (lane.gate) return lane.gate.answered;
    let open = () => {};
    const answered = new Promise<void>((resolve) => (open = resolve));
    lane.gate = { answered, open };
    return undefined;
  }

  /** Called when a call of the endpoint has its answer (or failed): the first call's gate opens. */
  answered(endpointKey: string): void {
    const lane = registry().lanes.get(`${this.scope}|${endpointKey}`);
    if (!lane?.gate || lane.gate === "open") return;
    const { open } = lane.gate;
    lane.gate = "open";
    open();
  }

  /**
   * Called just before sending, with the time the caller has waited until (`slot`, epoch ms):
   * 0 when it may go now (its send is recorded), else how much longer to wait before calling
   * again. A call goes out at least the lane's spacing after the previous send of its endpoint
   * (its interval less half the margin: a caller that woke at its slot after a late one catches
   * up, as reservations are an interval apart), and not before the floor the answers set;
   * waiting callers see sends recorded meanwhile. `force` records the send and returns 0
   * whatever the wait (a caller that waited enough rounds).
   */
  dispatch(endpointKey: string, slot: number, force = false): number {
    const gap = this.spacingFor(endpointKey);
    if (gap === 0) return 0;
    const lane = this.lane(endpointKey);
    // A caller never counts as earlier than its slot: with a clock that does not move while
    // sleeping (tests), it still is at its slot once its wait is over.
    const t = Math.max(this.now(), slot);
    const at = Math.max(t, lane.lastSend + gap, lane.floor);
    // Below a microsecond the difference is the rounding of fractional intervals, not a wait.
    if (at - t > 1e-3 && !force) return at - t;
    // A call let go but not yet written holds the next: it leaves at an unknown moment, and the
    // next keeps its spacing from then (`sent`). Look again shortly.
    if (lane.unsent > 0 && !force) return Math.max(1, Math.ceil(gap / 100));
    lane.lastSend = t;
    lane.nextSlot = Math.max(lane.nextSlot, t + gap);
    return 0;
  }

  /**
   * Called when a call that `dispatch` let go (at `dispatchedAt`) was handed to the network at
   * `at`: the next send of the endpoint keeps its spacing from then, less the shortest delay
   * seen between a dispatch and its write (the next call takes at least as long to be written).
   * A write held up (a busy event loop) thus holds the next send by as much.
   */
  sent(endpointKey: string, at: number, dispatchedAt?: number): void {
    const lane = registry().lanes.get(`${this.scope}|${endpointKey}`);
    if (!lane) return;
    lane.unsent = Math.max(0, lane.unsent - 1);
    if (dispatchedAt !== undefined && at >= dispatchedAt) {
      lane.minWriteMs = Math.min(lane.minWriteMs, at - dispatchedAt);
      lane.writes++;
    }
    // Only once a few writes were seen (a process's first ones meet cold code and connections),
    // and never more than the tolerance: the next write then stays at least the limit away even
    // if it leaves at once.
    const sentAs = at - this.usualWrite(lane, this.intervalFor(endpointKey));
    lane.lastSend = Math.max(lane.lastSend, sentAs);
    lane.nextSlot = Math.max(lane.nextSlot, sentAs + this.spacingFor(endpointKey));
  }

  /**
   * The shortest delay seen from a dispatch to its write, ms: every call of the lane takes at
   * least as long to leave, so the next send may be dispatched that much before its spacing from
   * the last write. Only once a few writes were seen (a process's first ones meet cold code and
   * connections), and never more than the tolerance, so a next write that leaves at once still
   * keeps the limit.
   */
  private usualWrite(lane: Lane, interval: number): number {
    return lane.writes >= WARM_ANSWERS ? Math.min(lane.minWriteMs, tolerance(interval, lane.factor)) : 0;
  }

  /**
   * Called when a call sent at `sentAt` was refused (429) at `receivedAt`: the lane slows down for
   * every caller. Its interval widens (and rises to a limit the answer named); no later send goes
   * out within an interval of the moment the refused call was counted at the latest, nor before
   * the end of the answer's `Retry-After`.
   */
  refused(endpointKey: string, sentAt: number, receivedAt: number, refusal: Refusal = {}): void {
    if (this.configuredFor(endpointKey) === 0) return;
    const lane = this.lane(endpointKey);
    if (refusal.thresholdMs !== undefined && refusal.thresholdMs > 0) lane.learnedMs = Math.max(lane.learnedMs, refusal.thresholdMs);
    // Calls sent before the last widening were not paced by it: their refusals widen nothing more.
    if (sentAt >= lane.widenedAt) {
      lane.factor = Math.min(MAX_FACTOR, lane.factor * WIDEN);
      lane.widenedAt = receivedAt;
    }
    const interval = this.intervalFor(endpointKey);
    const best = registry().fastest.get(this.scope) ?? 0;
    const latestCount = Math.max(sentAt, receivedAt - best);
    let floor = latestCount + interval;
    if (refusal.retryAfterMs !== undefined && refusal.retryAfterMs > 0) floor = Math.max(floor, receivedAt + refusal.retryAfterMs);
    lane.floor = Math.max(lane.floor, floor);
    lane.nextSlot = Math.max(lane.nextSlot, lane.floor);
  }

  /**
   * Called when the answer to a call sent (dispatched) at `sentAt` arrived at `receivedAt` (not
   * for a 429: a refused call does not count). The call was counted at the latest one fastest
   * round trip before the answer: the fastest of this endpoint once it has a few answers (its
   * own work after it is counted is part of every one of them), until then of any endpoint of
   * this service and key, and for the endpoint's first call, at the answer itself. When that is later than its send plus the usual
   * write delay by more than the tolerance, no later send of the endpoint is dispatched within
   * the spacing (less that write delay) of it.
   */
  settled(endpointKey: string, sentAt: number, receivedAt: number): void {
    const interval = this.intervalFor(endpointKey);
    if (interval === 0) return;
    const { fastest, answers } = registry();
    const seen = answers.get(this.scope) ?? 0;
    answers.set(this.scope, seen + 1);
    const lane = this.lane(endpointKey);
    // The first answers of a process are slow (code still loading, cold connections): until a
    // few were seen, their fastest says little of the service's own time, so none is taken off.
    // Each endpoint is judged by its own answers once it has a few: a create does more work
    // than a read after it is counted, so it answers later every time without being counted late.
    const best = lane.answers >= WARM_ANSWERS ? lane.fastestMs : seen >= WARM_ANSWERS ? (fastest.get(this.scope) ?? 0) : 0;
    fastest.set(this.scope, Math.min(fastest.get(this.scope) ?? Infinity, receivedAt - sentAt));
    lane.fastestMs = Math.min(lane.fastestMs, receivedAt - sentAt);
    lane.answers++;
    const factor = lane.factor;
    // An answered call takes back part of the widening that refusals set.
    lane.factor = Math.max(1, lane.factor - NARROW);
    const first = lane.gate !== "open";
    const latestCount = receivedAt - (first ? 0 : (best ?? 0));
    // The next call, like this one, is counted at least the usual write delay after its dispatch.
    const usual = this.usualWrite(lane, interval);
    if (latestCount - usual - sentAt <= tolerance(interval, factor)) return;
    // The estimate itself is off by a millisecond or so: keep the spacing (half the margin over
    // the limit) from it.
    lane.floor = Math.max(lane.floor, latestCount - usual + spacing(interval, factor));
    lane.nextSlot = Math.max(lane.nextSlot, lane.floor);
  }
}
