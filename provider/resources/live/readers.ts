/**
 * Where the shared readers live: one per client and kind. A change of credentials or URL gives
 * a new client (provider/context.ts), and with it new readers, so nothing cached for one account
 * serves another.
 */
import type { VastClient } from "../../client";
import { liveCacheTtlMs } from "./settings";
import { SharedList, type SharedListSource } from "./shared-list";

const readers = new WeakMap<VastClient, Map<string, SharedList<unknown>>>();

/** The reader of `kind` for `client`, made from `source` on first use (TTL from the settings). */
export function readerFor<T>(
  client: VastClient,
  kind: string,
  source: (client: VastClient) => Omit<SharedListSource<T>, "ttlMs"> & Partial<Pick<SharedListSource<T>, "ttlMs">>,
): SharedList<T> {
  let byKind = readers.get(client);
  if (!byKind) {
    byKind = new Map();
    readers.set(client, byKind);
  }
  let reader = byKind.get(kind) as SharedList<T> | undefined;
  if (!reader) {
    reader = new SharedList<T>({ ttlMs: liveCacheTtlMs, ...source(client) });
    byKind.set(kind, reader as SharedList<unknown>);
  }
  return reader;
}
