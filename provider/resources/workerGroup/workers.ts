/**
 * What a delete of a worker group (or of the endpoint holding it) leaves: the service destroys
 * the group's worker instances and names those it could not (`failed_workers`, vendor document).
 * Those would go on running and billing with nothing managing them, so they are destroyed here.
 */
import type { VastClient } from "../../client";

export async function destroyLeftWorkers(client: VastClient, what: string, failed: readonly number[]): Promise<void> {
  const left: string[] = [];
  for (const id of failed) {
    try {
      await client.instances.destroy(id);
    } catch (error) {
      left.push(`${id} (${(error as Error).message})`);
    }
  }
  if (left.length > 0) {
    throw new Error(`${what} is deleted, but worker instances it ran are still there and billing; destroy them: ${left.join(", ")}`);
  }
}
