/**
 * Diff of the Instance resource. `olds` is the state entry (inputs and outputs together), so
 * only input properties are compared. An instance cannot change its offer, ports, disk, volume,
 * run type or VM flag: those replace it. Its template, image, environment, start script and
 * arguments change in place (the container is recreated on the same machine, inplace.ts)
 * unless `updatePolicy` is "replace"; the label and the running/stopped state change in place;
 * sshKeyIds are attached and detached in place (ssh-keys.ts); the create settings (waiting,
 * attempts) are recorded without a call.
 *
 * When no input forces a replacement, the live status is consulted through the shared reader
 * (one list walk serves every instance diffed at once): an instance that is exited, unknown or
 * offline never runs again, and one that is gone cannot be updated, so both are replaced by the
 * next `pulumi up` without a separate refresh; except an instance stopped by its own `schedule`
 * in its off-hours (schedule.ts), which is left as it is. A diff never writes.
 */
import type * as pulumi from "@pulumi/pulumi";
import { Props, deepEqual } from "../kit";
import { ACTION_KEYS } from "./actions";
import { bidKindChanged, outbidDiff } from "./bid";
import { RECORDED_WHEN_IMPORTED, isImported } from "./adopt";
import { TEMPLATE_KEYS, templateReplaces } from "./inplace";
import { INPUT_KEYS } from "./inputs";
import { hasOffBid, scheduleOf, scheduleState } from "./schedule";
import { readStatus } from "./status";
import { offHoursRunning, warnOffHours } from "./off-hours";
import { liveInstances } from "./live";
import { currentTiming, warnOnce } from "../kit";
import { naming, type ShownDiff } from "../kit/diff-reasons";
import { DEADLINE_KEYS, GUARD_KEYS } from "./guard/inputs";
import { byGuard, goneBy, pastDeadline, retiredMessage, stoppedByOf } from "./guard/state";

/** Inputs whose change replaces the instance (TEMPLATE_KEYS too under `updatePolicy: "replace"`). */
export const REPLACE_KEYS: readonly string[] = [
  "offerId", "offer", "ports", "volume", "diskGb", "runtype", "ssh", "jupyter", "vm",
  // The update endpoint does not take a registry login (the vendor's client sends none there).
  "imageLogin",
];

/** Inputs that change in place: label, targetState and sshKeyIds by a call, the rest are only recorded. */
export const IN_PLACE_KEYS: readonly string[] = [
  "label", "targetState", "sshKeyIds", "waitForRunning", "runningTimeoutMinutes", "maxCreateAttempts",
  // bid.ts, actions.ts (a bid added or removed replaces: see diffOfInputs).
  "bidPricePerHour", "onOutbid", "maxBidPricePerHour", "cancelUnavailable", "readiness", ...ACTION_KEYS,
  // schedule.ts: its jobs are written, changed and cancelled in place.
  "schedule",
  // guard/: the guard is part of the start command, recreated in place as onstart is; wake starts.
  ...GUARD_KEYS, "wake",
  // inplace.ts: recreated on the same machine by the update endpoint; the policy is recorded.
  ...TEMPLATE_KEYS, "updatePolicy",
  // adopt.ts: a later change of importId is recorded only.
  "importId",
];

const hasFilters = (props: Props) => props.offer !== undefined && props.offer !== null;

/**
 * A replacement rents the same given offer again: the old instance holds it until it is
 * destroyed (a rented offer is taken: the service answers 404 no_such_ask), so the old one
 * goes first.
 */
const sameOfferAgain = (olds: Props, news: Props) => typeof news.offerId === "number" && !hasFilters(news) && news.offerId === olds.offerId;

/** The input properties that differ, sorted. */
export function changedInputs(olds: Props, news: Props): string[] {
  const changed = INPUT_KEYS.filter((key) => {
    // In state, `offerId` is the offer actually rented; it was an input only without filters.
    if (key === "offerId") {
      if (news.offerId === undefined) return false;
      return hasFilters(olds) || !deepEqual(olds.offerId, news.offerId);
    }
    return !deepEqual(olds[key], news[key]);
  });
  return changed.sort();
}

