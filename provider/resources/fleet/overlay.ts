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
import { clusterOf, overlayClusterProblem } from "./overlay-cluster";

async function overlayNamed(client: VastClient, name: string): Promise<Overlay> {
  const overlay = (await client.clusters.overlays()).find((o) => o.name === name);
  if (!overlay) throw new Error(`Fleet: overlay: the account has no overlay named ${JSON.stringify(name)} (create it first, e.g. with an Overlay resource)`);
  return overlay;
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
