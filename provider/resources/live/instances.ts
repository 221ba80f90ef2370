/**
 * The shared reader of live instances: reads and diffs of many instances in one process share
 * walks of the paged list (`GET /api/v1/instances/`, 25 per page), so a refresh of N
 * instances costs about ceil(N/25) list calls instead of N reads.
 */
import type { Instance, VastClient } from "../../client";
import { getClient } from "../../context";
import { liveCacheTtlMs } from "./settings";
import { SharedList } from "./shared-list";

/** Instances per page of the paged list (the service's maximum). */
export const INSTANCE_PAGE_SIZE = 25;

// One reader per client: a change of credentials or URL gives a new client and a new cache.
const readers = new WeakMap<VastClient, SharedList<Instance>>();

/** The shared reader for `client` (default: the process's configured client). */
export function liveInstances(client: VastClient = getClient()): SharedList<Instance> {
  let reader = readers.get(client);
  if (!reader) {
    reader = new SharedList<Instance>({
      fetchAll: () => client.instances.listAll(INSTANCE_PAGE_SIZE),
      fetchOne: (key) => client.instances.get(Number(key)),
      keyOf: (instance) => String(instance.id),
      ttlMs: liveCacheTtlMs,
    });
    readers.set(client, reader);
  }
  return reader;
}
