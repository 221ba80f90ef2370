/**
 * One reconcile of a fleet, as create and update run it:
 *
 * 1. one fresh listing of the account's instances: live status of every member, and the
 *    members a killed run of this operation left (found by marker, adopted);
 * 2. the plan: dead members (exited, unknown, offline) and vanished ones go, their machines are
 *    remembered as bad for `badHostMinutes`; members beyond `count` go, least healthy and then
 *    most expensive first; members made with other template inputs are rolled;
 * 3. offers for the new members are chosen and claimed (claims.ts), and the projected $/hour is
 *    checked against `maxHourlyCost` before anything is rented or destroyed;
 * 4. the plan runs: removals, new members (waited for together; one that dies while booting is
 *    destroyed, its machine avoided, another offer rented), then the roll, member by member,
 *    keeping at least `minHealthy` running.
 *
 * A failure after anything changed is a partial failure carrying the members as they are, so
 * state never loses an instance. A removed member's volume is deleted after its instance; one
 * that cannot be deleted stays in `members` (status gone) and fails the run, naming the volume.
 */
import type { Instance, VastClient } from "../../client";
import { PartialFailure, Props, currentTiming, deepEqual } from "../kit";
import { readStatus } from "../instance/status";
import { type Candidate, type Placement, pickOffers, release, searchCandidates } from "./claims";
import { accountInstances, forgetListing } from "./listing";
import { SPEC_KEYS, minHealthyOf, typedFleetInputs, type FleetInputs } from "./inputs";
import { type Member, type VolumeLeft, adoptedMember, isOfferGone, markerValue, operationPrefix, refreshed, removeMember, rentMember, specOf, waitForMembers } from "./members";
import { fleetOutputs, liveBadHosts, memberCost, round6, storedMembers } from "./outputs";
import { volumeIdOf, withVolumeIds } from "./volumes";

export class BudgetError extends Error {}

interface Run {
  client: VastClient;
  inputs: FleetInputs;
  props: Props;
  fleetKey: string;
  prefix: string;
  spec: string;
  members: Member[];
  badHosts: Record<string, number>;
  candidates: Candidate[];
  reserved: Candidate[];
  tried: Set<number>;
  changed: boolean;
  /** Removed members whose volume could not be deleted: kept in state until a run deletes it. */
  volumesLeft: VolumeLeft[];
}

const isHealthy = (m: Member) => m.status === "running";

/** Removal order: not running first, then the most expensive. */
function removalOrder(a: Member, b: Member): number {
  return Number(isHealthy(a)) - Number(isHealthy(b)) || b.pricePerHour - a.pricePerHour;
}

function remember(run: Run, machineId: number | null): void {
  if (machineId === null || run.inputs.badHostMinutes <= 0) return;
  run.badHosts[String(machineId)] = currentTiming().now() + run.inputs.badHostMinutes * 60_000;
}

const badSet = (run: Run) => new Set(Object.keys(run.badHosts).map(Number));

/** The projected $/hour and its breakdown, for the budget guard's message. */
export function projection(kept: readonly Member[], offers: readonly Candidate[]): { total: number; breakdown: string } {
  const running = kept.filter((m) => m.status !== "stopped");
  const stopped = kept.filter((m) => m.status === "stopped");
  const keptRunning = running.reduce((s, m) => s + memberCost(m), 0);
  const keptStopped = stopped.reduce((s, m) => s + memberCost(m), 0);
  const fresh = offers.reduce((s, o) => s + o.pricePerHour + (o.volumePerHour ?? 0), 0);
  const priced = (o: Candidate) => `offer ${o.id} ${round6(o.pricePerHour)}` + (o.volumePerHour ? ` + volume ${round6(o.volumePerHour)}` : "");
  const parts = [
    `${offers.length} new member(s) ${round6(fresh)}` + (offers.length > 0 ? ` (${offers.map(priced).join(", ")})` : ""),
    `${running.length} kept member(s) ${round6(keptRunning)}`,
    `storage of ${stopped.length} stopped member(s) ${round6(keptStopped)}`,
  ];
  return { total: round6(fresh + keptRunning + keptStopped), breakdown: parts.join(" + ") };
}

