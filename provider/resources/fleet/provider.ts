/** The Fleet provider: check, diff, create, read, update, delete (the class is in index.ts). */
import { getClient } from "../../context";
import { PartialFailure, ProviderImpl, Props, currentTiming, deepEqual, jsonClean, userInputs } from "../kit";
import { readStatus } from "../instance/status";
import { FLEET_INPUT_KEYS, SPEC_KEYS, checkFleetInputs, typedFleetInputs, type FleetInputs } from "./inputs";
import { SPEC_KEY, destroyMember, fleetKeyOf, markerValue, newSpecKey, refreshed, specOf, withSpecKey, type Member } from "./members";
import { probeMembers } from "./health";
import { FLEET_OUTPUT_KEYS, fleetOutputs, liveBadHosts, storedMembers } from "./outputs";
import { ownKeyLabel, readMembers, sweep, sweptLabels } from "./listing";
import { reconcile } from "./reconcile";
import { deleteMemberVolume, volumeIdOf, volumeIdsByInstance } from "./volumes";
import { joinOverlay, membersOffOverlay, requireOverlay } from "./overlay";
import { instanceKey, spentUsd, unixOf, volumeKey } from "../kit/costs";
import { guardFailures } from "../instance/guard/inputs";
import { naming, type ShownDiff } from "../kit/diff-reasons";
import { fleetExpired, memberStoppedBy, withFleetDeadline } from "./guard";

/**
 * Members as the shared reader sees them (by id, listing.ts), each probed once
 * with readiness (health.ts); gone ones are dropped, except those whose volume the fleet still
 * has to delete (kept, status gone).
 */
async function liveMembers(
  members: Member[],
  inputs: FleetInputs,
  ownLabel?: string,
  plan: Props = {},
): Promise<{ members: Member[]; dead: number; gone: number; unready: number; since: number | undefined }> {
  const client = getClient();
  const byId = await readMembers(client, members.map((m) => m.id), ownLabel);
  let dead = 0;
  let gone = 0;
  const out: Member[] = [];
  for (const m of members) {
    const live = byId.get(m.id);
    if (!live) {
      gone++;
      if (volumeIdOf(m) !== null) out.push({ ...m, status: "gone", sshHost: null, sshPort: null });
      continue;
    }
    // Stopped by its own guard (autostop, or its deadline): not dead, not healed (guard.ts).
    const stoppedBy = memberStoppedBy(plan, live, currentTiming().now());
    if (readStatus(m.id, live.actualStatus).kind === "dead" && stoppedBy !== "autostop" && stoppedBy !== "ttl") dead++;
    out.push({ ...refreshed(m, live), ...(plan.autostop || plan.deadline ? { stoppedBy } : {}) });
  }
  const probed = await probeMembers(out, byId, inputs);
  const unready = probed.filter((m) => m.status === "running" && m.ready === false).length;
  const starts = [...byId.values()].map((i) => i.startDate).filter((s): s is number => typeof s === "number" && s > 0);
  return { members: probed, dead, gone, unready, since: starts.length > 0 ? Math.min(...starts) : undefined };
}

function storedInputs(props: Props): Props {
  const out: Props = {};
  for (const key of FLEET_INPUT_KEYS) if (props[key] !== undefined) out[key] = props[key];
  return out;
}

/**
 * `spentUsd` of the fleet: its members' and their volumes' charges (kit/costs.ts), counted
 * from `spendSince` (the fleet's creation, or its oldest member's start when state has none);
 * returns both outputs.
 */
async function fleetSpend(id: string, members: readonly Member[], since: number | undefined, previous: Props): Promise<Props> {
  const keys = members.flatMap((m) => {
    const volume = volumeIdOf(m);
    return [instanceKey(m.id), ...(volume === null ? [] : [volumeKey(volume)])];
  });
  const stored = unixOf(previous.spendSince);
  const from = stored !== undefined && since !== undefined ? Math.min(stored, since) : (stored ?? since);
  return { spentUsd: await spentUsd(getClient(), `Fleet ${id}`, keys, from, previous.spentUsd), spendSince: from };
}

/** Members join the fleet's overlay once they run; a failed join keeps the members in state (the next up joins). */
async function joinOrKeep(fleetKey: string, inputs: Props, outs: Props): Promise<void> {
  try {
    await joinOverlay(getClient(), inputs.overlay, outs);
  } catch (error) {
    throw new PartialFailure((error as Error).message, fleetKey, inputs, outs);
  }
}

/** An update the members need (healed, grown, rolled, joined), with no input changed. */
const membersChange = (): ShownDiff => naming({ changes: true, replaces: [], deleteBeforeReplace: false }, ["members"]);

