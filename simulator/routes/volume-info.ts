/** `volume_info` of the instance-creation body (spec: volume_info). */
import type { SimContext } from "../context";
import { checkVolumeLink } from "../domain/volumes";
import { invalidArgs, show } from "../http/errors";
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

/** A linked volume (`create_new: false`) must be the caller's and, when local, on the offer's machine. */
export function linkVolume(ctx: SimContext, userId: number, body: Body, machineId: number): void {
  const v = optObject(body, "volume_info");
  if (v && v.create_new === false) checkVolumeLink(ctx.store, userId, v.volume_id as number, machineId);
}
