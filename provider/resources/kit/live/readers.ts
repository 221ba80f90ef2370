/**
 * Where the shared readers live: one per client and kind. A change of credentials or URL gives
 * a new client (provider/context.ts), and with it new readers, so nothing cached for one account
 * serves another. Every write the client makes reaches the reader of its kind (the client's
 * `onWrite`), so a process never reads back older state than it wrote, whichever code wrote it.
 */
import type { VastClient, WriteKind } from "../../../client";
import { liveCacheTtlMs } from "../settings";
import { SharedList, type SharedListSource } from "./shared-list";

/** What the kit needs of a reader: being told of writes. */
export interface Reader {
  noteWrite(key?: string): void;
}

const readers = new WeakMap<VastClient, Map<WriteKind, Reader>>();

function readersOf(client: VastClient): Map<WriteKind, Reader> {
  let byKind = readers.get(client);
  if (!byKind) {
    const created = new Map<WriteKind, Reader>();
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

/** The reader of `kind` for `client`, made by `make` on first use. */
export function readerOf<R extends Reader>(client: VastClient, kind: WriteKind, make: (client: VastClient) => R): R {
  const byKind = readersOf(client);
  let reader = byKind.get(kind) as R | undefined;
  if (!reader) {
    reader = make(client);
    byKind.set(kind, reader);
  }
  return reader;
}

/** The SharedList of `kind` for `client`, made from `source` on first use (TTL from the settings). */
export function readerFor<T>(
  client: VastClient,
  kind: WriteKind,
  source: (client: VastClient) => Omit<SharedListSource<T>, "ttlMs"> & Partial<Pick<SharedListSource<T>, "ttlMs">>,
): SharedList<T> {
  return readerOf(client, kind, (c) => new SharedList<T>({ ttlMs: liveCacheTtlMs, ...source(c) }));
}