export const provider: ProviderImpl = {
  async check(olds, news) {
    const checked = checkFleetInputs(news, FLEET_OUTPUT_KEYS);
    return { ...checked, failures: [...(checked.failures ?? []), ...guardFailures(olds, news, currentTiming().now())] };
  },

  async diff(id, olds, news): Promise<ShownDiff> {
    const changed = FLEET_INPUT_KEYS.filter((k) => !deepEqual(olds[k], news[k]));
    if (changed.length > 0) return { changes: true, replaces: [], deleteBeforeReplace: false };
    // Past its deadline the fleet rents nothing: nothing to heal or grow (guard.ts).
    if (fleetExpired(id, olds, currentTiming().now())) return { changes: false, replaces: [], deleteBeforeReplace: false };
    const members = storedMembers(olds);
    const inputs = typedFleetInputs(news);
    // Changes found on the service name `members` (kit/diff-reasons.ts): the engine prints `[diff: ~members]`.
    if (members.length !== inputs.count) return membersChange();
    // Members an unfinished roll left with other inputs are rolled by the next update.
    const spec = specOf({ ...news, [SPEC_KEY]: olds[SPEC_KEY] }, SPEC_KEYS);
    if (members.some((m) => m.spec !== spec)) return membersChange();
    let live;
    try {
      live = await liveMembers(members, inputs, ownKeyLabel(olds, id), { ...news, deadline: olds.deadline });
    } catch (error) {
      throw new Error(`Fleet ${id}: the diff could not read the members' status: ${(error as Error).message}`, { cause: error });
    }
    // A dead or vanished member is healed by the update; an unready one is probed again there
    // until the readiness deadline, then replaced (health.ts).
    if (live.dead + live.gone + live.unready > 0) return membersChange();
    // A running member off the fleet's overlay (a join that failed) is joined by the update.
    const offOverlay = await membersOffOverlay(getClient(), news.overlay, { members: live.members });
    return offOverlay ? membersChange() : { changes: false, replaces: [], deleteBeforeReplace: false };
  },

  async create(given) {
    const fleetKey = fleetKeyOf(given);
    const createdAt = Math.floor(currentTiming().now() / 1000);
    // One deadline for every member, fixed now (guard.ts).
    const inputs = withFleetDeadline({}, { ...given, [SPEC_KEY]: newSpecKey() }, createdAt * 1000);
    await requireOverlay(getClient(), given.overlay, given.offer);
    const outs = await reconcile(getClient(), fleetKey, inputs);
    await joinOrKeep(fleetKey, inputs, outs);
    const spend = await fleetSpend(fleetKey, storedMembers(outs), createdAt, {});
    return { id: fleetKey, outs: jsonClean({ ...userInputs(inputs), ...inputs, ...outs, ...spend }) as Props };
  },

  async read(id, props) {
    const { members, since } = await liveMembers(storedMembers(props), typedFleetInputs(props), ownKeyLabel(props, id), props);
    const outs = fleetOutputs(id, members, liveBadHosts(props.badHosts, currentTiming().now()));
    if (typeof props.deadline === "string") outs.expired = fleetExpired(id, props, currentTiming().now());
    const all = jsonClean({ ...props, ...outs, ...(await fleetSpend(id, members, since, props)) }) as Props;
    return { id, props: all, inputs: storedInputs(all) };
  },

  async update(id, stored, given) {
    // State of an earlier release gets its key here, its members' digests moved to it (no roll).
    const olds = withSpecKey(stored, SPEC_KEYS);
    const news = withFleetDeadline(olds, { ...given, [SPEC_KEY]: olds[SPEC_KEY] }, currentTiming().now());
    await requireOverlay(getClient(), given.overlay, given.offer);
    const outs = await reconcile(getClient(), id, news, olds);
    await joinOrKeep(id, news, outs);
    return { outs: jsonClean({ ...news, ...outs, ...(await fleetSpend(id, storedMembers(outs), undefined, olds)) }) as Props };
  },

  async delete(id, props) {
    const client = getClient();
    const members = storedMembers(props);
    // The members' volumes go after their instances; those of instances found by marker alone
    // (and of members whose volume id was not learnt) are found in the volume list first.
    const volumes = props.volume || members.some((m) => volumeIdOf(m) !== null) ? await volumeIdsByInstance(client) : new Map<number, number>();
    // By instance: a member whose first destroy failed and whose second (in the sweep) succeeded is gone.
    const failures = new Map<number, string>();
    const volumeFailures = new Map<number, string>();
    const destroyed = new Set<number>();
    const destroy = async (instanceId: number, offerId?: number, volumeId: number | null = null) => {
      try {
        await destroyMember(client, instanceId, offerId);
        destroyed.add(instanceId);
        failures.delete(instanceId);
      } catch (error) {
        failures.set(instanceId, (error as Error).message);
        return;
      }
      const volume = volumeId ?? volumes.get(instanceId);
      if (volume === undefined) return;
      try {
        await deleteMemberVolume(client, volume, instanceId);
        volumeFailures.delete(volume);
      } catch (error) {
        volumeFailures.set(volume, (error as Error).message);
      }
    };
    // Members a run made but never recorded (killed mid-update) carry the fleet's key and label
    // too: they are listed (by label, listing.ts) before anything is destroyed, so that a listing
    // that fails leaves every member live and in state (a failed delete keeps the state it had),
    // never gone members in state.
    const all = await sweep(client, sweptLabels(id, props), `${id}.`, markerValue);
    for (const m of members) await destroy(m.id, m.offerId, volumeIdOf(m));
    // A member whose destroy failed above is tried once more.
    for (const i of all) if (!destroyed.has(i.id)) await destroy(i.id);
    const problems = [...failures.values(), ...volumeFailures.values()];
    if (problems.length > 0) throw new Error(`Fleet ${id}: ${problems.join("; ")}; run \`pulumi destroy\` again`);
  },
};
