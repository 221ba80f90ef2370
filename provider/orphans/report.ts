/**
 * The orphan report: instances and volumes that carry this package's marker but that no given
 * stack state holds. Instances carry PULUMI_VASTAI_MARKER in their environment (Instance and
 * Fleet members); volumes carry ` [<marker>]` at the end of their name (Volume, NetworkVolume).
 * Templates carry no marker of this package, so they are not reported.
 *
 * A state file is the JSON of `pulumi stack export`. An object is in it when a resource's
 * outputs name it: an instance by `instanceId`, `marker` or a Fleet member (`members[].id`,
 * `members[].marker`); a volume by `volumeId` or `nameMarker`.
 */
import type { Instance, VastClient, Volume } from "../client";
import { MARKER_ENV } from "../resources/instance/inputs";

export interface StateRefs {
  instanceIds: Set<number>;
  volumeIds: Set<number>;
  markers: Set<string>;
}

export interface Orphan {
  kind: "instance" | "volume";
  id: number;
  marker: string;
  /** Instance status or volume status. */
  status: string | null;
  /** $/hour it costs now (an instance's price; a stopped one bills its disk, not shown by the list). */
  costPerHour: number | null;
  label: string | null;
}

const VOLUME_MARKER = / \[([0-9a-f]{16})\]$/;

export function instanceMarker(i: Instance): string | undefined {
  return (i.extraEnv ?? []).find(([k]) => k === MARKER_ENV)?.[1];
}

export function volumeMarker(v: Volume): string | undefined {
  return v.name ? VOLUME_MARKER.exec(v.name)?.[1] : undefined;
}

/** What the state files name; throws with the file's name when one is not a stack export. */
export function stateRefs(files: { name: string; text: string }[]): StateRefs {
  const refs: StateRefs = { instanceIds: new Set(), volumeIds: new Set(), markers: new Set() };
  for (const file of files) {
    let doc: unknown;
    try {
      doc = JSON.parse(file.text);
    } catch (error) {
      throw new Error(`${file.name}: not JSON (${(error as Error).message}); give files written by \`pulumi stack export\``, { cause: error });
    }
    const resources = (doc as { deployment?: { resources?: unknown } })?.deployment?.resources;
    if (!Array.isArray(resources)) throw new Error(`${file.name}: no deployment.resources; give files written by \`pulumi stack export\``);
    for (const r of resources) {
      const outs = (r as { outputs?: Record<string, unknown> })?.outputs;
      if (outs && typeof outs === "object") addRefs(refs, outs);
    }
  }
  return refs;
}

function addRefs(refs: StateRefs, outs: Record<string, unknown>): void {
  const num = (v: unknown) => (typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : undefined);
  const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  const instanceId = num(outs.instanceId);
  if (instanceId !== undefined) refs.instanceIds.add(instanceId);
  const volumeId = num(outs.volumeId);
  if (volumeId !== undefined) refs.volumeIds.add(volumeId);
  for (const m of [str(outs.marker), str(outs.nameMarker)]) if (m) refs.markers.add(m);
  if (Array.isArray(outs.members)) {
    for (const member of outs.members as Record<string, unknown>[]) {
      const id = num(member?.id);
      if (id !== undefined) refs.instanceIds.add(id);
      const marker = str(member?.marker);
      if (marker) refs.markers.add(marker);
    }
  }
}

/** Marked objects no state names (every marked object when `refs` is undefined). */
export async function findOrphans(client: VastClient, refs: StateRefs | undefined): Promise<Orphan[]> {
  const [instances, volumes] = await Promise.all([client.instances.listAll(25), client.volumes.list("all")]);
  const out: Orphan[] = [];
  for (const i of instances) {
    const marker = instanceMarker(i);
    if (!marker) continue;
    if (refs && (refs.instanceIds.has(i.id) || refs.markers.has(marker))) continue;
    out.push({ kind: "instance", id: i.id, marker, status: i.actualStatus ?? null, costPerHour: i.dphTotal ?? null, label: i.label ?? null });
  }
  for (const v of volumes) {
    const marker = volumeMarker(v);
    if (!marker) continue;
    if (refs && (refs.volumeIds.has(v.id) || refs.markers.has(marker))) continue;
    out.push({ kind: "volume", id: v.id, marker, status: v.status, costPerHour: v.storageTotalCostPerHour, label: v.name });
  }
  return out;
}

/** Deletes each orphan (the client's confirmed deletes); the failures, by object. */
export async function deleteOrphans(client: VastClient, orphans: Orphan[]): Promise<string[]> {
  const failures: string[] = [];
  for (const o of orphans) {
    try {
      if (o.kind === "instance") await client.instances.destroy(o.id);
      else await client.volumes.delete(o.id);
    } catch (error) {
      failures.push(`${o.kind} ${o.id}: ${(error as Error).message}`);
    }
  }
  return failures;
}

/** The human report: one line per orphan and the total $/hour. */
export function formatReport(orphans: Orphan[], deleted: boolean): string {
  if (orphans.length === 0) return "No orphans: every marked instance and volume is in the given state.";
  const lines = orphans.map(
    (o) => `${o.kind.padEnd(8)} ${String(o.id).padEnd(10)} ${(o.status ?? "-").padEnd(10)} ${o.costPerHour === null ? "?" : o.costPerHour.toFixed(4)} $/h  marker ${o.marker}${o.label ? `  ${o.label}` : ""}`,
  );
  const total = orphans.reduce((s, o) => s + (o.costPerHour ?? 0), 0);
  lines.push(`${orphans.length} orphan(s), ${total.toFixed(4)} $/hour in all.${deleted ? " Deleted." : " Nothing was deleted (run with --delete to delete them)."}`);
  return lines.join("\n");
}
