/** Outputs of the Fleet resource: the members, what they cost, how many are healthy, the machines avoided. */
import { Props } from "../kit";
import { hourlyCostOf, round6 } from "../kit/costs";
import { isHealthy } from "./health";
import type { Member } from "./members";
import { volumeCostOf } from "./volumes";

export const FLEET_OUTPUT_KEYS: readonly string[] = ["fleetKey", "members", "hourlyCost", "spentUsd", "spendSince", "healthy", "badHosts", "specKey", "deadline", "expired"];

/**
 * A member's $/hour now, by the rule every cost output and the cost report share
 * (kit/costs.ts): its disk alone while stopped, nothing once dead, its price otherwise; plus its
 * volume's storage in every state (a volume bills until the fleet deletes it).
 */
export function memberCost(m: Pick<Member, "status" | "pricePerHour" | "storagePerHour"> & Partial<Pick<Member, "volumePerHour">>): number {
  return hourlyCostOf({ status: m.status, pricePerHour: m.pricePerHour, storagePerHour: m.storagePerHour, volumePerHour: volumeCostOf(m) });
}

export { round6 };

/** Machines still avoided at `now` (expired entries dropped). */
export function liveBadHosts(stored: unknown, now: number): Record<string, number> {
  const out: Record<string, number> = {};
  if (stored && typeof stored === "object") {
    for (const [machine, until] of Object.entries(stored as Record<string, unknown>)) {
      if (typeof until === "number" && until > now) out[machine] = until;
    }
  }
  return out;
}

export function fleetOutputs(fleetKey: string, members: readonly Member[], badHosts: Record<string, number>): Props {
  return {
    fleetKey,
    // State written before readiness existed has no `ready`: null, as without readiness.
    members: members.map((m) => ({ ...m, ready: m.ready ?? null })),
    hourlyCost: round6(members.reduce((sum, m) => sum + memberCost(m), 0)),
    healthy: members.filter(isHealthy).length,
    badHosts,
  };
}

/** Members as state holds them (entries that do not look like members are dropped). */
export function storedMembers(props: Props): Member[] {
  const raw = props.members;
  if (!Array.isArray(raw)) return [];
  return raw.filter((m): m is Member => !!m && typeof m === "object" && typeof (m as Member).id === "number");
}
