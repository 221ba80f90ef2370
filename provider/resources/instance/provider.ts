/** The Instance provider: check, diff, create, read, update, delete (the class is in index.ts). */
import { scrub, type Instance, type VastClient } from "../../client";
import { currentApiUrl, getClient } from "../../context";
import { PartialFailure, ProviderImpl, Props, currentTiming, deepEqual, jsonClean, release, userInputs } from "../kit";
import { applyActions, balanceOutput } from "./actions";
import { applyBid, isOutbid, outbidAtBoot, policyOf } from "./bid";
import { describeOutcome, waitForRunning } from "./boot";
import { createInstance } from "./create";
import { importInstance, rebuiltInputs } from "./adopt";
import { diffInstance } from "./diff";
import { InPlaceRefusedError, REFUSED_KEY, applyTemplateUpdate, reflectTemplate } from "./inplace";
import { announceCreate } from "./earlier-runs";
import { MARKER_ENV, checkInstanceInputs, typedInputs } from "./inputs";
import { OUTPUT_KEYS, liveOutputs, storedInputs, storedOutputs } from "./outputs";
import { liveInstances } from "./live";
import { ScheduleSyncError, bidLeftToSchedule, cancelSchedule, hasSchedule, reflectSchedule, scheduleOf, scheduleState, syncSchedule } from "./schedule";
import { liveScheduledJobs } from "../kit/scheduled-calls";
import { offHoursRunning, reflectOffHours } from "./off-hours";
import { sweepLateCreates } from "./rent";
import { hourlyCostOf, instanceCostParts, instanceKey, spentUsd, unixOf } from "../kit/costs";
import { stackBudget, withinStackBudget } from "../kit/stack-budget";
import { applySshKeys } from "./ssh-keys";
import { GUARD_KEYS, deadlineOf, guardFailures, planOf, withGuard } from "./guard/inputs";
import { byGuard, goneBy, guardOutputs, stoppedByOf } from "./guard/state";
import { guardedSides } from "./guard/start";
import { deleteInstanceVolume, volumeIdsByInstance } from "../kit/instance-volumes";

function instanceNumber(id: string): number {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`Instance: id "${id}" is not an instance id`);
  return n;
}

/** State from a live record: live outputs, and drift of the properties that change in place. */
function reflect(props: Props, instance: Instance): Props {
  // Template, image, env, onstart as the service shows them (inplace.ts), for drift; with a
  // guard the service shows the guarded start command, which is compared as sent.
  const drift = reflectTemplate(withGuard(props, currentApiUrl()), instance);
  // Without an onstart of its own (the template's runs), none is compared, as without a guard.
  if (props.onstart === undefined || props.onstart === null) delete drift.onstart;
  const guard = guardOutputs(props, instance, currentTiming().now());
  const outs: Props = { ...props, ...liveOutputs(instance, props), ...drift, ...guard };
  // Only a label the program manages is compared; the service may label instances itself.
  if (typeof props.label === "string") outs.label = instance.label ?? "";
  // Stopped by its own guard: the program's targetState stands (the next up does not start it).
  const guardStopped = byGuard(guard.stoppedBy as ReturnType<typeof stoppedByOf>);
  if (!guardStopped && (instance.intendedStatus === "running" || instance.intendedStatus === "stopped")) outs.targetState = instance.intendedStatus;
  if (scheduleOf(props)) outs.scheduledOff = scheduleState(props, instance) === "off";
  return outs;
}

/** The schedule as its jobs show it (schedule.ts), for drift; a read with no schedule lists nothing. */
async function reflectJobs(props: Props): Promise<Props> {
  if (!scheduleOf(props)) return {};
  const live = await liveScheduledJobs().list();
  return { schedule: reflectSchedule(props, live, currentTiming().now()) };
}

/** `wake` changed: the instance its guard stopped is started (guard/inputs.ts). */
async function applyWake(client: VastClient, id: number, olds: Props, news: Props): Promise<boolean> {
  if (news.wake === undefined || news.wake === null || deepEqual(olds.wake, news.wake) || news.targetState === "stopped") return false;
  // Under the stack's budget (kit/stack-budget.ts) the start must fit: it adds the running price
  // less what the stopped instance costs now (its disk).
  const added = stackBudget() === undefined ? 0 : await startingCost(client, id);
  await withinStackBudget(client, typeof olds.marker === "string" ? olds.marker : "", `Instance ${id}: starting it again (wake)`, added, () => client.instances.start(id), () => ({ instance: id }));
  return true;
}

