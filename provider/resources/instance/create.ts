/**
 * Creating an instance: rent an offer, then wait until it runs. An instance that becomes
 * exited, unknown or offline while booting never runs (spec: States and transitions), so it is
 * destroyed and creation is tried again, on the next match when `offer` filters are used, for
 * at most `maxCreateAttempts` boots. When it still fails, or the wait runs out, the create fails
 * as a partial failure carrying the id, so the instance stays in state and nothing leaks.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Instance, VastClient } from "../../client";
import { currentApiUrl, getClient } from "../../context";
import { guardedStart } from "./guard/start";
import { PartialFailure, Props, jsonClean, release, startChoosing } from "../kit";
import { BootOutcome, describeOutcome, waitForRunning } from "./boot";
import { typedInputs, type InstanceInputs } from "./inputs";
import { candidateOfferList, diskToRent } from "./offers";
import { notReadyReason } from "./readiness";
import { prepayOnCreate } from "./actions";
import { OUTBID_AT_BOOT, onDemandInstead, outbidAtBoot } from "./bid";
import { liveOutputs } from "./outputs";
import { OFF_BID, ScheduleSyncError, bidLeftToSchedule, scheduleOf, scheduleState, syncSchedule } from "./schedule";
import { applySshKeys } from "./ssh-keys";
import { CreateLog, OffersTakenError, Rented, leftByEarlierRun, markerOf, rentFirstAvailable, sweepLostCreates } from "./rent";

/** `sent`: the instance's inputs, whose start command a status message shows without (outputs.ts). */
function recordedOutputs(rented: Rented, instance: Instance | null, sent: Props): Props {
  return {
    instanceId: rented.id,
    offerId: rented.offerId,
    marker: rented.marker,
    instanceApiKey: rented.instanceApiKey,
    ...(instance ? liveOutputs(instance, sent) : {}),
  };
}

/** One read for outputs when not waiting; a failure only leaves the live outputs empty. */
async function readOnce(client: VastClient, id: number): Promise<Instance | null> {
  try {
    return await client.instances.get(id);
  } catch {
    return null;
  }
}

/** `created`: not waiting (waitForRunning false, or targetState stopped). */
type Outcome = BootOutcome | { kind: "created"; instance: Instance | null };
/** Running, but the readiness probe never passed. */
type Unready = { kind: "unready"; instance: Instance; why: string };

async function boot(client: VastClient, inputs: InstanceInputs, rented: Rented, props: Props): Promise<Outcome> {
  try {
    if (inputs.waitForRunning && inputs.targetState === "running") {
      return await waitForRunning(client, rented.id, inputs.runningTimeoutMinutes * 60_000, outbidAtBoot);
    }
    return { kind: "created", instance: await readOnce(client, rented.id) };
  } catch (error) {
    throw new PartialFailure(
      `Instance ${rented.id} was created on offer ${rented.offerId} but its status could not be read: ${(error as Error).message}`,
      String(rented.id),
      props,
      recordedOutputs(rented, null, props),
    );
  }
}

function history(failures: string[]): string {
  return failures.length > 1 ? ` Attempts: ${failures.join("; ")}.` : "";
}

export async function createInstance(props: Props): Promise<pulumi.dynamic.CreateResult> {
  const client = getClient();
  const log: CreateLog = { marker: markerOf(props), lostMarkers: [], destroyed: [] };
  let kept: number | undefined;
  try {
    const result = await createWithRetries(client, props, log);
    kept = Number(result.id);
    // A lost request not found in time may land later: state records its marker for read to sweep.
    if (log.lostMarkers.length > 0) return { ...result, outs: { ...result.outs, lostCreates: [...new Set(log.lostMarkers)] } };
    return result;
  } finally {
    await sweepLostCreates(client, log, kept);
  }
}

/** The searched $/hour of each candidate offer (the stack budget's price of a rental, kit/stack-budget.ts). */
const pricesOf = (candidates: readonly { id: number; pricePerHour?: number }[]) =>
  new Map(candidates.flatMap((c) => (c.pricePerHour === undefined ? [] : [[c.id, c.pricePerHour] as const])));

/** Offer searches of one create when the creates beside it took every match it saw. */
const MAX_OFFER_SEARCHES = 3;

