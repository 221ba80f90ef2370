/**
 * The fleet's budget (`maxHourlyCost`) for every rental of a run, not only the first offers
 * chosen: before each rental (offers taken between search and rent, members dead at boot and
 * rented again, machines refusing an in-place update, the spare of a roll) the fleet's $/hour now
 * (its members, the offers being rented, and the offer about to be) must stay within it; after a
 * batch is rented, what the service charges is read back from the instance rows (`dph_total`,
 * with the disk rented), and members that bring the fleet over are destroyed before the run
 * fails. A failure names the fleet, the budget, the projection and its breakdown.
 */
import type { VastClient } from "../../client";
import type { Candidate } from "./claims";
import { type Member, refreshed } from "./members";
import { memberCost, round6 } from "./outputs";

export class BudgetError extends Error {}

/** What the guard needs of a run (reconcile.ts). */
export interface BudgetRun {
  client: VastClient;
  inputs: { maxHourlyCost?: number };
  members: Member[];
  inflight: Candidate[];
  name: string;
}

const offerCost = (o: Candidate) => o.pricePerHour + (o.volumePerHour ?? 0);
const listed = <T>(items: readonly T[], text: (t: T) => string) =>
  items.length === 0 ? "" : ` (${items.slice(0, 10).map(text).join(", ")}${items.length > 10 ? `, and ${items.length - 10} more` : ""})`;

/** The fleet's $/hour now (members and offers being rented), with `extra` about to be rented. */
export function liveProjection(run: BudgetRun, extra?: Candidate): { total: number; breakdown: string } {
  const members = run.members.reduce((s, m) => s + memberCost(m), 0);
  const renting = run.inflight.reduce((s, o) => s + offerCost(o), 0);
  const parts = [
    `${run.members.length} member(s) ${round6(members)}${listed(run.members, (m) => `member ${m.id} ${round6(memberCost(m))}`)}`,
    `${run.inflight.length} offer(s) being rented ${round6(renting)}${listed(run.inflight, (o) => `offer ${o.id} ${round6(offerCost(o))}`)}`,
  ];
  if (extra) parts.push(`offer ${extra.id} ${round6(offerCost(extra))}`);
  return { total: round6(members + renting + (extra ? offerCost(extra) : 0)), breakdown: parts.join(" + ") };
}

/** The error for renting `offer` when that would take the fleet over its budget; undefined within it. */
export function overBudget(run: BudgetRun, offer: Candidate): BudgetError | undefined {
  const budget = run.inputs.maxHourlyCost;
  if (budget === undefined) return undefined;
  const p = liveProjection(run, offer);
  if (p.total <= budget + 1e-9) return undefined;
  return new BudgetError(
    `${run.name}: renting offer ${offer.id} (${round6(offerCost(offer))} $/hour) would bring the fleet to ${p.total} $/hour, over ` +
      `maxHourlyCost ${budget} ($/hour): ${p.breakdown}; it was not rented. ${kept(run)}`,
  );
}

function kept(run: BudgetRun): string {
  return run.members.length === 0
    ? "Nothing of this run is left running"
    : `The fleet's ${run.members.length} member(s) are kept in state; raise maxHourlyCost, lower count or narrow the offer filters and run again`;
}

/** The members of `batch` as the service lists them now (its `dph_total` is what it charges), 25 per call. */
export async function readBackPrices(client: VastClient, batch: readonly Member[]): Promise<Map<number, Member>> {
  const live = await client.instances.listAll(25, { filters: { id: { in: batch.map((m) => m.id) } } });
  const byId = new Map(live.map((i) => [i.id, i]));
  return new Map(batch.map((m) => {
    const instance = byId.get(m.id);
    return [m.id, instance ? refreshed(m, instance) : { ...m, status: "gone" }];
  }));
}

/** The error after a read-back found the fleet over budget and destroyed `destroyed` (of `batch`, as rented). */
export function budgetFailure(run: BudgetRun, before: { total: number; breakdown: string }, destroyed: readonly Member[], batch: readonly Member[]): BudgetError {
  const searched = new Map(batch.map((m) => [m.id, m.pricePerHour]));
  const charged = listed(destroyed, (m) => `member ${m.id} on offer ${m.offerId}: charged ${round6(m.pricePerHour)}, offered at ${round6(searched.get(m.id) ?? m.pricePerHour)}`);
  return new BudgetError(
    `${run.name}: the service charges more than the search showed: with the new member(s) the fleet costs ${before.total} $/hour, over ` +
      `maxHourlyCost ${run.inputs.maxHourlyCost} ($/hour): ${before.breakdown}; ${destroyed.length} new member(s) were destroyed${charged}. ${kept(run)}`,
  );
}