/** An instance's `volume` without `keepOnDestroy`, which changes nothing on the service. */
function volumeShape(volume: unknown): unknown {
  if (volume === null || typeof volume !== "object") return volume;
  const { keepOnDestroy: _kept, ...shape } = volume as Record<string, unknown>;
  return shape;
}

/** Input-only diff (no API call). */
export function diffOfInputs(olds: Props, news: Props): pulumi.dynamic.DiffResult {
  const changed = changedInputs(olds, news);
  // An imported instance was rented outside the program: how to rent it is recorded only.
  const recorded = isImported(olds) ? RECORDED_WHEN_IMPORTED : [];
  // `volume.keepOnDestroy` says only what the delete does: recorded in place.
  const inPlace = (k: string) => k === "volume" && deepEqual(volumeShape(olds.volume), volumeShape(news.volume));
  const replaces = changed.filter(
    (k) => !recorded.includes(k) && !inPlace(k) && (REPLACE_KEYS.includes(k) || (k === "bidPricePerHour" && bidKindChanged(olds, news))),
  );
  replaces.push(...templateReplaces(changed, news, olds));
  // The guard rides in the start command: under updatePolicy "replace", or once the service
  // refused to recreate the container, a change of it replaces as an onstart change does.
  const startCommand = templateReplaces([...changed.filter((k) => GUARD_KEYS.includes(k)).map(() => "onstart")], news, olds).length > 0;
  if (startCommand) replaces.push(...changed.filter((k) => GUARD_KEYS.includes(k)));
  replaces.sort();
  return { changes: changed.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 && sameOfferAgain(olds, news) };
}

/**
 * Why the live instance must be replaced, as the property to name; "update" when an outbid
 * instance is to be rebid in place (bid.ts); undefined when it is fine.
 */
export async function liveReplacement(id: string, props: Props = {}, olds: Props = {}): Promise<string | undefined> {
  if (!/^\d+$/.test(id)) return undefined;
  const instance = await liveInstances().get(id);
  const now = currentTiming().now();
  // What the guard did is judged by the plan it carries: the state's (guard/state.ts).
  const carried = { ...props, autostop: olds.autostop, deadline: olds.deadline, expireAction: olds.expireAction };
  if (!instance) {
    // Destroyed by its own guard: not rented again until the deadline or wake changes.
    const by = goneBy(carried, now);
    if (by && !retiredChanged(olds, props, by)) {
      warnOnce(`instance ${id} retired`, retiredMessage(id, olds, by));
      return "retired";
    }
    return by === "ttl" ? (DEADLINE_KEYS.find((k) => !deepEqual(olds[k], props[k])) ?? "wake") : by === "autostop" ? "wake" : "instanceId";
  }
  // Stopped by its own guard: neither dead nor to be started (unless wake changes: an update).
  if (byGuard(stoppedByOf(carried, instance, now))) return undefined;
  // Past its deadline and still there: the guard did not act (its process killed, no shell or
  // HTTP tool in the image). The engine says so; `pulumi destroy` or a new deadline settles it.
  const by = stoppedByOf(carried, instance, now);
  if (pastDeadline(carried, now) && by === null) {
    warnOnce(
      `instance ${id} overdue`,
      `Instance ${id} is past its deadline ${String(olds.deadline)} and still runs: its guard did not act (its process killed, or no shell or HTTP tool ` +
        "in the image; see its log in the container). It keeps billing until it is destroyed: run `pulumi destroy`, or set a new ttl or expiresAt",
    );
  }
  // Stopped by its own schedule in its off-hours: neither dead nor outbid (schedule.ts). Still at
  // the losing bid in its on-hours, or with its schedule removed: the update sends the declared bid.
  const scheduled = scheduleState(props, instance) ?? (scheduleOf(olds) && !scheduleOf(props) && hasOffBid(instance) ? "late" : undefined);
  if (scheduled === "off") return undefined;
  if (scheduled === "late") return "update";
  if (readStatus(id, instance.actualStatus).kind === "dead") return "actualStatus";
  return outbidDiff(props, instance);
}