async function createWithRetries(client: VastClient, props: Props, log: CreateLog): Promise<pulumi.dynamic.CreateResult> {
  // The start command carries the guard when the inputs ask for one (guard/start.ts).
  let inputs: InstanceInputs;
  // Until this create holds an offer, creates starting beside it search wider (kit/claims.ts).
  const chosen = startChoosing(client);
  let earlier: Awaited<ReturnType<typeof leftByEarlierRun>>;
  let candidates: Awaited<ReturnType<typeof candidateOfferList>>;
  try {
    inputs = typedInputs(await guardedStart(client, props, currentApiUrl()));
    earlier = await leftByEarlierRun(client, log, props);
    // The disk priced by the search is the disk rented (offers.ts).
    inputs = { ...inputs, diskGb: await diskToRent(client, inputs) };
    // With an instance a killed run left, the search is only for a boot that fails: it may find nothing.
    candidates = await candidateOfferList(client, inputs, { allowNone: earlier !== undefined });
  } catch (error) {
    chosen();
    throw error;
  }
  let offers = candidates.map((o) => o.id);
  const timeoutMs = inputs.runningTimeoutMinutes * 60_000;
  const failures: string[] = [];
  let index = 0;
  let searches = 1;
  for (let attempt = 1; ; attempt++) {
    let rented: Rented;
    try {
      rented =
        earlier && attempt === 1
          ? { id: earlier.id, offerId: inputs.offerId ?? 0, marker: log.marker, adopted: true, offerIndex: inputs.offerId === undefined ? -1 : 0 }
          : await rentFirstAvailable(client, inputs, offers, index, log, pricesOf(candidates));
      chosen();
    } catch (error) {
      // Every match this create saw was claimed by creates beside it: a new search sees past them.
      if (error instanceof OffersTakenError && searches < MAX_OFFER_SEARCHES) {
        searches++;
        candidates = await candidateOfferList(client, inputs, { fresh: true }).catch((e: unknown) => {
          chosen();
          throw e;
        });
        offers = candidates.map((o) => o.id);
        index = 0;
        attempt--;
        continue;
      }
      chosen();
      // The renting error already says what failed; only earlier boots add to it.
      if (failures.length === 0) throw error;
      throw new Error(`${(error as Error).message} Earlier attempts (destroyed): ${failures.join("; ")}.`, { cause: error });
    }
    index = rented.offerIndex;
    const outcome = await bootAndProbe(client, inputs, rented, props);
    if (outcome.kind === "running" || outcome.kind === "created") {
      const outs = recordedOutputs(rented, outcome.instance, props);
      await afterBoot(client, rented, outcome.instance, props, outs, log);
      return { id: String(rented.id), outs: jsonClean({ ...props, ...outs }) as Props };
    }
    const why = outcome.kind === "unready" ? outcome.why : describeOutcome(outcome, timeoutMs, inputs);
    failures.push(`instance ${rented.id} on offer ${rented.offerId}: ${why}`);
    const live = outcome.kind === "gone" ? null : outcome.instance;
    const outs = recordedOutputs(rented, live, props);
    if (outcome.kind === "unready" || (outcome.kind === "dead" && outcome.fatal?.about === "host")) {
      offers = withoutMachine(candidates, offers, index, outcome.instance.machineId);
    }
    // A bad image or entrypoint fails on every machine: destroyed, and the create fails now with the service's text.
    if (outcome.kind === "dead" && outcome.fatal?.about === "container") {
      await destroyFailedBoot(client, rented, why, props, outs, log);
      throw new Error(`Instance ${rented.id} on offer ${rented.offerId}: ${why}; it was destroyed. Fix the image, onstart or args and run again.${history(failures)}`);
    }
    const moreOffers = inputs.offerId !== undefined || index + 1 < offers.length;
    // A bid below the going price loses again on the same offer: only another offer can help.
    // So does an instance that never became ready: readiness is retried elsewhere only.
    const sameOfferHopeless =
      inputs.offerId !== undefined && ((outcome.kind === "dead" && outcome.status === OUTBID_AT_BOOT) || outcome.kind === "unready");
    const retry = outcome.kind !== "timeout" && attempt < inputs.maxCreateAttempts && moreOffers && !sameOfferHopeless;
    if (!retry && outcome.kind === "unready") {
      // Running but not serving: it is destroyed rather than left billing.
      await destroyFailedBoot(client, rented, why, props, outs, log);
      throw new Error(`Instance ${rented.id} on offer ${rented.offerId}: ${why}; it was destroyed.${history(failures)}`);
    }
    if (!retry) {
      if (outcome.kind === "gone") throw new Error(`Instance ${rented.id}: ${why}; nothing is left to keep.${history(failures)}`);
      throw new PartialFailure(
        `Instance ${rented.id} was created on offer ${rented.offerId} but ${why}. It stays in state: the next \`pulumi up\` ` +
          `replaces it if it is dead, \`pulumi destroy\` removes it.${history(failures)}`,
        String(rented.id),
        props,
        outs,
      );
    }
    if (outcome.kind !== "gone") await destroyFailedBoot(client, rented, why, props, outs, log);
    if (inputs.offerId === undefined) index++;
  }
}

