/**
 * A Fleet and its members' guards (instance/guard/): every member carries the fleet's guard,
 * with one deadline for all, fixed at the fleet's create (kept while `ttl` is unchanged).
 *
 * - A member its guard stopped (autostop, or the deadline with `expireAction: "stop"`) is not
 *   dead: it is kept as it is, not healed back, not restarted.
 * - A change of `wake` starts the members their guard stopped (counted by `maxHourlyCost`).
 * - After the deadline the fleet rents nothing: members their guards destroyed are not replaced,
 *   the rest are left to their guards; `expired` says so, and a warning. A new deadline (a change
 *   of `ttl` or `expiresAt`) makes the next `up` rent again.
 */
import type { Instance } from "../../client";
import { Props, deepEqual, warnOnce } from "../kit";
import { deadlineOf } from "../instance/guard/inputs";
import { byGuard, pastDeadline, stoppedByOf, type StoppedBy } from "../instance/guard/state";

/** `news` with the fleet's deadline (none without ttl or expiresAt). */
export function withFleetDeadline(olds: Props, news: Props, now: number): Props {
  const deadline = deadlineOf(olds, news, now);
  const out: Props = { ...news, deadline };
  if (deadline === undefined) delete out.deadline;
  return out;
}

/** Who stopped a member (the fleet always asks its members to run). */
export function memberStoppedBy(props: Props, live: Instance, now: number): StoppedBy | null {
  return stoppedByOf({ ...props, targetState: "running", schedule: undefined }, live, now);
}

/** Stopped by its own guard: kept, never healed. */
export function stoppedByGuard(props: Props, live: Instance, now: number): boolean {
  return byGuard(memberStoppedBy(props, live, now));
}

/** Past the fleet's deadline: nothing is rented (a warning says so, once per process). */
export function fleetExpired(id: string, props: Props, now: number): boolean {
  if (!pastDeadline(props, now)) return false;
  warnOnce(
    `fleet ${id} expired`,
    `Fleet ${id} expired at ${String(props.deadline)} (ttl/expiresAt): its members' guards stop or destroy them, and the fleet rents none again. ` +
      "Change ttl or expiresAt to rent again, or remove the resource",
  );
  return true;
}

/** `wake` changed (to a value): the members their guard stopped are started again. */
export function wakeChanged(olds: Props | undefined, news: Props): boolean {
  return !!olds && news.wake !== undefined && news.wake !== null && !deepEqual(olds.wake, news.wake);
}
