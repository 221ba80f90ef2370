/**
 * Where the shared readers live: one per client and kind. A change of credentials or URL gives
 * a new client (provider/context.ts), and with it new readers, so nothing cached for one account
 * serves another. Every write the client makes reaches the reader of its kind (the client's
 * `onWrite`), so a process never reads back older state than it wrote, whichever code wrote it.
 */
import type { VastClient, WriteKind } from "../../../client";
import { liveCacheTtlMs } from "../settings";
import { SharedList, type SharedListSource } from "./shared-list";

const readers = new WeakMap<VastClient, Map<WriteKind, SharedList<unknown>>>();

function readersOf(client: VastClient): Map<WriteKind, SharedList<unknown>> {
  let byKind = readers.get(client);
  if (!byKind) {
    const created = new Map<WriteKind, SharedList<unknown>>();
    client.onWrite((kind, keys) => {
      const reader = created.get(kind);
      if (!reader) return;
      if (keys === undefined) reader.noteWrite();
      else for (const key of keys) reader.noteWrite(key);
    });
    readers.set(client, created);
    byKind = created;
  }
  return byKind;
}

/** The reader of `kind` for `client`, made from `source` on first use (TTL from the settings). */
export function readerFor<T>(
  client: VastClient,
  kind: WriteKind,
  source: (client: VastClient) => Omit<SharedListSource<T>, "ttlMs"> & Partial<Pick<SharedListSource<T>, "ttlMs">>,
): SharedList<T> {
  const byKind = readersOf(client);
  let reader = byKind.get(kind) as SharedList<T> | undefined;
  if (!reader) {
    reader = new SharedList<T>({ ttlMs: liveCacheTtlMs, ...source(client) });
    byKind.set(kind, reader as SharedList<unknown>);
  }
  return reader;
}
