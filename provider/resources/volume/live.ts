/**
 * The shared reader of volumes (`GET /api/v0/volumes/?owner=me&type=all_volume`): a refresh of
 * many Volume and NetworkVolume resources makes one list call.
 */
import type { VastClient, Volume } from "../../client";
import { getClient } from "../../context";
import { readerFor, type SharedList } from "../kit";

/** Volumes of the account, both kinds, by id. */
export function liveVolumes(client: VastClient = getClient()): SharedList<Volume> {
  return readerFor<Volume>(client, "volumes", (c) => ({
    fetchAll: () => c.volumes.list("all"),
    keyOf: (v) => String(v.id),
  }));
}