/** Later offers on the machine that failed readiness are not rented again (earlier ones stay, so positions hold). */
function withoutMachine(candidates: { id: number; machineId?: number }[], offers: number[], index: number, machineId: number | null | undefined): number[] {
  if (machineId === null || machineId === undefined) return offers;
  const machineOf = new Map(candidates.map((c) => [c.id, c.machineId]));
  return offers.filter((id, j) => j <= index || machineOf.get(id) !== machineId);
}

/** The boot, then the readiness probe when asked for (only after a boot that waited for running). */
async function bootAndProbe(client: VastClient, inputs: InstanceInputs, rented: Rented, props: Props): Promise<Outcome | Unready> {
  const outcome = await boot(client, inputs, rented, props);
  if (outcome.kind !== "running" || !inputs.readiness) return outcome;
  let why: string | undefined;
  try {
    why = await notReadyReason(client, rented.id, inputs.readiness, inputs.ports);
  } catch (error) {
    throw new PartialFailure(
      `Instance ${rented.id} was created on offer ${rented.offerId} but its readiness could not be checked: ${(error as Error).message}`,
      String(rented.id),
      props,
      recordedOutputs(rented, outcome.instance, props),
    );
  }
  return why === undefined ? outcome : { kind: "unready", instance: outcome.instance, why };
}

/**
 * After a boot: a bid the service rented on-demand is destroyed and the create fails (bid.ts);
 * then the first prepayment (actions.ts). A failure after the rental keeps the id in state.
 */
async function afterBoot(client: VastClient, rented: Rented, instance: Instance | null, props: Props, outs: Props, log: CreateLog): Promise<void> {
  const seen = instance ?? (props.bidPricePerHour !== undefined ? await readOnce(client, rented.id) : null);
  const onDemand = onDemandInstead(props, seen);
  if (onDemand) {
    await destroyFailedBoot(client, rented, `was not rented as a bid: ${onDemand}`, props, outs, log);
    throw new Error(
      `Instance ${rented.id} on offer ${rented.offerId} ${onDemand}; it was destroyed. ` +
        `Check that the offer takes bids (search offers with type "bid") and that bidPricePerHour is at least its min_bid`,
    );
  }
  try {
    await applySshKeys(client, rented.id, {}, props);
  } catch (error) {
    throw new PartialFailure(
      `Instance ${rented.id} was created on offer ${rented.offerId} but attaching its SSH keys failed: ${(error as Error).message}. ` +
        "It stays in state without sshKeyIds, so the next `pulumi up` attaches them",
      String(rented.id),
      { ...props, sshKeyIds: undefined },
      outs,
    );
  }
  try {
    Object.assign(outs, await prepayOnCreate(client, rented.id, props));
  } catch (error) {
    throw new PartialFailure(
      `Instance ${rented.id} was created on offer ${rented.offerId} but the prepayment failed: ${(error as Error).message}. ` +
        `It stays in state without the prepayment, so the next \`pulumi up\` pays`,
      String(rented.id),
      // State without prepayAmount: the next up sees it as a change and pays (once).
      { ...props, prepayAmount: undefined },
      outs,
    );
  }
  await writeSchedule(client, rented, props, outs);
}

/**
 * The schedule's jobs (schedule.ts). Created in its off-hours, the instance is stopped at once
 * by the losing bid, as the stop job would have done: it starts at the next start hour.
 */
async function writeSchedule(client: VastClient, rented: Rented, props: Props, outs: Props): Promise<void> {
  if (!scheduleOf(props)) return;
  try {
    Object.assign(outs, await syncSchedule(client, rented.id, {}, props));
    if (bidLeftToSchedule(props)) {
      await client.instanceActions.changeBid(rented.id, OFF_BID);
      const live = await readOnce(client, rented.id);
      if (live) Object.assign(outs, liveOutputs(live, props));
      outs.scheduledOff = live ? scheduleState(props, live) === "off" : true;
    } else {
      outs.scheduledOff = false;
    }
  } catch (error) {
    if (error instanceof ScheduleSyncError) Object.assign(outs, error.record);
    throw new PartialFailure(
      `Instance ${rented.id} was created on offer ${rented.offerId} but writing its schedule failed: ${(error as Error).message}. ` +
        "It stays in state without the schedule (the jobs written are recorded), so the next `pulumi up` writes it",
      String(rented.id),
      { ...props, schedule: undefined },
      outs,
    );
  }
}

async function destroyFailedBoot(client: VastClient, rented: Rented, why: string, props: Props, outs: Props, log: CreateLog): Promise<void> {
  try {
    await client.instances.destroy(rented.id);
    log.destroyed.push(rented.id);
    // The offer is free again: this process's claim on it goes too (a given offerId is tried again).
    release(client, rented.offerId);
  } catch (error) {
    throw new PartialFailure(
      `Instance ${rented.id} ${why}, and destroying it before trying again failed (${(error as Error).message}). ` +
        `It stays in state so the next run replaces or deletes it.`,
      String(rented.id),
      props,
      outs,
    );
  }
}
