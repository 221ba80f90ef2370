/**
 * One reconcile of a fleet, as create and update run it:
 *
 * 1. the members' live status (read by id through the shared reader), and the members a killed
 *    run of this operation left (listed by the fleet's label, found by marker, adopted);
 * 2. the plan: dead members (exited, unknown, offline), vanished ones, and with `readiness`
 *    running ones still unready after its deadline (health.ts) go, their machines are
 *    remembered as bad for `badHostMinutes`; members beyond `count` go, least healthy and then
 *    most expensive first; members made with other template inputs are rolled, in place when
 *    only inputs Instance updates in place changed (inplace.ts), else by replacement;
 * 3. offers for the new members are chosen and claimed (claims.ts), and the projected $/hour is
 *    checked against `maxHourlyCost` before anything is rented or destroyed;
 * 4. the plan runs: removals, new members (waited for together until they run and are ready;
 *    one that dies or never becomes ready while booting is destroyed, its machine avoided,
 *    another offer rented), then the roll, keeping at least `minHealthy` healthy.
 *
 * A failure after anything changed is a partial failure carrying the members as they are, so
 * state never loses an instance. A removed member's volume is deleted after its instance; one
 * that cannot be deleted stays in `members` (status gone) and fails the run, naming the volume.
 */
import { scrub, type VastClient } from "../../client";
import { IDENTITY_KEY, PartialFailure, Props, currentTiming, deepEqual, warnOnce } from "../kit";
import { diskToRent } from "../instance/offers";
import { readStatus, withoutStartCommand } from "../instance/status";
import { type Candidate, type Placement, pickOffers, release, searchCandidates } from "./claims";
import { type HealthResult, isHealthy, probeMembers, settleReadiness, waitUntilReady } from "./health";
import { inPlaceBatch, updatableInPlace, updateMember } from "./inplace";
import { memberLabel, ownKeyLabel, readMembers, sweep, sweptLabels } from "./listing";
import { SPEC_KEYS, minHealthyOf, typedFleetInputs, type FleetInputs } from "./inputs";
import { BootWatch, type Member, type VolumeLeft, adoptedMember, destroyMember, isOfferGone, markerValue, operationPrefix, refreshed, removeMember, rentMember, specOf } from "./members";
import { fleetOutputs, liveBadHosts, memberCost, round6, storedMembers } from "./outputs";
import { BudgetError, budgetFailure, liveProjection, overBudget, readBackPrices } from "./budget";
import { volumeIdOf, withVolumeIds } from "./volumes";
import { fleetExpired, memberStoppedBy, wakeChanged } from "./guard";
import { withinStackBudget } from "../kit/stack-budget";

export { BudgetError } from "./budget";

interface Run {
  client: VastClient;
  inputs: FleetInputs;
  props: Props;
  /** The state entry (undefined on create): the inputs the members were made with. */
  olds?: Props;
  fleetKey: string;
  prefix: string;
  spec: string;
  members: Member[];
  badHosts: Record<string, number>;
  candidates: Candidate[];
  reserved: Candidate[];
  tried: Set<number>;
  /** Members updated in place: they keep their machine, so the spread counts them. */
  staying: Set<number>;
  changed: boolean;
  /** Removed members whose volume could not be deleted: kept in state until a run deletes it. */
  volumesLeft: VolumeLeft[];
  /** The disk every member is rented with (priced by the search, sent by the create), GB. */
  diskGb: number;
  /** Offers being rented now (sent, not answered yet): the budget counts them (budget.ts). */
  inflight: Candidate[];
  /** How failures name the fleet: its resource name. */
  name: string;
}

/** The fleet as messages name it: `Fleet "workers"` from its identity, else its key. */
function fleetName(props: Props, fleetKey: string): string {
  const identity = props[IDENTITY_KEY];
  const name = typeof identity === "string" && identity !== "" ? identity.split("/").pop() : undefined;
  return name ? `Fleet "${name}"` : `Fleet ${fleetKey}`;
}

/** Removal order: not running first, then the most expensive. */
function removalOrder(a: Member, b: Member): number {
  return Number(isHealthy(a)) - Number(isHealthy(b)) || b.pricePerHour - a.pricePerHour;
}

function remember(run: Run, machineId: number | null): void {
  if (machineId === null || run.inputs.badHostMinutes <= 0) return;
  run.badHosts[String(machineId)] = currentTiming().now() + run.inputs.badHostMinutes * 60_000;
}

