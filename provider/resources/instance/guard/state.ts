/**
 * How the engine agrees with the guard: who stopped an instance (`stoppedBy`), and whether it
 * has reached its deadline (`expired`), from what the service shows and what state holds.
 *
 * The service does not say who stopped an instance. What it shows: `intended_status` (what was
 * last asked for, by anyone holding a key for it: the program, the console, the guard with
 * `CONTAINER_API_KEY`) and `actual_status` (what the machine does); `is_bid`. State holds the
 * program's `targetState`, the guard's plan (`autostop`, `deadline`, `expireAction`) and the
 * schedule. The rule, first match wins:
 *
 * - running, or booting (`actual_status` null, created, loading), and asked to run: null;
 * - stopped in its schedule's off-hours at the losing bid: `schedule`;
 * - a bid stopped while asked to run (`is_bid`, `intended_status` running): `outbid`;
 * - `intended_status` stopped while the program's `targetState` is stopped: `program`;
 * - `intended_status` stopped, the deadline passed and `expireAction` stop: `ttl`;
 * - `intended_status` stopped, with an autostop whose action is stop: `autostop`;
 * - `intended_status` stopped otherwise: `outside` (the console, the vendor's client);
 * - anything else (dead, asked to run): null: the replace rule decides.
 *
 * An instance that is gone: past the deadline with `expireAction` destroy: `ttl` (it expired);
 * with an autostop whose action is destroy: `autostop`; else null (vanished: replaced as
 * before). A stop or destroy by hand of an instance that has a guard cannot be told from the
 * guard's own: it counts as the guard's.
 */
import type { Instance } from "../../../client";
import { Props } from "../../kit";
import { isOutbid } from "../bid";
import { scheduleState } from "../schedule";
import { normalizeStatus } from "../status";

export type StoppedBy = "autostop" | "ttl" | "schedule" | "outbid" | "program" | "outside";

/** Outputs the guard adds to an Instance (and `deadline` to a Fleet). */
export const GUARD_OUTPUT_KEYS = ["deadline", "stoppedBy", "expired"] as const;

const autostopAction = (props: Props): "stop" | "destroy" | undefined => {
  const a = props.autostop as { action?: unknown } | undefined | null;
  if (!a || typeof a !== "object") return undefined;
  return a.action === "destroy" ? "destroy" : "stop";
};

const expireActionOf = (props: Props): "stop" | "destroy" => (props.expireAction === "stop" ? "stop" : "destroy");

/** True once `props.deadline` (state) has passed. */
export function pastDeadline(props: Props, now: number): boolean {
  const at = typeof props.deadline === "string" ? Date.parse(props.deadline) : NaN;
  return Number.isFinite(at) && now >= at;
}

/** Who stopped the live `instance` (see above); null when it is not stopped. */
export function stoppedByOf(props: Props, instance: Instance, now: number): StoppedBy | null {
  const actual = normalizeStatus(instance.actualStatus);
  const intended = normalizeStatus(instance.intendedStatus);
  if (intended !== "stopped" && (actual === null || actual === "running" || actual === "created" || actual === "loading")) return null;
  if (scheduleState(props, instance, now) === "off") return "schedule";
  if (isOutbid(instance)) return "outbid";
  if (intended !== "stopped") return null;
  if (props.targetState === "stopped") return "program";
  if (pastDeadline(props, now) && expireActionOf(props) === "stop") return "ttl";
  if (autostopAction(props) === "stop") return "autostop";
  return "outside";
}

/** Who removed an instance the service no longer has: `ttl`, `autostop`, or null (vanished). */
export function goneBy(props: Props, now: number): "ttl" | "autostop" | null {
  if (pastDeadline(props, now) && typeof props.deadline === "string" && expireActionOf(props) === "destroy") return "ttl";
  if (autostopAction(props) === "destroy") return "autostop";
  return null;
}

/** Stopped by its own guard: the engine neither restarts nor replaces it (unless `wake` changes). */
export const byGuard = (s: StoppedBy | "ttl" | "autostop" | null): boolean => s === "autostop" || s === "ttl";

/** The guard outputs of a live instance. */
export function guardOutputs(props: Props, instance: Instance, now: number): Props {
  if (typeof props.deadline !== "string" && !props.autostop) return { stoppedBy: stoppedByOf(props, instance, now) };
  return { stoppedBy: stoppedByOf(props, instance, now), expired: pastDeadline(props, now) };
}

/** What the engine says of an instance its guard destroyed (kept in state, not re-created). */
export function retiredMessage(id: string, props: Props, by: "ttl" | "autostop"): string {
  return by === "ttl"
    ? `Instance ${id} expired at ${String(props.deadline)} (ttl/expiresAt): its guard destroyed it, and it is not re-created. ` +
        "Change ttl or expiresAt to rent it again, or remove the resource"
    : `Instance ${id} was destroyed by its autostop (action destroy) and is not re-created. Change wake to rent it again, or remove the resource`;
}
