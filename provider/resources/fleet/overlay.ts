/**
 * A fleet's `overlay`: every member joins the overlay network of that name once it runs
 * (`PUT /api/v0/overlay/`, by name, as the service joins). A member removed (scale-in, heal,
 * roll, destroy) is destroyed, which takes it off the overlay; its replacement joins when it
 * runs. The service has no call to leave an overlay, so a change of `overlay` replaces the
 * members (inputs.ts: a spec key) rather than moving them.
 */
import type { Overlay, VastClient } from "../../client";
import type { Props } from "../kit";
import { storedMembers } from "./outputs";

async function overlayNamed(client: VastClient, name: string): Promise<Overlay> {
  const overlay = (await client.clusters.overlays()).find((o) => o.name === name);
  if (!overlay) throw new Error(`Fleet: overlay: the account has no overlay named ${JSON.stringify(name)} (create it first, e.g. with an Overlay resource)`);
  return overlay;
}

/**
 * The one cluster `offer.clusterId` names (a number, or `{eq: n}`), or why not. An overlay is
 * local networking on one physical cluster: a member rented elsewhere cannot join it, and
 * bills all the same, so a fleet with an overlay rents only on the overlay's cluster.
 */
export function overlayClusterProblem(overlay: unknown, offer: unknown): string | undefined {
  if (typeof overlay !== "string" || overlay === "") return undefined;
  const given = offer !== null && typeof offer === "object" ? (offer as Record<string, unknown>).clusterId : undefined;
  const why = `overlay ${JSON.stringify(overlay)} is local networking on one physical cluster: members rented on other clusters cannot join it and bill all the same`;
  if (given === undefined || given === null) return `is required with overlay: ${why}; give the overlay's cluster id (its clusterId, or the Cluster it was made on)`;
  if (clusterOf(given) === undefined) return `must name the overlay's one cluster (a cluster id, or {eq: id}) with overlay: ${why}`;
  return undefined;
}

function clusterOf(condition: unknown): number | undefined {
  if (typeof condition === "number") return condition;
  if (condition !== null && typeof condition === "object" && !Array.isArray(condition)) {
    const ops = Object.entries(condition as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (ops.length === 1 && ops[0][0] === "eq" && typeof ops[0][1] === "number") return ops[0][1];
  }
  return undefined;
}

/**
 * Refuses, before anything is rented, an overlay the account does not have, and an
 * `offer.clusterId` that is not the overlay's cluster (members there could not join it).
 */
export async function requireOverlay(client: VastClient, name: unknown, offer?: unknown): Promise<void> {
  if (typeof name !== "string" || name === "") return;
  const overlay = await overlayNamed(client, name);
  const problem = overlayClusterProblem(name, offer);
  if (problem) throw new Error(`Fleet: offer.clusterId ${problem}`);
  const cluster = clusterOf((offer as Record<string, unknown>).clusterId);
  if (cluster !== overlay.clusterId) {
    throw new Error(
      `Fleet: offer.clusterId is ${cluster}, but overlay ${JSON.stringify(name)} is on cluster ${overlay.clusterId}: ` +
        `members rented on cluster ${cluster} could not join it; set offer.clusterId to ${overlay.clusterId}`,
    );
  }
}

/** Running members of the fleet's outputs not yet on its overlay. */
function runningOff(outs: Props, overlay: Overlay): number[] {
  return storedMembers(outs)
    .filter((m) => m.status === "running" && !overlay.instanceIds.includes(m.id))
    .map((m) => m.id);
}

/** Joins every running member not on the overlay yet; returns the ids joined. */
export async function joinOverlay(client: VastClient, name: unknown, outs: Props): Promise<number[]> {
  if (typeof name !== "string" || name === "") return [];
  const overlay = await overlayNamed(client, name);
  const joined: number[] = [];
  for (const id of runningOff(outs, overlay)) {
    try {
      await client.clusters.joinOverlay(name, id);
    } catch (error) {
      throw new Error(`Fleet: overlay: member ${id} could not join overlay ${JSON.stringify(name)}: ${(error as Error).message}; the next \`pulumi up\` tries again`, { cause: error });
    }
    joined.push(id);
  }
  return joined;
}

/** Whether a running member is off the overlay (the diff then asks for an update, which joins it). */
export async function membersOffOverlay(client: VastClient, name: unknown, props: Props): Promise<boolean> {
  if (typeof name !== "string" || name === "") return false;
  const overlay = (await client.clusters.overlays()).find((o) => o.name === name);
  return overlay === undefined || runningOff(props, overlay).length > 0;
}
