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

/** Refuses an overlay the account does not have before anything is rented. */
export async function requireOverlay(client: VastClient, name: unknown): Promise<void> {
  if (typeof name === "string" && name !== "") await overlayNamed(client, name);
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
