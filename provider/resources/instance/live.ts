/**
 * The shared reader of live instances: reads and diffs of many instances in one process share
 * walks of the paged list (`GET /api/v1/instances/`, 25 per page), so a refresh of N
 * instances costs about ceil(N/25) list calls instead of N reads.
 */
import type { Instance, VastClient } from "../../client";
import { getClient } from "../../context";
import { readerFor } from "../kit";
import type { SharedList } from "../kit";

/** Instances per page of the paged list (the service's maximum). */
export const INSTANCE_PAGE_SIZE = 25;

/** The shared reader for `client` (default: the process's configured client). */
export function liveInstances(client: VastClient = getClient()): SharedList<Instance> {
  return readerFor<Instance>(client, "instances", (c) => ({
    fetchAll: () => c.instances.listAll(INSTANCE_PAGE_SIZE),
    fetchOne: (key) => c.instances.get(Number(key)),
    keyOf: (instance) => String(instance.id),
  }));
}