/** Runs one reconcile; `olds` is the state entry (undefined on create). */
export async function reconcile(client: VastClient, fleetKey: string, news: Props, olds?: Props): Promise<Props> {
  const inputs = typedFleetInputs(news);
  const now = currentTiming().now();
  const run: Run = {
    client, inputs, props: news, fleetKey, prefix: operationPrefix(fleetKey, news), spec: specOf(news, SPEC_KEYS),
    members: [], badHosts: liveBadHosts(olds?.badHosts, now), candidates: [], reserved: [], tried: new Set(), changed: false, volumesLeft: [],
  };
  // 1. one listing (the diff's, when recent): the members' status, and what a killed run of this operation left
  const all = await accountInstances(client);
  const byId = new Map<number, Instance>(all.map((i) => [i.id, i]));
  let dead: Member[] = [];
  for (const m of olds ? storedMembers(olds) : []) {
    // Absent from a listing that may predate it: confirmed by a read of its own.
    const live = byId.get(m.id) ?? (await client.instances.get(m.id)) ?? undefined;
    if (!live) {
      // Its volume is still the fleet's to delete.
      if (volumeIdOf(m) !== null) dead.push({ ...m, status: "gone" });
      run.changed = true;
      continue;
    }
    const member = refreshed(m, live);
    if (readStatus(m.id, live.actualStatus).kind === "dead") dead.push(member);
    else run.members.push(member);
  }
  for (const i of all) {
    const marker = markerValue(i);
    if (marker?.startsWith(run.prefix) && !run.members.some((m) => m.id === i.id) && !dead.some((m) => m.id === i.id)) {
      // A dead one is adopted only to be destroyed: it never runs again.
      const adopted = adoptedMember(i, run.prefix, run.spec);
      if (readStatus(i.id, i.actualStatus).kind === "dead") dead.push(adopted);
      else run.members.push(adopted);
      run.changed = true;
    }
  }
  // Members whose volume did not show in the volume list yet, or adopted ones, learn its id.
  if (inputs.volume || olds?.volume) [run.members, dead] = await withVolumeIds(client, run.members, dead);
  // 2. the plan
  const excess = [...run.members].sort(removalOrder).slice(0, Math.max(0, run.members.length - inputs.count));
  const kept = run.members.filter((m) => !excess.includes(m));
  const stale = kept.filter((m) => m.spec !== run.spec);
  const current = kept.filter((m) => m.spec === run.spec);
  const need = inputs.count - kept.length;
  for (const m of dead) if (m.status !== "gone") remember(run, m.machineId);
  // 3. offers and the budget, before anything is rented or destroyed
  const wanted = need + stale.length;
  if (wanted > 0) {
    // Offers the members hold are taken even when this process never claimed them (an earlier run).
    const held = new Set([...run.members, ...dead].map((m) => m.offerId));
    run.candidates = (await searchCandidates(client, inputs, wanted + held.size)).filter((c) => !held.has(c.id));
    run.reserved = pickOffers(client, inputs, run.candidates, wanted, current, badSet(run));
    run.reserved.forEach((c) => run.tried.add(c.id));
    if (run.reserved.length < wanted) {
      const found = run.reserved.length;
      releaseReserved(run);
      throw new Error(
        `Fleet: ${wanted} offer(s) are needed but only ${found} match the offer filters ${JSON.stringify(inputs.offer)}` +
          `${inputs.volume ? ` on a machine with a volume offer of ${inputs.volume.size} GB free (volume)` : ""}` +
          `${inputs.maxPricePerHour === undefined ? "" : `, maxPricePerHour ${inputs.maxPricePerHour}`}` +
          `${inputs.spread ? `, spread at most ${inputs.spread.max} per ${inputs.spread.by}` : ""} and the machines avoided (badHosts); ` +
          `widen the filters or lower count; nothing was rented`,
      );
    }
  }
  if (inputs.maxHourlyCost !== undefined) {
    const p = projection(current, run.reserved);
    if (p.total > inputs.maxHourlyCost + 1e-9) {
      releaseReserved(run);
      throw new BudgetError(
        `Fleet: the projected cost ${p.total} $/hour exceeds maxHourlyCost ${inputs.maxHourlyCost} ($/hour): ${p.breakdown}; nothing was rented`,
      );
    }
  }
  // 4. the plan runs
  forgetListing(client);
  try {
    for (const m of [...dead, ...excess]) await remove(run, m);
    await grow(run, need);
    await roll(run, stale);
    if (olds && !deepEqual(olds.label, news.label)) {
      for (const m of run.members) if (m.spec === run.spec) await client.instances.setLabel(m.id, typeof news.label === "string" ? news.label : "");
    }
  } catch (error) {
    releaseReserved(run);
    // Nothing rented, destroyed or adopted: the state as it was stays right.
    if (!run.changed) throw new Error(`Fleet: ${(error as Error).message}`, { cause: error });
    const also = run.volumesLeft.length > 0 ? `; also ${volumesLeftText(run)}` : "";
    throw new PartialFailure(`Fleet: ${(error as Error).message}${also}`, fleetKey, news, outputsOf(run));
  }
  releaseReserved(run);
  const outs = outputsOf(run);
  if (run.volumesLeft.length > 0) throw new PartialFailure(`Fleet: ${volumesLeftText(run)}`, fleetKey, news, outs);
  const late = run.members.filter((m) => !isHealthy(m));
  if (late.length > 0 && wanted > 0) {
    throw new PartialFailure(
      `Fleet: member(s) ${late.map((m) => `${m.id} (${m.status ?? "no status"})`).join(", ")} were not running after ` +
        `${inputs.runningTimeoutMinutes} minutes (runningTimeoutMinutes); the next \`pulumi up\` replaces them if they die`,
      fleetKey,
      news,
      outs,
    );
  }
  return outs;
}

