/**
 * In-place rolls: when only inputs Instance updates in place changed (its TEMPLATE_KEYS:
 * templateHashId, image, env, onstart, argsStr), a member keeps its instance and machine and
 * its container is recreated through the service's update endpoint (instance/inplace.ts), so
 * the GPU stays rented. Any other changed input (offer, ports, diskGb, runtype), or
 * `updatePolicy: "replace"`, rolls by replacement.
 *
 * Which inputs changed is known only for a member made with the inputs in state (its spec is
 * that of the state's inputs); a member left with other inputs by an earlier, unfinished roll
 * is replaced.
 *
 * How many at once: a member being updated does not run (its container boots again), and no
 * spare can stand in for it, as a replacement's new member does. So a roll updates at most
 * (healthy members - minHealthy) at once. With minHealthy = count (the default) there is no
 * such room: rather than dip below minHealthy, the roll first makes one new member with the new
 * inputs, updates the others one at a time beside it, and destroys the last old member at the
 * end (it is the one the new member replaces). So minHealthy is never broken, at the price of
 * one member moving machine; minHealthy = count - 1 keeps every machine.
 *
 * A member whose update the service refuses (nothing changed on it) is replaced instead, as an
 * Instance falls back to a replacement.
 */
import type { VastClient } from "../../client";
import { Props, deepEqual } from "../kit";
import { InPlaceRefusedError, TEMPLATE_KEYS, applyTemplateUpdate } from "../instance/inplace";
import { MARKER_ENV } from "../instance/inputs";
import { GUARD_KEYS } from "../instance/guard/inputs";
import { guardedSides } from "../instance/guard/start";
import { currentApiUrl } from "../../context";
import { SPEC_KEYS } from "./inputs";
import { type Member, specOf } from "./members";

/**
 * True when `member` can take the change from `olds` to `news` in place: it was made with the
 * inputs in state, and only template inputs changed.
 */
export function updatableInPlace(member: Member, olds: Props | undefined, news: Props): boolean {
  if (!olds || news.updatePolicy === "replace" || member.spec !== specOf(olds, SPEC_KEYS)) return false;
  const changed = SPEC_KEYS.filter((k) => !deepEqual(olds[k] ?? null, news[k] ?? null));
  // The guard is part of the start command (instance/guard/): recreated in place as onstart is.
  return changed.length > 0 && changed.every((k) => TEMPLATE_KEYS.includes(k) || GUARD_KEYS.includes(k));
}

/**
 * Members updated at once, given the healthy ones now: at most healthy - minHealthy (0 when
 * there is no room: the caller makes a spare first).
 */
export function inPlaceBatch(healthy: number, minHealthy: number, left: number): number {
  return Math.max(0, Math.min(left, healthy - minHealthy));
}

/**
 * Sends the in-place update of `member`: "sent" when its container is being recreated, else the
 * service's reason for refusing (nothing changed on it). Other failures throw.
 */
export async function updateMember(client: VastClient, member: Member, olds: Props, news: Props): Promise<"sent" | { refused: string }> {
  try {
    // The member's own marker stays in its env (updateBody adds it to a changed env).
    const [oldStart, newStart] = await guardedSides(client, { ...olds, marker: member.marker }, news, currentApiUrl());
    await applyTemplateUpdate(client, member.id, oldStart, newStart, MARKER_ENV);
    return "sent";
  } catch (error) {
    if (error instanceof InPlaceRefusedError) return { refused: error.reason };
    // Not a refusal (the service unreachable, the instance gone): it says which instance failed.
    throw error;
  }
}
