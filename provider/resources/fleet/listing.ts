/**
 * What a fleet reads of the account: only what it owns, so that its cost follows its members,
 * never the rest of the account.
 *
 * - Its members by id, through the shared instance reader the Instances use (instance/live.ts):
 *   asks made together go into one listing by id (25 per call), a listing serves later asks
 *   for the live-cache TTL (the update after a diff reads nothing again), and an instance this
 *   process wrote is read alone until a listing that began after the write has seen it.
 * - The members a killed run left (rented, never recorded in state), through the service's
 *   own label filter (`select_filters` `label: {in: [...]}` of the paged instance list): every
 *   member carries the fleet's label, or the fleet's key when the fleet has none, so the sweep
 *   lists the instances with those labels (one call per 25) and keeps those whose marker starts
 *   with the fleet's key (members.ts). The service filters labels by equality only (no prefix
 *   or environment filter), which is why the key goes into the label of an unlabelled fleet.
 */
import type { Instance, VastClient } from "../../client";
import { currentTiming, liveCacheTtlMs, type Props } from "../kit";
import { INSTANCE_PAGE_SIZE, liveInstances } from "../instance/live";

/** This process's walks of label sets: a diff's walk serves the update's sweep that follows. */
const walks = new WeakMap<VastClient, Map<string, { at: number; items: Promise<Instance[]> }>>();

/**
 * The instances carrying one of `labels` (one call per 25), from this process's walk of the
 * same labels when it is within the live-cache TTL, no instance was written since, and `fresh`
 * is not asked. A killed run's
 * members predate this process, so any walk it made shows them; a create of this process whose
 * answer was lost asks for a fresh walk.
 */
function labelWalk(client: VastClient, labels: readonly string[], fresh: boolean): Promise<Instance[]> {
  const key = [...labels].sort().join("\n");
  const now = currentTiming().now();
  let byLabels = walks.get(client);
  if (!byLabels) {
    const fresh = new Map<string, { at: number; items: Promise<Instance[]> }>();
    // A write of this process to any instance: no walk made before it answers again, so a
    // process never reads back older state than it wrote.
    client.onWrite((kind) => {
      if (kind === "instances") fresh.clear();
    });
    walks.set(client, (byLabels = fresh));
  }
  const cached = byLabels.get(key);
  if (!fresh && cached && now - cached.at <= liveCacheTtlMs()) return cached.items;
  const items = client.instances.listAll(INSTANCE_PAGE_SIZE, { filters: { label: { in: [...labels] } }, orderBy: [["id", "asc"]] });
  const entry = { at: now, items };
  byLabels.set(key, entry);
  items.catch(() => {
    if (byLabels.get(key) === entry) byLabels.delete(key);
  });
  return items;
}

/**
 * The label every member carries: the fleet's `label`, or its key when it has none (the key
 * lets the sweep find members a killed run left without listing the account).
 */
export function memberLabel(props: Props, fleetKey: string): string {
  return typeof props.label === "string" && props.label !== "" ? props.label : fleetKey;
}

/** The fleet key in a member's marker (`<fleet key>.<operation marker>.<offer>`). */
export function fleetKeyOfMarker(marker: string): string {
  return marker.split(".")[0];
}

/**
 * The live records of `ids` (absent: not there), from the shared reader: one listing by id per
 * 25 asked together, none when a recent listing (a diff's, before the update) saw them.
 */
export async function readMembers(client: VastClient, ids: readonly number[], ownLabel?: string): Promise<Map<number, Instance>> {
  const out = new Map<number, Instance>();
  // A fleet labelled with its own key: only its members carry that label, so one walk of it
  // reads them all (ceil(M/25) calls), and the update's sweep reuses the same walk.
  if (ownLabel !== undefined && ids.length > 0) {
    const wanted = new Set(ids);
    for (const i of await labelWalk(client, [ownLabel], false)) if (wanted.has(i.id)) out.set(i.id, i);
  }
  const reader = liveInstances(client);
  const records = await Promise.all(ids.filter((id) => !out.has(id)).map((id) => reader.get(String(id))));
  for (const record of records) if (record) out.set(record.id, record);
  return out;
}

/** The fleet's own label when its members are labelled with its key (no `label` input), else undefined. */
export function ownKeyLabel(props: Props, fleetKey: string): string | undefined {
  return memberLabel(props, fleetKey) === fleetKey ? fleetKey : undefined;
}

/**
 * The instances whose label is one of `labels` and whose marker starts with `prefix` (the
 * service filters by label; the marker is checked here), from this process's recent walk of the
 * same labels unless `fresh` (labelWalk).
 */
export async function sweep(client: VastClient, labels: readonly string[], prefix: string, markerOf: (i: Instance) => string | undefined, fresh = false): Promise<Instance[]> {
  const wanted = [...new Set(labels)];
  if (wanted.length === 0) return [];
  const listed = await labelWalk(client, wanted, fresh);
  return listed.filter((i) => markerOf(i)?.startsWith(prefix));
}

/** The labels members of a fleet may carry: those of its inputs now and of its state. */
export function sweptLabels(fleetKey: string, ...props: Array<Props | undefined>): string[] {
  return [...new Set(props.filter((p): p is Props => p !== undefined).map((p) => memberLabel(p, fleetKey)))];
}
