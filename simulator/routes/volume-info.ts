/** `volume_info` of the instance-creation body (spec: volume_info). */
import type { SimContext } from "../context";
import { checkVolumeLink, checkVolumeSpace, rentVolume, volumeOfferGone, volumeOfferSeed } from "../domain/volumes";
import { invalidArgs, notFound, show } from "../http/errors";
import { optObject, type Body } from "../http/validate";

export function checkVolumeInfo(body: Body): void {
  const v = optObject(body, "volume_info");
  if (!v) return;
  if (typeof v.create_new !== "boolean") {
    throw invalidArgs(`volume_info.create_new must be true or false (got ${show(v.create_new)})`);
  }
  if (!Number.isInteger(v.volume_id)) {
    throw invalidArgs(`volume_info.volume_id must be an integer (got ${show(v.volume_id)})`);
  }
  if (v.create_new && (!Number.isInteger(v.size) || (v.size as number) <= 0)) {
    throw invalidArgs(`volume_info.size must be a positive integer of GB when create_new is true (got ${show(v.size)})`);
  }
  if (typeof v.mount_path !== "string" || !v.mount_path.startsWith("/")) {
    throw invalidArgs(`volume_info.mount_path must be an absolute path inside the container (got ${show(v.mount_path)})`);
  }
}

/**
 * The volume of an instance creation, checked before anything is made: a linked volume
 * (`create_new: false`) must be the caller's and, when local, on the offer's machine; a new one
 * (`create_new: true`, `volume_id` a volume offer) must come from a local volume offer on the
 * offer's machine with `size` GB left. Returns what makes the new volume (once the instance is
 * made) and gives the id the instance uses; undefined without `volume_info`.
 */
export function instanceVolume(ctx: SimContext, userId: number, body: Body, machineId: number): (() => number) | undefined {
  const v = optObject(body, "volume_info");
  if (!v) return undefined;
  const id = v.volume_id as number;
  if (v.create_new === false) {
    checkVolumeLink(ctx.store, userId, id, machineId);
    return () => id;
  }
  const offer = volumeOfferSeed(id);
  if (!offer || offer.kind !== "local" || volumeOfferGone(ctx.store, id)) {
    throw notFound("no_such_ask", `volume_info.volume_id ${id}: no local volume offer by that id is available.`);
  }
  if (offer.machineId !== machineId) {
    throw invalidArgs(`volume_info.volume_id ${id} is a volume offer on machine ${String(offer.machineId)}; a new volume must be on the instance's machine (${machineId})`);
  }
  const size = v.size as number;
  checkVolumeSpace(ctx.store, offer, size, "volume_info.size");
  // Like every volume, it is a rental of its own: the instance's destroy leaves it.
  return () => rentVolume(ctx, userId, offer, size, typeof v.name === "string" ? v.name : "").id;
}
