/**
 * The volumes instances made with them (`volume: { createNew }`): found by the instance that
 * uses them, since the instance record shows only the request's volume offer, and deleted once
 * that instance is destroyed. Fleet members' volumes and an Instance's own go the same way.
 */
import { VolumeInUseError, type VastClient, type Volume } from "../../client";
import { lookUp } from "./create-once";

/** The account's local volumes by the instances using them. */
export async function volumesByInstance(client: VastClient): Promise<Map<number, Volume>> {
  const byInstance = new Map<number, Volume>();
  for (const v of await client.volumes.list("local")) for (const id of v.instanceIds) byInstance.set(id, v);
  return byInstance;
}

/** Volume ids of instances (for instances found by marker alone, with no member entry). */
export async function volumeIdsByInstance(client: VastClient): Promise<Map<number, number>> {
  return new Map([...(await volumesByInstance(client))].map(([instance, v]) => [instance, v.id]));
}

/**
 * Deletes volume `volumeId` of instance `instanceId` (a Fleet member's, or the one an Instance created) once that instance is destroyed. The
 * service may still count the instance as the volume's user for a moment: a refusal for that
 * reason is tried again (the look-up rhythm of a lost create). Throws an error naming the volume.
 */
export async function deleteInstanceVolume(client: VastClient, volumeId: number, instanceId: number, whose = "instance"): Promise<void> {
  const failed = (error: unknown) =>
    new Error(`deleting volume ${volumeId} of ${whose} ${instanceId} failed: ${(error as Error).message}`, { cause: error });
  let inUse: unknown;
  let deleted: true | undefined;
  try {
    deleted = await lookUp(async () => {
      try {
        await client.volumes.delete(volumeId);
        return true;
      } catch (error) {
        if (!(error instanceof VolumeInUseError)) throw error;
        inUse = error;
        return undefined;
      }
    });
  } catch (error) {
    throw failed(error);
  }
  if (!deleted) throw failed(inUse);
}