/** $/hour a start adds: the running price less the instance's cost now. */
async function startingCost(client: VastClient, id: number): Promise<number | undefined> {
  const live = await client.instances.get(id);
  if (!live) return undefined;
  const parts = instanceCostParts(live);
  return Math.max(0, parts.pricePerHour - hourlyCostOf(parts));
}

async function applyInPlace(client: VastClient, id: number, olds: Props, news: Props): Promise<boolean> {
  let stateChanged = false;
  if (!deepEqual(olds.label, news.label)) {
    await client.instances.setLabel(id, typeof news.label === "string" ? news.label : "");
  }
  if (!deepEqual(olds.targetState, news.targetState)) {
    if (news.targetState === "stopped") await client.instances.stop(id);
    else await client.instances.start(id);
    stateChanged = true;
  }
  return stateChanged;
}

/** After an in-place change: wait for `running` when asked to, else read once; throws when it cannot run. */
async function settle(client: VastClient, id: number, news: Props, woken = false): Promise<Instance | null> {
  const inputs = typedInputs(news);
  // Stopped by its own guard (and not woken): nothing starts it, so nothing is waited for.
  if (!woken && planOf(news, "") !== undefined) {
    const live = await client.instances.get(id);
    if (live && byGuard(stoppedByOf(news, live, currentTiming().now()))) return live;
  }
  if (!(inputs.waitForRunning && inputs.targetState === "running")) return client.instances.get(id);
  const timeoutMs = inputs.runningTimeoutMinutes * 60_000;
  // An outbid instance kept as it is (onOutbid "keep") is not waited for: it runs when its bid wins.
  // Stopped by its schedule in its off-hours: the start job starts it (schedule.ts).
  if (bidLeftToSchedule(news)) return client.instances.get(id);
  const keep = policyOf(news) === "keep";
  const outcome = await waitForRunning(client, id, timeoutMs, keep ? outbidAtBoot : undefined);
  if (outcome.kind === "running") return outcome.instance;
  if (keep && outcome.kind === "dead" && isOutbid(outcome.instance)) return outcome.instance;
  throw new Error(`Instance ${id}: ${describeOutcome(outcome, timeoutMs, inputs)}; the next \`pulumi up\` replaces it if it is dead`);
}

/** `spentUsd` of instance `id` from the process's shared charges walk (kit/costs.ts); `previous` when they cannot be read. */
export function instanceSpent(id: string, since: unknown, previous: unknown): Promise<number | undefined> {
  return spentUsd(getClient(), `Instance ${id}`, [instanceKey(id)], unixOf(since), previous);
}

/** An instance that creates its own volume (`volume.createNew`). */
const createsVolume = (props: Props): boolean => (props.volume as { createNew?: unknown } | undefined)?.createNew === true;

/** Whether a delete takes the instance's volume with it: one the instance created (not an imported instance's), not kept. */
const deletesVolume = (props: Props): boolean =>
  createsVolume(props) && (props.volume as { keepOnDestroy?: unknown }).keepOnDestroy !== true && props.imported !== true;

/** The volume instance `n` uses (the one it created), from one listing; null when the listing fails or shows none. */
async function createdVolumeOf(client: VastClient, n: number): Promise<number | null> {
  try {
    return (await volumeIdsByInstance(client)).get(n) ?? null;
  } catch {
    return null;
  }
}