const badSet = (run: Run) => new Set(Object.keys(run.badHosts).map(Number));

/**
 * The projected $/hour and its breakdown, for the budget guard's message. `alongside` are
 * members that run beside their replacement for a while (the member a spare stands in for, an
 * old member kept until its replacement runs): the peak of the run counts them.
 */
export function projection(kept: readonly Member[], offers: readonly Candidate[], alongside: readonly Member[] = []): { total: number; breakdown: string } {
  const running = kept.filter((m) => m.status !== "stopped");
  const stopped = kept.filter((m) => m.status === "stopped");
  const keptRunning = running.reduce((s, m) => s + memberCost(m), 0);
  const keptStopped = stopped.reduce((s, m) => s + memberCost(m), 0);
  const fresh = offers.reduce((s, o) => s + o.pricePerHour + (o.volumePerHour ?? 0), 0);
  const overlap = alongside.reduce((s, m) => s + memberCost(m), 0);
  const priced = (o: Candidate) => `offer ${o.id} ${round6(o.pricePerHour)}` + (o.volumePerHour ? ` + volume ${round6(o.volumePerHour)}` : "");
  const parts = [
    `${offers.length} new member(s) ${round6(fresh)}` + (offers.length > 0 ? ` (${offers.map(priced).join(", ")})` : ""),
    `${running.length} kept member(s) ${round6(keptRunning)}`,
    `storage of ${stopped.length} stopped member(s) ${round6(keptStopped)}`,
  ];
  if (alongside.length > 0) {
    parts.push(`${alongside.length} member(s) running beside their replacement during the roll ${round6(overlap)} (${alongside.map((m) => `member ${m.id} ${round6(memberCost(m))}`).join(", ")})`);
  }
  return { total: round6(fresh + keptRunning + keptStopped + overlap), breakdown: parts.join(" + ") };
}

