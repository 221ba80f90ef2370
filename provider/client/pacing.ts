/**
 * Per-endpoint pacing: the service enforces a minimum interval between calls per endpoint and
 * per key (api-facts: Rate limits), and answers 429 without Retry-After when a call comes too
 * soon. Rather than provoke 429s, every request reserves the next free slot of its endpoint.
 *
 * Slots live in one process-wide registry, keyed by API URL, endpoint key and a hash of the API
 * key (never the key itself), so every client in the process (all the resources of a Pulumi
 * program run in one provider process) shares them. A caller reserves its slot synchronously,
 * so concurrent callers queue one interval apart instead of all waking at once.
 *
 * A slot only says when a caller may wake. A timer that fires late (a busy event loop) would
 * send that call late and the next one on time, closer together than the interval; so just
 * before sending, `dispatch` checks the actual spacing against the previous send and adds the
 * difference. Sends of one endpoint are thus never closer than its interval.
 *
 * The service counts a call when it admits it, somewhere between the send and the response.
 * A response slower than the fastest one seen on that endpoint (a first call on a cold
 * connection, a stall on either side) may mean a late admission, so `settled` then moves the
 * next send to one interval after the latest possible admission, less the margin the interval
 * already holds over the limit.
 */
import { createHash } from "node:crypto";

/** Minimum interval per endpoint key (`METHOD /route/{param}/`), ms. */
export type IntervalTable = Readonly<Record<string, number>>;

export interface PacingOptions {
  /** Overrides per endpoint key, for example `{"PUT /api/v0/instances/{id}/": 2000}`. */
  intervalsMs?: Record<string, number>;
  /** Interval for endpoints that have no entry of their own, ms. */
  defaultIntervalMs?: number;
}

const REGISTRY_SLOT = Symbol.for("pulumi-vastai.client.pacing-registry");
const SENT_SLOT = Symbol.for("pulumi-vastai.client.pacing-sent");
const FASTEST_SLOT = Symbol.for("pulumi-vastai.client.pacing-fastest");

/** The part of an interval that is margin over the service's limit (the defaults pace 10% slower). */
const MARGIN = 0.1;

/** A process-wide map kept on globalThis, so every copy of this module shares it. */
function shared(slot: symbol): Map<string, number> {
  const holder = globalThis as unknown as Record<symbol, Map<string, number> | undefined>;
  let map = holder[slot];
  if (!map) {
    map = new Map();
    holder[slot] = map;
  }
  return map;
}

/** The shared map from slot key to the earliest time the next call may start. */
function registry(): Map<string, number> {
  return shared(REGISTRY_SLOT);
}

/** The shared map from slot key to the time the last call was sent (or will be, after its extra wait). */
function sentAtMap(): Map<string, number> {
  return shared(SENT_SLOT);
}

/** The shared map from slot key to the fastest round trip seen, ms. */
function fastest(): Map<string, number> {
  return shared(FASTEST_SLOT);
}

/** A short, non-reversible tag of the API key, so slots are per key without storing it. */
export function keyTag(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("hex").slice(0, 16);
}

export class Pacer {
  private readonly scope: string;

  /**
   * @param apiUrl base URL the client talks to
   * @param apiKey the key; only its hash is kept
   * @param defaults built-in intervals per endpoint key
   * @param options user overrides, or false to turn pacing off
   */
  constructor(
    apiUrl: string,
    apiKey: string,
    private readonly defaults: { intervalsMs: IntervalTable; defaultIntervalMs: number },
    private readonly options: PacingOptions | false,
    private readonly now: () => number,
  ) {
    this.scope = `${apiUrl.replace(/\/+$/, "")}|${keyTag(apiKey)}`;
  }

  /** The interval that applies to an endpoint key, ms (0 when pacing is off). */
  intervalFor(endpointKey: string): number {
    if (this.options === false) return 0;
    const own = this.options.intervalsMs?.[endpointKey] ?? this.defaults.intervalsMs[endpointKey];
    return Math.max(0, own ?? this.options.defaultIntervalMs ?? this.defaults.defaultIntervalMs);
  }

  /**
   * Reserve the next free slot of `endpointKey` and return how long to wait for it, ms.
   * Returns null, reserving nothing, when the wait would exceed `maxWaitMs`.
   */
  reserve(endpointKey: string, maxWaitMs = Infinity): number | null {
    const interval = this.intervalFor(endpointKey);
    if (interval === 0) return 0;
    const key = `${this.scope}|${endpointKey}`;
    const slots = registry();
    const t = this.now();
    const slot = Math.max(t, slots.get(key) ?? -Infinity);
    const wait = slot - t;
    if (wait > maxWaitMs) return null;
    slots.set(key, slot + interval);
    return wait;
  }

  /**
   * Called just before sending a call whose reserved slot was `slot` (epoch ms): returns how
   * much longer to wait so that it goes out at least one interval after the previous send of
   * its endpoint, and records its send time. A caller that woke on time gets 0.
   */
  dispatch(endpointKey: string, slot: number): number {
    const interval = this.intervalFor(endpointKey);
    if (interval === 0) return 0;
    const key = `${this.scope}|${endpointKey}`;
    const sent = sentAtMap();
    // A caller never counts as earlier than its slot: with a clock that does not move while
    // sleeping (tests), it still is at its slot once its wait is over.
    const t = Math.max(this.now(), slot);
    const at = Math.max(t, (sent.get(key) ?? -Infinity) + interval);
    sent.set(key, at);
    const slots = registry();
    slots.set(key, Math.max(slots.get(key) ?? -Infinity, at + interval));
    return at - t;
  }

  /**
   * Called when the response to a call sent at `sentAt` arrived at `receivedAt` (not for a 429:
   * a refused call does not count). The call was admitted at the latest one fastest round trip
   * before the response (the endpoint's fastest, else the service's, else the response itself);
   * when that is later than its send by more than the margin, the next send keeps its interval
   * from there.
   */
  settled(endpointKey: string, sentAt: number, receivedAt: number): void {
    const interval = this.intervalFor(endpointKey);
    if (interval === 0) return;
    const key = `${this.scope}|${endpointKey}`;
    const rtt = receivedAt - sentAt;
    // Before an endpoint has a round trip of its own, the fastest of the service serves.
    const best = fastest().get(key) ?? fastest().get(this.scope);
    fastest().set(key, Math.min(fastest().get(key) ?? Infinity, rtt));
    fastest().set(this.scope, Math.min(fastest().get(this.scope) ?? Infinity, rtt));
    const latestAdmission = receivedAt - (best ?? 0);
    const at = latestAdmission - interval * (MARGIN / (1 + MARGIN));
    const sent = sentAtMap();
    if (at <= (sent.get(key) ?? -Infinity)) return;
    sent.set(key, at);
    const slots = registry();
    slots.set(key, Math.max(slots.get(key) ?? -Infinity, at + interval));
  }
}
