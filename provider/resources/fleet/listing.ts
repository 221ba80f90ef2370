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
import type { Props } from "../kit";
import { INSTANCE_PAGE_SIZE, liveInstances } from "../instance/live";

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
export async function readMembers(client: VastClient, ids: readonly number[]): Promise<Map<number, Instance>> {
  const reader = liveInstances(client);
  const records = await Promise.all(ids.map((id) => reader.get(String(id))));
  const out = new Map<number, Instance>();
  for (const record of records) if (record) out.set(record.id, record);
  return out;
}

/**
 * The instances whose label is one of `labels` and whose marker starts with `prefix`, from a
 * listing that starts now (the service filters by label; the marker is checked here).
 */
export async function sweep(client: VastClient, labels: readonly string[], prefix: string, markerOf: (i: Instance) => string | undefined): Promise<Instance[]> {
  const wanted = [...new Set(labels)];
  if (wanted.length === 0) return [];
  const listed = await client.instances.listAll(INSTANCE_PAGE_SIZE, { filters: { label: { in: wanted } }, orderBy: [["id", "asc"]] });
  return listed.filter((i) => markerOf(i)?.startsWith(prefix));
}

/** The labels members of a fleet may carry: those of its inputs now and of its state. */
export function sweptLabels(fleetKey: string, ...props: Array<Props | undefined>): string[] {
  return [...new Set(props.filter((p): p is Props => p !== undefined).map((p) => memberLabel(p, fleetKey)))];
}
