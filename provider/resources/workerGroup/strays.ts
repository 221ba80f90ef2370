/**
 * Late creates of serverless objects. A create whose answer was lost and that the look-up
 * window did not find is sent again; the lost request may still land afterwards, leaving a
 * second endpoint or group (with workers billing) that no state holds. Endpoints and groups
 * carry no marker, so the create records in state what it needs to recognise such a stray:
 * the ids that matched before it sent, and how many sends were lost (`lostCreates`). The next
 * read or update deletes (with their workers) at most that many matching objects that are not
 * the resource's own and were not there before, the earliest first (a sibling made later with
 * the same settings has a later id), made at most LATE_WINDOW_MS after the resource's own
 * object (a lost request lands within the service's request timeout; a sibling made in a later
 * run does not qualify), and keeps watching for the ones not seen yet.
 */
import type { Props } from "../kit";

export const LOST_CREATES_KEY = "lostCreates";
/** How long after the resource's own object a stray may have been made. */
export const LATE_WINDOW_MS = 15 * 60_000;

/** An object like the resource's own: its id and when the service made it (ISO), if shown. */
export interface Candidate {
  id: number;
  createdAt?: string | null;
}

export interface LostCreates {
  /** Ids of matching objects that existed before the create sent. */
  before: number[];
  /** Sends whose answers were lost and whose objects were not found. */
  count: number;
}

/** Counts the lost sends of one create whose look-up found nothing. */
export class LostSendLog {
  count = 0;
  constructor(readonly before: ReadonlySet<number>) {}

  /** Wraps a look-up: a send it does not find is counted. */
  async found<T>(lookup: Promise<T | undefined>): Promise<T | undefined> {
    const found = await lookup;
    if (found === undefined) this.count++;
    return found;
  }

  /** The outputs to add to the created object's state. */
  outputs(): Props {
    return this.count > 0 ? { [LOST_CREATES_KEY]: { before: [...this.before].sort((a, b) => a - b), count: this.count } } : {};
  }
}

export function lostCreatesOf(props: Props): LostCreates | undefined {
  const v = props[LOST_CREATES_KEY] as Partial<LostCreates> | undefined;
  if (!v || typeof v !== "object" || typeof v.count !== "number" || v.count <= 0 || !Array.isArray(v.before)) return undefined;
  return { before: v.before.filter((x): x is number => typeof x === "number"), count: v.count };
}

/**
 * Deletes the strays among `matching` (ids of objects like this one) with `remove`, per the
 * rule above; returns the state's new `lostCreates` (undefined once every lost send is found).
 */
export async function sweepStrays(
  own: Candidate,
  watch: LostCreates,
  matching: readonly Candidate[],
  remove: (id: number) => Promise<void>,
): Promise<LostCreates | undefined> {
  const before = new Set(watch.before);
  const ownAt = Date.parse(own.createdAt ?? "");
  const inWindow = (c: Candidate) => {
    const at = Date.parse(c.createdAt ?? "");
    return Number.isNaN(at) || Number.isNaN(ownAt) || at - ownAt <= LATE_WINDOW_MS;
  };
  const strays = matching
    .filter((c) => c.id !== own.id && !before.has(c.id) && inWindow(c))
    .map((c) => c.id)
    .sort((a, b) => a - b)
    .slice(0, watch.count);
  for (const id of strays) await remove(id);
  const count = watch.count - strays.length;
  return count > 0 ? { before: watch.before, count } : undefined;
}