/** Outputs of the run: its members, and the removed ones whose volume is left to delete. */
function outputsOf(run: Run): Props {
  return fleetOutputs(run.fleetKey, [...run.members, ...run.volumesLeft.map((l) => l.member)], run.badHosts);
}

function volumesLeftText(run: Run): string {
  return (
    `${run.volumesLeft.map((l) => l.error.message.replace(/\.+$/, "")).join("; ")}. Their instances are destroyed; those members stay ` +
    "in `members` (status gone) until their volumes are deleted, which the next `pulumi up` or `pulumi destroy` tries again"
  );
}

/** Offers chosen but not rented go back to the process's pool. */
function releaseReserved(run: Run): void {
  for (const c of run.reserved) release(run.client, c.id);
  run.reserved = [];
}

/** Destroys a member, then deletes its volume (a volume left is kept for state, volumesLeft). */
async function remove(run: Run, member: Member): Promise<void> {
  run.changed = true;
  const left = await removeMember(run.client, member);
  run.members = run.members.filter((m) => m.id !== member.id);
  if (left) run.volumesLeft.push(left);
}

/** The next offer to rent: a reserved one, else the cheapest unused one that keeps the spread. */
function nextOffer(run: Run, placedBesides: readonly Placement[]): Candidate | undefined {
  const reserved = run.reserved.shift();
  if (reserved) return reserved;
  const placed = [...run.members.filter((m) => m.spec === run.spec), ...placedBesides];
  const [more] = pickOffers(run.client, run.inputs, run.candidates.filter((c) => !run.tried.has(c.id)), 1, placed, badSet(run));
  if (more) run.tried.add(more.id);
  return more;
}

/** Rents `n` members and waits for them; dead boots are destroyed and rented again elsewhere. */
async function grow(run: Run, n: number): Promise<Member[]> {
  const ready: Member[] = [];
  let toRent = n;
  for (let attempt = 1; toRent > 0; attempt++) {
    // The rentals go out together: the client's pacer spaces them at the service's interval.
    const pending: Candidate[] = [];
    const rentSlot = async (): Promise<Member> => {
      for (;;) {
        const offer = nextOffer(run, pending);
        if (!offer) throw new Error(`no further offer matches the filters, price cap, spread and bad-host memory (${n} member(s) wanted)`);
        pending.push(offer);
        try {
          const member = await rentMember(run.client, run.props, offer, `${run.prefix}${offer.id}`, run.spec);
          run.members.push(member);
          run.changed = true;
          return member;
        } catch (error) {
          pending.splice(pending.indexOf(offer), 1);
          if (!isOfferGone(error)) {
            release(run.client, offer.id);
            throw new Error(`renting offer ${offer.id} failed: ${(error as Error).message}`, { cause: error });
          }
          // Taken by someone else: the claim stays (nobody here can rent it), the next offer is tried.
        }
      }
    };
    const settled = await Promise.allSettled(Array.from({ length: toRent }, rentSlot));
    const batch = settled.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
    const results = await waitForMembers(run.client, batch, run.inputs.runningTimeoutMinutes * 60_000, run.inputs.volume !== undefined);
    toRent = 0;
    for (const r of results) {
      run.members = run.members.map((m) => (m.id === r.member.id ? r.member : m));
      if (r.outcome === "running" || r.outcome === "timeout") {
        ready.push(r.member);
        continue;
      }
      remember(run, r.member.machineId);
      // A dead one is destroyed; either way its volume goes with it.
      await remove(run, r.member);
      toRent++;
    }
    if (toRent > 0 && attempt >= run.inputs.maxCreateAttempts) {
      throw new Error(`${toRent} member(s) died while booting in each of ${attempt} attempt(s) (maxCreateAttempts); their machines are avoided (badHosts)`);
    }
  }
  return ready;
}

/**
 * Replaces members made with other inputs, keeping at least `minHealthy` running: members
 * beyond `minHealthy` are replaced in one batch (destroyed first), else one new member is made
 * before one old is destroyed.
 */
async function roll(run: Run, stale: Member[]): Promise<void> {
  const min = minHealthyOf(run.inputs);
  let left = [...stale];
  // Old members that do not run count for nothing: they go first.
  for (const m of left.filter((s) => !isHealthy(s))) await remove(run, m);
  const replaceFirst = left.length - left.filter(isHealthy).length;
  left = left.filter(isHealthy);
  if (replaceFirst > 0) await grow(run, replaceFirst);
  while (left.length > 0) {
    const healthy = run.members.filter(isHealthy).length;
    const batch = Math.min(left.length, healthy - min);
    if (batch >= 1) {
      const going = left.slice(0, batch);
      for (const m of going) await remove(run, m);
      left = left.slice(batch);
      await grow(run, batch);
    } else {
      await grow(run, 1);
      await remove(run, left[0]);
      left = left.slice(1);
    }
  }
}
