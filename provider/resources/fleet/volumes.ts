/**
 * Members' volumes (the `volume` input): every member gets a new volume of its own, rented with
 * the member (Instance's createBody sends `volume_info`) from a local volume offer on the
 * member's machine, since a new volume can only be made there. So only offers on machines
 * that have such a volume offer, with `size` GB free, are rented.
 *
 * The instance record shows only the request's `volume_info` (the volume offer, not the volume
 * made from it), so the volume a member uses is read from the account's volume list, whose rows
 * name the instances using each volume: one list call per batch of members. The fleet owns the
 * volumes: a member's volume is deleted once its instance is destroyed.
 */
import type { VastClient, VolumeOffer } from "../../client";
import { deleteInstanceVolume, volumesByInstance } from "../kit/instance-volumes";
import type { VolumeInput } from "../instance/inputs";
import type { Candidate } from "./candidate";
import type { FleetInputs } from "./inputs";
import type { FleetMember as Member } from "./member";

export type FleetVolumeInput = NonNullable<FleetInputs["volume"]>;

/** Hours in the month that volume prices ($ per GB per month) are quoted for. */
const HOURS_PER_MONTH = 30 * 24;

/** A member's volume id; members recorded before volumes existed hold none. */
export const volumeIdOf = (m: Partial<Pick<Member, "volumeId">>): number | null => (typeof m.volumeId === "number" ? m.volumeId : null);

/** $/hour of a member's volume (0 without one). */
export const volumeCostOf = (m: Partial<Pick<Member, "volumePerHour">>): number => (typeof m.volumePerHour === "number" ? m.volumePerHour : 0);

function perHour(o: VolumeOffer, sizeGb: number): number {
  if (o.storageTotalCostPerHour !== null) return o.storageTotalCostPerHour;
  return o.storageCostPerGbMonth === null ? 0 : (o.storageCostPerGbMonth * sizeGb) / HOURS_PER_MONTH;
}

/**
 * The candidates whose machine has a local volume offer with `size` GB free, each with the
 * cheapest such offer and its $/hour for `size` GB; cheapest first, the volume counted.
 */
export async function withVolumeOffers(client: VastClient, candidates: readonly Candidate[], volume: FleetVolumeInput): Promise<Candidate[]> {
  const size = volume.size ?? 1;
  const machines = [...new Set(candidates.flatMap((c) => (c.machineId === null ? [] : [c.machineId])))];
  if (machines.length === 0) return [];
  const offers = await client.volumes.searchOffers("local", {
    filters: { machineId: { in: machines }, diskSpace: { gte: size } },
    order: [["storageCost", "asc"]],
    limit: Math.min(1000, machines.length * 4),
    allocatedStorageGb: size,
    // The machine is chosen by the fleet's offer filters: the search's own defaults (verified
    // offers only) would leave out the volume offers of machines those filters accept.
    noDefaults: true,
  });
  const byMachine = new Map<number, VolumeOffer>();
  for (const o of offers) if (o.machineId !== null && o.diskSpaceGb >= size && !byMachine.has(o.machineId)) byMachine.set(o.machineId, o);
  return candidates
    .flatMap((c, i) => {
      const o = c.machineId === null ? undefined : byMachine.get(c.machineId);
      return o ? [{ c: { ...c, volumeOfferId: o.id, volumePerHour: perHour(o, size) }, i }] : [];
    })
    .sort((a, b) => a.c.pricePerHour + a.c.volumePerHour - (b.c.pricePerHour + b.c.volumePerHour) || a.i - b.i)
    .map((x) => x.c);
}

/** Instance's `volume` input for a member rented on `offer`: a new volume from the offer's volume offer. */
export function memberVolume(volume: unknown, offer: Candidate): VolumeInput | undefined {
  if (volume === undefined || volume === null) return undefined;
  const v = volume as FleetVolumeInput;
  if (offer.volumeOfferId === undefined) throw new Error(`offer ${offer.id} has no volume offer on its machine for the member's volume`);
  return { createNew: true, volumeId: offer.volumeOfferId, size: v.size, mountPath: v.mountPath };
}

/**
 * The groups of members with the ids (and live $/hour) of the volumes they use, from one
 * listing of the account's volumes; made only when a member's volume id is not known yet.
 * A member using no volume keeps null.
 */
export async function withVolumeIds(client: VastClient, ...groups: Member[][]): Promise<Member[][]> {
  if (!groups.some((g) => g.some((m) => volumeIdOf(m) === null))) return groups;
  const byInstance = await volumesByInstance(client);
  const fill = (m: Member): Member => {
    const known = volumeIdOf(m);
    const v = known === null ? byInstance.get(m.id) : undefined;
    if (!v) return { ...m, volumeId: known, volumePerHour: volumeCostOf(m) };
    return { ...m, volumeId: v.id, volumePerHour: v.storageTotalCostPerHour ?? volumeCostOf(m) };
  };
  return groups.map((g) => g.map(fill));
}

/** Volume ids of instances (for instances found by marker alone, with no member entry). */
export { volumeIdsByInstance } from "../kit/instance-volumes";

/** Deletes the volume of member instance `instanceId` once that instance is destroyed (kit/instance-volumes.ts). */
export const deleteMemberVolume = (client: VastClient, volumeId: number, instanceId: number): Promise<void> => deleteInstanceVolume(client, volumeId, instanceId, "member instance");
