/**
 * Deleting worker groups (one, or those of an endpoint) without leaving workers billing.
 *
 * The service destroys a group's worker instances when the group is deleted and names those it
 * could not (`failed_workers`, vendor document); a server that deletes the group without
 * destroying or naming them answers success all the same. And once the group is gone nothing
 * names its workers any more, while a failed delete keeps the state it had: a second
 * `pulumi destroy` would find the group gone and succeed. So:
 *
 * 1. the group's workers are listed (`get_workergroup_workers`) and destroyed first, while the
 *    group still exists: one that cannot be destroyed fails the delete with the group in place
 *    and in state, so that the next destroy lists and tries them again;
 * 2. the group is deleted; workers it reports failed are destroyed;
 * 3. the instance list confirms that every worker seen (listed, or named by the delete's
 *    answer) is gone; one still there is destroyed, and one that cannot be is named.
 *
 * The two listings are assurance on top of the service's own answer: when one of them fails,
 * the delete goes on (a warning names what could not be checked) rather than fail after the
 * object is gone, which would leave a deleted object in state.
 */
import * as pulumi from "@pulumi/pulumi";
import type { VastClient, WorkersDeleted } from "../../client";

async function destroyAll(client: VastClient, ids: Iterable<number>): Promise<string[]> {
  const left: string[] = [];
  for (const id of ids) {
    try {
      await client.instances.destroy(id);
    } catch (error) {
      left.push(`${id} (${(error as Error).message})`);
    }
  }
  return left;
}

/**
 * Deletes through `remove` the object `what` holding worker groups `groupIds`, per the steps
 * above.
 */
export async function deleteWithWorkers(client: VastClient, what: string, groupIds: readonly number[], remove: () => Promise<WorkersDeleted>): Promise<void> {
  const seen = new Set<number>();
  // The group list first: a group already gone has no workers to list.
  const live = new Set((await client.workerGroups.list()).map((g) => g.id));
  for (const g of groupIds.filter((id) => live.has(id))) {
    try {
      for (const w of (await client.workerGroups.workers(g)) ?? []) seen.add(w);
    } catch (error) {
      await pulumi.log.warn(`${what}: listing the workers of worker group ${g} failed (${(error as Error).message}); the service's delete destroys them`);
    }
  }
  const first = await destroyAll(client, seen);
  if (first.length > 0) {
    throw new Error(
      `${what} is not deleted: worker instance(s) of it could not be destroyed: ${first.join(", ")}. ` +
        "It stays in state; run `pulumi destroy` again to finish",
    );
  }
  const result = await remove();
  for (const w of [...result.deletedWorkers, ...result.failedWorkers]) seen.add(w);
  let running: Set<number>;
  try {
    running = new Set((await client.instances.list()).map((i) => i.id));
  } catch (error) {
    const check = seen.size > 0 ? `check that instance(s) ${[...seen].join(", ")} are gone` : "no worker was seen";
    await pulumi.log.warn(`${what} is deleted, but listing the instances to confirm its workers are gone failed (${(error as Error).message}); ${check}`);
    return;
  }
  const left = await destroyAll(client, [...seen].filter((w) => running.has(w)));
  if (left.length > 0) {
    throw new Error(`${what} is deleted, but worker instances it ran are still there and billing; destroy them: ${left.join(", ")}`);
  }
}
