/**
 * Volumes as the service shows them, the space left on a volume offer, the instances that use
 * a volume, and the rule for linking one at instance creation.
 */
import type { SimContext } from "../context";
import { apiError, invalidArgs } from "../http/errors";
import { VOLUME_OFFER_SEEDS, type VolumeOfferSeed } from "../seed/volume-offers";
import type { Store } from "../store/store";
import type { InstanceRecord } from "../store/types";
import type { VolumeRecord } from "../store/volume-types";
import { instanceStatus } from "./instance-view";
import { listedOffer } from "./volume-listings";
import { countryCode } from "./offers";

const HOURS_PER_MONTH = 30 * 24;

/** A seeded volume offer, or (given the context) a host's listing that is listed. */
export function volumeOfferSeed(id: number, ctx?: SimContext): VolumeOfferSeed | undefined {
  return VOLUME_OFFER_SEEDS.find((o) => o.id === id) ?? (ctx ? listedOffer(ctx, id) : undefined);
}

export function volumeOfferGone(store: Store, id: number): boolean {
  return store.data.volumes.offerStates[String(id)] === "gone";
}

/** GB of the offer not yet taken by volumes (of any account). */
export function freeSpace(store: Store, o: VolumeOfferSeed): number {
  const used = store.data.volumes.items.filter((v) => v.offerId === o.id).reduce((sum, v) => sum + v.sizeGb, 0);
  return o.diskSpace - used;
}

/** Instances that use this volume: linked at creation, or made with it (state files before `volumeId`: linked ones). */
export function instancesUsing(store: Store, volumeId: number): InstanceRecord[] {
  return store.data.instances.filter((i) => (i.volumeId ?? (i.volumeInfo?.create_new === false ? i.volumeInfo.volume_id : undefined)) === volumeId);
}

/** Refuses a volume of `sizeGb` from `offer` when the offer has less space left. */
export function checkVolumeSpace(store: Store, offer: VolumeOfferSeed, sizeGb: number, field = "size"): void {
  const free = freeSpace(store, offer);
  if (sizeGb > free) throw invalidArgs(`${field} ${sizeGb} GB is more than the ${free} GB left on volume offer ${offer.id}`);
}

/** Rents a volume of `sizeGb` from `offer` (checked by the caller) for `userId`. */
export function rentVolume(ctx: SimContext, userId: number, offer: VolumeOfferSeed, sizeGb: number, name: string): VolumeRecord {
  const v: VolumeRecord = {
    id: ctx.store.data.volumes.nextId++,
    userId,
    kind: offer.kind,
    offerId: offer.id,
    machineId: offer.machineId,
    clusterId: offer.clusterId,
    name,
    sizeGb,
    createdAt: ctx.now(),
  };
  ctx.store.data.volumes.items.push(v);
  return v;
}

export function volumeOfferView(store: Store, o: VolumeOfferSeed, allocatedGb: number): Record<string, unknown> {
  return {
    id: o.id,
    ask_contract_id: o.id,
    machine_id: o.machineId,
    host_id: o.hostId,
    cluster_id: o.clusterId,
    disk_space: freeSpace(store, o),
    storage_cost: o.storageCost,
    storage_total_cost: Math.round(((o.storageCost * allocatedGb) / HOURS_PER_MONTH) * 1e9) / 1e9,
    reliability: o.reliability,
    reliability2: o.reliability,
    verified: o.verified,
    verification: o.verified ? "verified" : "unverified",
    geolocation: o.geolocation,
    geolocode: countryCode(o.geolocation),
    inet_down: o.inetDown,
    inet_up: Math.round(o.inetDown / 2),
    duration: o.duration,
    external: false,
    static_ip: true,
    score: Math.round((o.reliability * 1000) / o.storageCost) / 100,
    ...(o.kind === "network" ? { nw_disk_min_bw: 200, nw_disk_avg_bw: 800, nw_disk_max_bw: 1500 } : {}),
  };
}

export function volumeView(ctx: SimContext, v: VolumeRecord): Record<string, unknown> {
  const o = volumeOfferSeed(v.offerId, ctx);
  return {
    id: v.id,
    type: v.kind === "network" ? "network_volume" : "local_volume",
    label: v.name || null,
    disk_space: v.sizeGb,
    status: "active",
    // The document types machine_id as an integer: a network volume (no machine) leaves it out.
    ...(v.machineId === null ? {} : { machine_id: v.machineId }),
    cluster_id: v.clusterId,
    host_id: o?.hostId,
    geolocation: o?.geolocation,
    reliability2: o?.reliability,
    verification: o?.verified ? "verified" : "unverified",
    storage_total_cost: o ? Math.round(((o.storageCost * v.sizeGb) / HOURS_PER_MONTH) * 1e9) / 1e9 : null,
    start_date: v.createdAt / 1000,
    // The document lists the instances using a volume as objects.
    instances: instancesUsing(ctx.store, v.id).map((i) => ({ id: i.id, actual_status: instanceStatus(ctx, i) })),
  };
}

/**
 * Linking a volume at instance creation: it must be the caller's, and a local volume can only
 * be used on its own machine (a network volume on any machine in this simulator).
 */
export function checkVolumeLink(store: Store, userId: number, volumeId: number, machineId: number): void {
  const v = store.data.volumes.items.find((x) => x.id === volumeId && x.userId === userId);
  if (!v) throw apiError(404, "no_such_volume", `volume_info.volume_id ${volumeId}: Volume with that ID does not exist.`);
  if (v.kind === "local" && v.machineId !== machineId) {
    throw invalidArgs(`volume_info.volume_id ${volumeId} is a local volume on machine ${v.machineId}; rent an offer on that machine (this offer is on machine ${machineId})`);
  }
}