export const provider: ProviderImpl = {
  async check(olds, news) {
    const result = await checkInstanceInputs(news, OUTPUT_KEYS);
    const checked = { ...result, failures: [...(result.failures ?? []), ...guardFailures(olds, news, currentTiming().now())] };
    // A resource about to be created: its create's look-up for a killed run's leftover is
    // made together with the others' (earlier-runs.ts).
    const creating = Object.keys(olds).every((k) => k === "__provider");
    if (creating && (checked.failures ?? []).length === 0) announceCreate(checked.inputs?.label);
    return checked;
  },

  diff(id, olds, news) {
    return diffInstance(id, olds, news);
  },

  async create(given) {
    // The deadline is fixed now (guard/inputs.ts) and kept in state.
    const deadline = deadlineOf({}, given, currentTiming().now());
    const inputs = deadline === undefined ? given : { ...given, deadline };
    // importId: take over an existing instance through the update path (adopt.ts); no rental.
    if (typeof inputs.importId === "string") return importInstance(getClient(), inputs, (id, olds, news) => provider.update!(id, olds, news));
    const made = await createInstance(inputs);
    const outs = (made.outs ?? {}) as Props;
    // As the create's last read shows it (no further call). Also without a guard: read sets
    // stoppedBy (null), and a field read adds makes a refresh after this up rewrite every entry.
    const seen = { actualStatus: outs.actualStatus, intendedStatus: outs.intendedStatus, isBid: outs.isBid } as Instance;
    Object.assign(outs, guardOutputs(inputs, seen, currentTiming().now()));
    const since = outs.spendSince ?? Math.floor(currentTiming().now() / 1000);
    if (createsVolume(inputs)) outs.createdVolumeId = await createdVolumeOf(getClient(), instanceNumber(made.id));
    return { ...made, outs: { ...outs, spentUsd: await instanceSpent(made.id, since, undefined) } };
  },

  async read(id, props) {
    const instance = await liveInstances().get(id);
    if (!instance) {
      // Destroyed by its own guard: kept in state, so the next up does not rent it again (guard/state.ts).
      const by = goneBy(props, currentTiming().now());
      if (!by) return { id: "" };
      const outs = jsonClean({ ...props, actualStatus: null, intendedStatus: null, hourlyCost: 0, stoppedBy: by, expired: by === "ttl" || props.expired === true }) as Props;
      return { id, props: outs, inputs: storedInputs(outs) };
    }
    const lost = Array.isArray(props.lostCreates) ? props.lostCreates.filter((m): m is string => typeof m === "string") : [];
    if (lost.length > 0) await sweepLateCreates(getClient(), instance.id, lost);
    // Without inputs in state (a read that adopts), the inputs the service shows are rebuilt.
    const known = props.image !== undefined || props.templateHashId !== undefined;
    const base = known ? props : { ...rebuiltInputs(instance), ...props };
    const spent = await instanceSpent(id, instance.startDate ?? props.spendSince, props.spentUsd);
    const jobs = await reflectJobs(base);
    // Running in its off-hours (off-hours.ts): an output, and the schedule shown with the reason.
    const offHours = reflectOffHours(base, instance, jobs.schedule);
    const outs = jsonClean({ ...reflect(base, instance), ...(await balanceOutput(getClient(), instance.id, base)), ...jobs, ...offHours, spentUsd: spent }) as Props;
    return { id, props: outs, inputs: storedInputs(outs) };
  },

  async update(id, olds, given) {
    const client = getClient();
    const n = instanceNumber(id);
    // The deadline stays while ttl/expiresAt do (guard/inputs.ts).
    const deadline = deadlineOf(olds, given, currentTiming().now());
    const news: Props = { ...given, deadline };
    // First, so that a refusal leaves everything as it was (inplace.ts); the refusal is kept in
    // state, so that the next diff falls back to a replacement for those inputs. The guard
    // travels in the start command: a change of it is an in-place change of that command.
    let recreated: boolean;
    try {
      const [oldStart, newStart] = await guardedSides(client, olds, news, currentApiUrl());
      recreated = await applyTemplateUpdate(client, n, oldStart, newStart, MARKER_ENV);
    } catch (error) {
      if (!(error instanceof InPlaceRefusedError)) throw error;
      const guardChanged = GUARD_KEYS.filter((k) => !deepEqual(olds[k], news[k]));
      const refused = { keys: [...error.keys, ...guardChanged], reason: scrub(error.reason) };
      throw new PartialFailure(error.message, id, olds, { [REFUSED_KEY]: refused, lastUpdate: `refused in place (${refused.reason}): the next up replaces` });
    }
    const woken = await applyWake(client, n, olds, news);
    const stateChanged = (await applyInPlace(client, n, olds, news)) || recreated || woken;
    await applySshKeys(client, n, olds, news);
    // Bid, reboot, recycle, prepay (bid.ts, actions.ts): a restart is waited for like a start.
    const rebid = await applyBid(client, n, olds, news);
    const restarted = (await applyActions(client, n, olds, news)) || rebid;
    // The schedule's jobs, after the bid: they carry it (schedule.ts).
    let schedule: Props = {};
    if (hasSchedule(olds, news)) {
      try {
        schedule = { ...(await syncSchedule(client, n, olds, news)) };
      } catch (error) {
        const record = error instanceof ScheduleSyncError ? error.record : {};
        throw new PartialFailure(
          `Instance ${id}: ${(error as Error).message}. State records the jobs that exist; the next \`pulumi up\` writes the rest`,
          id,
          { ...news, schedule: olds.schedule },
          { ...storedOutputs(olds), ...record },
        );
      }
    }
    // Every change above is written: from here on a failure must not leave the old values in
    // state (the next up would write them again, recreating the container), so state records
    // what was sent, and the error says the read back failed.
    const written: Props = { ...storedOutputs(olds), ...userInputs(news), ...(recreated ? { lastUpdate: "in-place" } : {}), ...schedule };
    if (deadline === undefined) {
      delete written.deadline;
      delete written.expired;
    }
    try {
      const base = { ...written, ...(await balanceOutput(client, n, news)) };
      // A label change needs no read back; a state change (or a boot left unfinished) does.
      const needsStatus = stateChanged || restarted || !deepEqual(olds.bidPricePerHour, news.bidPricePerHour) || storedOutputs(olds).actualStatus !== "running";
      const instance = needsStatus ? await settle(client, n, news, woken) : null;
      const off = instance && scheduleOf(news) ? { scheduledOff: scheduleState(news, instance) === "off", offHoursRunning: offHoursRunning(news, instance) ?? null } : {};
      const guard = instance ? guardOutputs(news, instance, currentTiming().now()) : {};
      const outs: Props = instance ? { ...base, ...liveOutputs(instance, news), ...off, ...guard } : base;
      return { outs: jsonClean({ ...outs, spentUsd: await instanceSpent(id, outs.spendSince, olds.spentUsd) }) as Props };
    } catch (error) {
      throw new PartialFailure(
        `Instance ${id}: the update was applied, but what followed it failed: ${(error as Error).message.replace(/\.$/, "")}. ` +
          "State records the new values; `pulumi refresh` or the next `pulumi up` reads the instance again",
        id,
        news,
        written,
      );
    }
  },

  async delete(id, props) {
    const client = getClient();
    // The volume the instance created goes with it (unless kept): its id is recorded at create,
    // or found now, while the instance still uses it. A listing that fails here fails the delete
    // before anything is destroyed, rather than leave the volume unseen.
    const recorded = typeof props.createdVolumeId === "number" ? props.createdVolumeId : null;
    const volumeId = deletesVolume(props) ? (recorded ?? (await volumeIdsByInstance(client)).get(instanceNumber(id)) ?? null) : null;
    // The instance first: a destroy that fails leaves it with its office hours, as state says.
    // Jobs whose cancel fails after it only call an instance that is gone (their bid changes do
    // nothing), and the delete fails, so the next destroy (the instance already gone) cancels them.
    try {
      await client.instances.destroy(instanceNumber(id));
    } catch (error) {
      throw new Error(`Instance ${id}: destroying it failed: ${(error as Error).message}`, { cause: error });
    }
    try {
      await cancelSchedule(client, props);
    } catch (error) {
      throw new Error(`Instance ${id} is destroyed, but cancelling its schedule's jobs failed: ${(error as Error).message}. Run the destroy again to cancel them`, { cause: error });
    }
    // Its offer is free again for the creates of this process (kit/claims.ts).
    if (typeof props.offerId === "number") release(client, props.offerId);
    if (volumeId !== null) {
      try {
        await deleteInstanceVolume(client, volumeId, instanceNumber(id));
      } catch (error) {
        // The entry stays: with the volume's id recorded, the next destroy finds the instance gone
        // and deletes the volume; without it (state of an earlier version), nothing ties the
        // volume to the entry any more, so only the command is named.
        const again = recorded !== null ? "run the destroy again, or " : "";
        throw new Error(
          `Instance ${id} is destroyed, but ${(error as Error).message.replace(/\.$/, "")}. The volume bills until it is deleted: ${again}` +
            `delete it with \`vastai delete volume ${volumeId}\``,
          { cause: error },
        );
      }
    }
  },
};
