/**
 * The shared reader of live instances. Reads and diffs of a stack's instances in one process
 * share listings of the paged list (`GET /api/v1/instances/`, 25 per page, about one call a
 * second), filtered by id so that their cost follows the stack's instances, not the account's
 * (kit/live/id-reader.ts), or by the stack's label when the engine asks a few at a time: a
 * refresh of N instances costs about ceil(N/25) list calls whether the account holds N
 * instances or thousands.
 */
import type { Instance, VastClient } from "../../client";
import { getClient } from "../../context";
import { BootReads, IdReader, liveCacheTtlMs, readerOf } from "../kit";

/** Instances per page of the paged list (the service's maximum). */
export const INSTANCE_PAGE_SIZE = 25;

/** The shared reader for `client` (default: the process's configured client). */
export function liveInstances(client: VastClient = getClient()): IdReader<Instance> {
  return readerOf(
    client,
    "instances",
    (c) =>
      new IdReader<Instance>({
        walkPage: async (from, token) => {
          const page = await c.instances.listPage({ limit: INSTANCE_PAGE_SIZE, afterToken: token, filters: { id: { gte: from } }, orderBy: [["id", "asc"]] });
          return { items: page.instances, next: page.nextToken, total: page.totalInstances };
        },
        walkLabelPage: async (label, from, token) => {
          const page = await c.instances.listPage({ limit: INSTANCE_PAGE_SIZE, afterToken: token, filters: { label: { eq: label }, id: { gte: from } }, orderBy: [["id", "asc"]] });
          return { items: page.instances, next: page.nextToken, total: page.totalInstances };
        },
        walkDownPage: async (below) => {
          const page = await c.instances.listPage({ limit: INSTANCE_PAGE_SIZE, filters: { id: { lt: below } }, orderBy: [["id", "desc"]] });
          return { items: page.instances, next: page.nextToken, total: page.totalInstances };
        },
        labelOf: (instance) => instance.label ?? undefined,
        fetchIds: (ids) => c.instances.listAll(INSTANCE_PAGE_SIZE, { filters: { id: { in: ids } } }),
        fetchOne: (id) => c.instances.get(id),
        fetchAll: () => c.instances.listAll(INSTANCE_PAGE_SIZE),
        idOf: (instance) => instance.id,
        ttlMs: liveCacheTtlMs,
        pageSize: INSTANCE_PAGE_SIZE,
      }),
  );
}

const bootReaders = new WeakMap<VastClient, BootReads<Instance>>();

/**
 * Fresh reads of booting instances for `client` (kit/live/boot-polls.ts): every instance
 * waiting at one moment (an Instance's boot, a Fleet's batch) is read by one call, one
 * instance directly, several listed by id.
 */
export function bootReads(client: VastClient): BootReads<Instance> {
  let reads = bootReaders.get(client);
  if (!reads) {
    reads = new BootReads<Instance>({
      fetchOne: (id) => client.instances.get(id),
      fetchIds: (ids) => client.instances.listAll(INSTANCE_PAGE_SIZE, { filters: { id: { in: ids } } }),
      idOf: (instance) => instance.id,
      pageSize: INSTANCE_PAGE_SIZE,
    });
    bootReaders.set(client, reads);
  }
  return reads;
}
