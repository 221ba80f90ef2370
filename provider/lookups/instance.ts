/** `getInstance`: one instance of the account by id. */
import type { Instance } from "../client/types-templates";
import { LookupOptions, clientOf, outputVariant, positiveInt } from "./common";

/**
 * One instance of the account by id (`GET /api/v0/instances/{id}/`), without walking the list.
 * The service answers `{}` for a destroyed instance: that answer alone is settled by the list,
 * as the client does everywhere. Throws when the account has no such instance.
 */
export async function getInstance(instanceId: number, options?: LookupOptions): Promise<Instance> {
  const id = positiveInt("getInstance", "instanceId", instanceId);
  const instance = await clientOf(options).instances.get(id);
  if (!instance) throw new Error(`getInstance: instance ${id} is not an instance of this account (the service found none with that id, or it was destroyed)`);
  return instance;
}
/** `getInstance` with Pulumi inputs, as an Output. */
export const getInstanceOutput = outputVariant(getInstance);