/** Runs one reconcile; `olds` is the state entry (undefined on create). */
export async function reconcile(client: VastClient, fleetKey: string, news: Props, olds?: Props): Promise<Props> {
  const inputs = typedFleetInputs(news);
  const now = currentTiming().now();
  const run: Run = {
    client, inputs, props: news, olds, fleetKey, prefix: operationPrefix(fleetKey, news), spec: specOf(news, SPEC_KEYS),
    members: [], badHosts: liveBadHosts(olds?.badHosts, now), candidates: [], reserved: [], tried: new Set(), staying: new Set(), changed: false, volumesLeft: [],
    diskGb: 0, inflight: [], name: fleetName(news, fleetKey),
  };
  // 1. the members by id (the diff's reads, when recent) and what a killed run of this operation
  // left (by the fleet's labels): never the rest of the account (listing.ts)
  const stored = olds ? storedMembers(olds) : [];
  const [byId, left] = await Promise.all([readMembers(client, stored.map((m) => m.id), olds ? ownKeyLabel(olds, fleetKey) : undefined), sweep(client, sweptLabels(fleetKey, news, olds), run.prefix, markerValue)]);
  let dead: Member[] = [];
  for (const m of stored) {
    const live = byId.get(m.id);
    if (!live) {
      // Its volume is still the fleet's to delete.
      if (volumeIdOf(m) !== null) dead.push({ ...m, status: "gone" });
      run.changed = true;
      continue;
    }
    // Stopped by its own guard (autostop, or the deadline): kept as it is, never healed (guard.ts).
    const stoppedBy = memberStoppedBy(news, live, now);
    const member: Member = { ...refreshed(m, live), ...(news.autostop || news.deadline ? { stoppedBy } : {}) };
    if (readStatus(m.id, live.actualStatus).kind === "dead" && stoppedBy !== "autostop" && stoppedBy !== "ttl") dead.push(member);
    else run.members.push(member);
  }
  for (const i of left) {
    if (!run.members.some((m) => m.id === i.id) && !dead.some((m) => m.id === i.id)) {
      // A dead one is adopted only to be destroyed: it never runs again.
      const adopted = adoptedMember(i, run.prefix, run.spec);
      if (readStatus(i.id, i.actualStatus).kind === "dead") dead.push(adopted);
      else run.members.push(adopted);
      byId.set(i.id, i);
      run.changed = true;
    }
  }
  // With readiness: a running member that fails its probe is probed until the deadline; still
  // unready, it goes as a dead one does (health.ts). Nothing has changed yet.
  const health = await settleReadiness(client, await probeMembers(run.members, byId, inputs), inputs);
  run.members = health.kept;
  dead.push(...health.unready.map((u) => u.member));
  // Members whose volume did not show in the volume list yet, or adopted ones, learn its id.
  if (inputs.volume || olds?.volume) [run.members, dead] = await withVolumeIds(client, run.members, dead);
  // Past the deadline the fleet rents, rolls and heals nothing: its members are left to their
  // guards, those gone are dropped (guard.ts).
  if (fleetExpired(fleetKey, news, now)) {
    const kept = [...run.members, ...dead.filter((m) => m.status !== "gone")];
    return { ...fleetOutputs(fleetKey, kept, run.badHosts), expired: true };
  }
  // wake changed: members their guard stopped are started again (guard.ts); from here on they
  // count as booting, so the budget counts them at their price and the run waits for them.
  const waking = wakeChanged(olds, news) ? run.members.filter((m) => m.stoppedBy === "autostop" || m.stoppedBy === "ttl") : [];
  run.members = run.members.map((m) => (waking.includes(m) ? { ...m, status: "loading", stoppedBy: null } : m));
  // 2. the plan
  const excess = [...run.members].sort(removalOrder).slice(0, Math.max(0, run.members.length - inputs.count));
  const kept = run.members.filter((m) => !excess.includes(m));
  const stale = kept.filter((m) => m.spec !== run.spec);
  const inPlace = stale.filter((m) => isHealthy(m) && updatableInPlace(m, olds, news));
  const replaced = stale.filter((m) => !inPlace.includes(m));
  const current = kept.filter((m) => m.spec === run.spec);
  const need = inputs.count - kept.length;
  const booting = current.filter(isBooting);
  inPlace.forEach((m) => run.staying.add(m.id));
  for (const m of dead) if (m.status !== "gone") remember(run, m.machineId);
  // 3. offers and the budget, before anything is rented or destroyed
  // With minHealthy = count an in-place roll makes one spare member first (inplace.ts); it takes
  // the place of the last member, which is destroyed instead of updated.
  const spare = inPlace.length > 0 && minHealthyOf(inputs) >= inputs.count ? 1 : 0;
  const wanted = need + replaced.length + spare;
  const updatedKept = inPlace.slice(0, inPlace.length - spare);
  if (wanted > 0 || inPlace.length > 0) {
    // The disk the members are rented with is the disk the search prices (instance/offers.ts).
    run.diskGb = await diskToRent(client, inputs);
    // Offers the members hold are taken even when this process never claimed them (an earlier run).
    const held = new Set([...run.members, ...dead].map((m) => m.offerId));
    // Enough candidates to replace every in-place member whose machine refuses the update.
    run.candidates = (await searchCandidates(client, { ...inputs, diskGb: run.diskGb }, wanted + inPlace.length + held.size)).filter((c) => !held.has(c.id));
    run.reserved = pickOffers(client, inputs, run.candidates, wanted, [...current, ...inPlace], badSet(run));
    run.reserved.forEach((c) => run.tried.add(c.id));
    if (run.reserved.length < wanted) {
      const found = run.reserved.length;
      releaseReserved(run);
      throw new Error(
        `Fleet: ${wanted} offer(s) are needed but only ${found} match the offer filters ${JSON.stringify(inputs.offer)}` +
          `${inputs.volume ? ` on a machine with a volume offer of ${inputs.volume.size} GB free (volume)` : ""}` +
          `${inputs.maxPricePerHour === undefined ? "" : `, maxPricePerHour ${inputs.maxPricePerHour}`}` +
          `${inputs.spread ? `, spread at most ${inputs.spread.max} per ${inputs.spread.by}` : ""} and the machines avoided (badHosts)` +
          `${spare > 0 ? `; ${wanted} counts 1 spare member the roll adds first because minHealthy is count (${inputs.count}): set minHealthy: count - 1 (${inputs.count - 1}) to roll without it, or ` : "; "}` +
          `widen the filters or lower count; nothing was rented`,
      );
    }
  }
  if (inputs.maxHourlyCost !== undefined) {
    // The peak of the run: the member a spare stands in for runs beside it until the roll ends;
    // without room to destroy first (minHealthy = count), an old member runs beside its replacement.
    const alongside = spare > 0 ? inPlace.slice(inPlace.length - spare) : [];
    const oldRunning = replaced.filter(isHealthy).sort((a, b) => memberCost(b) - memberCost(a));
    if (oldRunning.length > 0 && minHealthyOf(inputs) >= inputs.count) alongside.push(oldRunning[0]);
    const p = projection([...current, ...updatedKept], run.reserved, alongside);
    if (p.total > inputs.maxHourlyCost + 1e-9) {
      releaseReserved(run);
      throw new BudgetError(
        `${run.name}: the projected cost ${p.total} $/hour exceeds maxHourlyCost ${inputs.maxHourlyCost} ($/hour): ${p.breakdown}; nothing was rented`,
      );
    }
  }
  // 4. the plan runs
  try {
    for (const m of waking) {
      // Within the stack's budget (kit/stack-budget.ts): the start adds its running price less its disk.
      await withinStackBudget(client, m.marker, `Fleet: starting member ${m.id} again (wake)`, Math.max(0, m.pricePerHour - m.storagePerHour), () => client.instances.start(m.id), () => ({ instance: m.id }));
      run.changed = true;
    }
    // Removals and new rentals run at once: they use different endpoints, each paced on its own.
    // Members still booting (left by a killed run, or by one whose wait ran out) are waited for
    // with the new ones: only a wait that runs out says they are not running.
    const first = (await Promise.allSettled([...[...dead, ...excess].map((m) => remove(run, m)), grow(run, need), settleBooting(run, booting)])).find(
      (r): r is PromiseRejectedResult => r.status === "rejected",
    );
    if (first) throw first.reason;
    await roll(run, replaced, inPlace);
    if (olds && !deepEqual(olds.label, news.label)) {
      for (const m of run.members) if (m.spec === run.spec) await client.instances.setLabel(m.id, memberLabel(news, fleetKey));
    }
  } catch (error) {
    releaseReserved(run);
    // A budget failure names the fleet itself (budget.ts).
    const message = error instanceof BudgetError ? error.message : `Fleet: ${(error as Error).message}`;
    // Nothing rented, destroyed or adopted: the state as it was stays right.
    if (!run.changed) throw error instanceof BudgetError ? error : new Error(message, { cause: error });
    const also = run.volumesLeft.length > 0 ? `; also ${volumesLeftText(run)}` : "";
    throw new PartialFailure(`${message}${also}`, fleetKey, news, outputsOf(run));
  }
  releaseReserved(run);
  const outs: Props = { ...outputsOf(run), ...(typeof news.deadline === "string" ? { expired: false } : {}) };
  if (run.volumesLeft.length > 0) throw new PartialFailure(`Fleet: ${volumesLeftText(run)}`, fleetKey, news, outs);
  // Members their guard stopped are not late: they stay stopped (guard.ts).
  const late = run.members.filter((m) => !isHealthy(m) && m.stoppedBy !== "autostop" && m.stoppedBy !== "ttl");
  if (late.length > 0 && (wanted > 0 || inPlace.length > 0 || booting.length > 0)) {
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
  const placed = [...run.members.filter((m) => m.spec === run.spec || run.staying.has(m.id)), ...placedBesides];
  const [more] = pickOffers(run.client, run.inputs, run.candidates.filter((c) => !run.tried.has(c.id)), 1, placed, badSet(run));
  if (more) run.tried.add(more.id);
  return more;
}

/** The members, those rented in this batch moved after the others in the order their offers were chosen. */
function inPickOrder(members: readonly Member[], picked: ReadonlyMap<number, number>): Member[] {
  const earlier = members.filter((m) => !picked.has(m.id));
  const fresh = members.filter((m) => picked.has(m.id)).sort((a, b) => (picked.get(a.id) ?? 0) - (picked.get(b.id) ?? 0));
  return [...earlier, ...fresh];
}

/** Rents `n` members and waits for them; dead boots are destroyed and rented again elsewhere. */
async function grow(run: Run, n: number): Promise<Member[]> {
  const ready: Member[] = [];
  let toRent = n;
  for (let attempt = 1; toRent > 0; attempt++) {
    // The rentals go out together: the client's pacer spaces them at the service's interval.
    const pending: Candidate[] = [];
    const watch = new BootWatch(run.client);
    // The order offers were chosen in (cheapest first): members are recorded in it, not in the
    // order the service answers the rentals, so that equal runs record equal state.
    const picked = new Map<number, number>();
    let picks = 0;
    const rentSlot = async (): Promise<Member> => {
      for (;;) {
        const offer = nextOffer(run, pending);
        if (!offer) throw new Error(`no further offer matches the filters, price cap, spread and bad-host memory (${n} member(s) wanted)`);
        // Every rental of the run keeps the fleet within maxHourlyCost, counting what runs now.
        const over = overBudget(run, offer);
        if (over) {
          release(run.client, offer.id);
          throw over;
        }
        pending.push(offer);
        run.inflight.push(offer);
        const pick = picks++;
        try {
          const member = await rentMember(run.client, { ...run.props, diskGb: run.diskGb || run.props.diskGb }, offer, `${run.prefix}${offer.id}`, run.spec);
          picked.set(member.id, pick);
          run.members.push(member);
          run.changed = true;
          watch.add(member);
          return member;
        } catch (error) {
          pending.splice(pending.indexOf(offer), 1);
          if (!isOfferGone(error)) {
            release(run.client, offer.id);
            throw new Error(`renting offer ${offer.id} failed: ${(error as Error).message}`, { cause: error });
          }
          // Taken by someone else: the claim stays (nobody here can rent it), the next offer is tried.
        } finally {
          run.inflight.splice(run.inflight.indexOf(offer), 1);
        }
      }
    };
    const settled = await Promise.allSettled(Array.from({ length: toRent }, rentSlot));
    run.members = inPickOrder(run.members, picked);
    const batch = settled.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
    // What the service charges, read back: members that bring the fleet over are destroyed.
    await checkCharged(run, batch);
    if (failed) throw failed.reason;
    let results = await waitUntilReady(run.client, batch, run.inputs, watch);
    if (run.inputs.volume !== undefined) {
      // The new members' volume ids (one volume list call), so that one that died takes its volume along.
      const [filled] = await withVolumeIds(run.client, results.map((r) => r.member));
      results = results.map((r, i) => ({ ...r, member: filled[i] }));
    }
    toRent = 0;
    let containerFailure: string | undefined;
    for (const r of results) {
      run.members = run.members.map((m) => (m.id === r.member.id ? r.member : m));
      if (r.outcome === "running" || r.outcome === "timeout") {
        ready.push(r.member);
        continue;
      }
      // A container that cannot start (bad image or entrypoint) is no fault of the machine.
      if (r.fatal?.about !== "container") remember(run, r.member.machineId);
      // Dead, or running but never ready (health.ts): destroyed; either way its volume goes with it.
      await remove(run, r.member);
      if (r.fatal?.about === "container") containerFailure ??= withoutStartCommand(r.fatal.message, run.inputs);
      toRent++;
    }
    if (containerFailure !== undefined) {
      throw new Error(
        `a member cannot start (the image or its entrypoint): the service says "${containerFailure}"; it was destroyed. ` +
          "Fix the image, onstart or args and run again",
      );
    }
    if (toRent > 0 && attempt >= run.inputs.maxCreateAttempts) {
      throw new Error(
        `${toRent} member(s) died or never became ready while booting in each of ${attempt} attempt(s) (maxCreateAttempts); their machines are avoided (badHosts)`,
      );
    }
  }
  return ready;
}

/**
 * With maxHourlyCost: reads back what the service charges for `batch` (its instance rows'
 * dph_total, 25 per list call). When the fleet then costs more than the budget, members of the
 * batch are destroyed, the most expensive first, until it fits, and the run fails naming them.
 */
async function checkCharged(run: Run, batch: Member[]): Promise<void> {
  const budget = run.inputs.maxHourlyCost;
  if (budget === undefined || batch.length === 0) return;
  const charged = await readBackPrices(run.client, batch);
  run.members = run.members.map((m) => charged.get(m.id) ?? m);
  const before = liveProjection(run);
  if (before.total <= budget + 1e-9) return;
  const destroyed: Member[] = [];
  for (const m of batch.map((b) => charged.get(b.id) ?? b).sort((a, b) => memberCost(b) - memberCost(a))) {
    if (liveProjection(run).total <= budget + 1e-9) break;
    await remove(run, m);
    destroyed.push(m);
  }
  throw budgetFailure(run, before, destroyed, batch);
}

/**
 * Rolls members made with other inputs, keeping at least `minHealthy` healthy. Those that are
 * not healthy count for nothing: they are replaced first. Then `inPlace` members are updated in
 * place (rollInPlace); one whose machine refuses is replaced with the rest of `replaced`.
 */
async function roll(run: Run, replaced: Member[], inPlace: Member[]): Promise<void> {
  const min = minHealthyOf(run.inputs);
  const down = replaced.filter((m) => !isHealthy(m));
  for (const m of down) await remove(run, m);
  if (down.length > 0) await grow(run, down.length);
  const refused = await rollInPlace(run, inPlace, min);
  await rollByReplacement(run, [...replaced.filter(isHealthy), ...refused], min);
}

/**
 * Replaces members keeping at least `min` healthy: members beyond `min` are replaced in one
 * batch (destroyed first), else one new member is made before one old is destroyed.
 */
async function rollByReplacement(run: Run, stale: Member[], min: number): Promise<void> {
  let left = [...stale];
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

/**
 * Updates `members` in place, at most (healthy - min) at once, each batch waited for until it
 * runs and is ready again. Without that room (min = count) one spare member is made first and
 * the last member is destroyed at the end instead of updated (inplace.ts says why). Returns the
 * members whose machine refused the update (unchanged, still running).
 */
async function rollInPlace(run: Run, members: Member[], min: number): Promise<Member[]> {
  const refused: Member[] = [];
  const healthy = () => run.members.filter(isHealthy).length;
  let left = [...members];
  let spared: Member | undefined;
  while (left.length > 0) {
    if (inPlaceBatch(healthy(), min, left.length) === 0 && !spared) {
      spared = left.pop();
      await grow(run, 1);
      if (left.length === 0) break;
    }
    const n = inPlaceBatch(healthy(), min, left.length);
    if (n === 0) {
      throw new Error(
        `the in-place roll stopped: updating a member needs more than minHealthy (${min}) healthy members and ${healthy()} are; ` +
          `members ${left.map((m) => m.id).join(", ")} keep the old inputs until the next \`pulumi up\``,
      );
    }
    const batch = left.slice(0, n);
    left = left.slice(n);
    const sent: Member[] = [];
    for (const m of batch) {
      const outcome = await updateMember(run.client, m, run.olds ?? {}, run.props);
      if (outcome === "sent") {
        run.changed = true;
        sent.push(m);
        continue;
      }
      warnOnce(
        `fleet-refused-${m.id}`,
        `Fleet ${run.fleetKey}: machine ${m.machineId ?? "?"} refused the in-place update of member ${m.id} (${scrub(outcome.refused)}); it is replaced by a new rental`,
      );
      run.staying.delete(m.id);
      refused.push(m);
    }
    await settleUpdated(run, sent);
  }
  if (spared) await remove(run, spared);
  return refused;
}

/** Booting: neither running nor stopped, nor dead (those are replaced). */
function isBooting(m: Member): boolean {
  return m.status !== "running" && m.status !== "stopped" && readStatus(m.id, m.status).kind !== "dead";
}

/**
 * Waits for kept members that are still booting (adopted from a killed run, or left booting by
 * an earlier wait); one that dies or never becomes ready is destroyed and rented again, as a
 * new member's failed boot is.
 */
async function settleBooting(run: Run, members: Member[]): Promise<void> {
  if (members.length === 0) return;
  const results: HealthResult[] = await waitUntilReady(run.client, members, run.inputs);
  let lost = 0;
  for (const r of results) {
    if (r.outcome === "running" || r.outcome === "timeout") {
      run.members = run.members.map((m) => (m.id === r.member.id ? r.member : m));
      continue;
    }
    remember(run, r.member.machineId);
    await remove(run, r.outcome === "gone" ? { ...r.member, status: "gone" } : r.member);
    lost++;
  }
  if (lost > 0) await grow(run, lost);
}

/** Waits for members updated in place; one that dies or never becomes ready is handled as a dead boot. */
async function settleUpdated(run: Run, sent: Member[]): Promise<void> {
  if (sent.length === 0) return;
  const results: HealthResult[] = await waitUntilReady(run.client, sent, run.inputs);
  let lost = 0;
  for (const r of results) {
    const member = { ...r.member, spec: run.spec };
    if (r.outcome === "running" || r.outcome === "timeout") {
      run.members = run.members.map((m) => (m.id === member.id ? member : m));
      continue;
    }
    remember(run, member.machineId);
    if (r.outcome !== "gone") await destroyMember(run.client, member.id, member.offerId);
    run.members = run.members.filter((m) => m.id !== member.id);
    run.staying.delete(member.id);
    lost++;
  }
  if (lost > 0) await grow(run, lost);
}