/**
 * Running in its off-hours past the grace period (off-hours.ts): warned with the cost so far and
 * shown as a change, so an `up` without a refresh reports it too (the update writes the
 * schedule's jobs again where they differ).
 */
async function runsInOffHours(id: string, news: Props): Promise<boolean> {
  if (!scheduleOf(news) || !/^\d+$/.test(id)) return false;
  const instance = await liveInstances().get(id);
  const running = instance ? offHoursRunning(news, instance) : undefined;
  if (running) warnOffHours(id, running);
  return running !== undefined;
}

/** Whether the program asks to rent again an instance its guard destroyed: a new deadline, or wake. */
function retiredChanged(olds: Props, news: Props, by: "ttl" | "autostop"): boolean {
  const woken = news.wake !== undefined && news.wake !== null && !deepEqual(olds.wake, news.wake);
  return woken || (by === "ttl" && DEADLINE_KEYS.some((k) => !deepEqual(olds[k], news[k])));
}

/**
 * A change of the guard is a change of the container's start command, which cannot change while
 * it runs: the diff says so (through the engine log), with what the update or replacement does.
 */
function sayWhyGuardChanges(id: string, olds: Props, news: Props, result: pulumi.dynamic.DiffResult): void {
  const changed = GUARD_KEYS.filter((k) => !deepEqual(olds[k], news[k]));
  if (changed.length === 0) return;
  const replaced = changed.some((k) => result.replaces?.includes(k));
  warnOnce(
    `instance ${id} guard ${JSON.stringify(changed.map((k) => news[k]))}`,
    `Instance ${id}: ${changed.join(", ")} changed; the guard runs in the container's start command, which cannot change while it runs, so ` +
      (replaced
        ? `the instance is replaced (${news.updatePolicy === "replace" ? 'updatePolicy "replace"' : "the service refused to recreate its container in place"})`
        : "the update recreates the container on the same machine with the new guard (the GPU stays rented; processes in the container restart)"),
  );
}

export async function diffInstance(id: string, olds: Props, news: Props): Promise<ShownDiff> {
  const result = diffOfInputs(olds, news);
  // An instance its guard destroyed stays as it is whatever else changed (guard/state.ts).
  const by = typeof olds.deadline === "string" || olds.autostop ? goneBy(olds, currentTiming().now()) : null;
  if (by && olds.actualStatus === null && olds.stoppedBy === by && !retiredChanged(olds, news, by)) {
    warnOnce(`instance ${id} retired`, retiredMessage(id, olds, by));
    return { changes: false, replaces: [], deleteBeforeReplace: false };
  }
  sayWhyGuardChanges(id, olds, news, result);
  if (result.replaces && result.replaces.length > 0) return result;
  let reason: string | undefined;
  try {
    reason = await liveReplacement(id, news, olds);
  } catch (error) {
    throw new Error(`Instance ${id}: the diff could not read the live status: ${(error as Error).message}`, { cause: error });
  }
  if (!reason) return (await runsInOffHours(id, news)) ? { ...result, changes: true } : result;
  if (reason === "retired") return { changes: false, replaces: [], deleteBeforeReplace: false };
  if (reason === "update") return { ...result, changes: true };
  // Named in the engine's line (`[diff: ~actualStatus]`, kit/diff-reasons.ts) with the inputs changed beside it.
  return naming({ changes: true, replaces: [reason], deleteBeforeReplace: sameOfferAgain(olds, news) }, [...changedInputs(olds, news), reason]);
}
