/**
 * The orphan report: objects of the account that this package made (they carry its marker) but
 * that no stack's state holds, with what they cost per hour.
 *
 * What carries a marker:
 * - an instance: `PULUMI_VASTAI_MARKER` in its environment (every Instance create sends it);
 * - a volume of either kind: its name ends with ` [<16 hex digits>]` (Volume, NetworkVolume);
 * - a volume made with an instance (an Instance's or a Fleet member's `volume.createNew`; the
 *   service takes no name for it): the marker of the marked instance that uses it. It is an
 *   orphan when that instance is one and no stack holds the volume (a Fleet member's
 *   `volumeId`).
 *
 * Templates carry none (the service adopts a template by its content) and the service has no
 * list of one's own templates, so they cannot be reported; they cost nothing per hour.
 *
 * State comes from `pulumi stack export` files: an object is held by a stack when its id is the
 * id of a resource of the same kind in one of them, or, for an instance, the id of a member of a
 * Fleet (`outputs.members[].id`). A marker alone does not make an object held: a create that
 * landed twice leaves a second object with the same marker, and that one is an orphan. A marked object held by none is an orphan
 * (a killed run's create that no later run adopted, a duplicate that landed late, or an object
 * of a stack whose state was lost). Without state files every marked object is listed.
 */
import * as fs from "node:fs";
import type { VastClient } from "../client";

/** The environment variable every instance this package rents carries. */
export const INSTANCE_MARKER_ENV = "PULUMI_VASTAI_MARKER";
/** A volume's name as the Volume resources write it: `<name> [<marker>]`. */
const VOLUME_MARKER = / \[([0-9a-f]{16})\]$/;
/** Type tokens of this package's resources in a state file: `pulumi-nodejs:dynamic/vastai:<Type>`. */
const TYPE_PREFIX = "pulumi-nodejs:dynamic/vastai:";

export type OrphanKind = "instance" | "volume";

export interface Orphan {
  kind: OrphanKind;
  id: number;
  /** The instance's label or the volume's name, as the service shows it. */
  name: string | null;
  marker: string;
  status: string | null;
  /** $ per hour the object costs now (an instance's total, a volume's storage). */
  costPerHour: number;
}

/** The ids the given stacks hold, by kind. */
export interface StackHoldings {
  files: string[];
  instances: Set<number>;
  volumes: Set<number>;
}

/** A state file that cannot be read, naming the file and what is wrong. */
export class StateFileError extends Error {
  constructor(file: string, problem: string) {
    super(`${file}: ${problem} (expected the JSON of \`pulumi stack export\`)`);
    this.name = "StateFileError";
  }
}

interface ExportedResource {
  type?: unknown;
  id?: unknown;
  outputs?: { members?: unknown; volume?: unknown };
}

/** A positive whole id, given as a number or its digits. */
function idOf(value: unknown): number | undefined {
  const id = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  return typeof id === "number" && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

function resourcesOf(file: string, text: string): ExportedResource[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new StateFileError(file, `not JSON (${(error as Error).message})`);
  }
  const deployment = (parsed as { deployment?: { resources?: unknown } } | null)?.deployment;
  if (typeof deployment !== "object" || deployment === null) throw new StateFileError(file, "no `deployment` object");
  const resources = deployment.resources ?? [];
  if (!Array.isArray(resources)) throw new StateFileError(file, "`deployment.resources` is not a list");
  return resources as ExportedResource[];
}

/** Reads the ids of this package's instances and volumes from `pulumi stack export` files. */
export function readStackHoldings(files: readonly string[]): StackHoldings {
  const holdings: StackHoldings = { files: [...files], instances: new Set(), volumes: new Set() };
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (error) {
      throw new StateFileError(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    for (const r of resourcesOf(file, text)) {
      if (typeof r.type !== "string" || !r.type.startsWith(TYPE_PREFIX)) continue;
      const type = r.type.slice(TYPE_PREFIX.length);
      if (type === "Fleet") {
        const members = Array.isArray(r.outputs?.members) ? (r.outputs.members as Array<{ id?: unknown; volumeId?: unknown } | null>) : [];
        for (const m of members) {
          const id = idOf(m?.id);
          if (id !== undefined) holdings.instances.add(id);
          const volumeId = idOf(m?.volumeId);
          if (volumeId !== undefined) holdings.volumes.add(volumeId);
        }
        continue;
      }
      const id = idOf(r.id);
      if (id === undefined) continue;
      if (type === "Instance") holdings.instances.add(id);
      else if (type === "Volume" || type === "NetworkVolume") holdings.volumes.add(id);
    }
  }
  return holdings;
}

/**
 * The marked instances and volumes of the account that no given stack holds (every marked one
 * without holdings), most expensive first.
 */
export async function findOrphans(client: VastClient, holdings?: StackHoldings): Promise<Orphan[]> {
  const [instances, volumes] = await Promise.all([client.instances.listAll(), client.volumes.list()]);
  const orphans: Orphan[] = [];
  /** Orphan instances by id, with their markers: a volume made with one is an orphan too. */
  const orphanInstances = new Map<number, string>();
  for (const i of instances) {
    const marker = (i.extraEnv ?? []).find(([k]) => k === INSTANCE_MARKER_ENV)?.[1];
    if (marker === undefined || holdings?.instances.has(i.id)) continue;
    orphanInstances.set(i.id, marker);
    orphans.push({ kind: "instance", id: i.id, name: i.label ?? null, marker, status: i.actualStatus ?? null, costPerHour: i.dphTotal ?? 0 });
  }
  for (const v of volumes) {
    const named = v.name === null ? undefined : VOLUME_MARKER.exec(v.name)?.[1];
    const user = v.instanceIds.find((id) => orphanInstances.has(id));
    const marker = named ?? (user === undefined ? undefined : orphanInstances.get(user));
    if (marker === undefined || holdings?.volumes.has(v.id)) continue;
    orphans.push({ kind: "volume", id: v.id, name: v.name, marker, status: v.status, costPerHour: v.storageTotalCostPerHour ?? 0 });
  }
  return orphans.sort((a, b) => b.costPerHour - a.costPerHour || a.kind.localeCompare(b.kind) || a.id - b.id);
}

export interface DeleteOutcome {
  orphan: Orphan;
  /** `deleted`, `already gone`, or the error's message. */
  result: string;
  ok: boolean;
}

/**
 * Deletes the given orphans: instances first (a volume an instance uses cannot go), then volumes.
 * Each delete is confirmed as the resources' deletes are (a 404 counts as gone only in the
 * service's own error shape). One failure does not stop the rest; each outcome is returned.
 */
export async function deleteOrphans(client: VastClient, orphans: readonly Orphan[]): Promise<DeleteOutcome[]> {
  const outcomes: DeleteOutcome[] = [];
  const ordered = [...orphans.filter((o) => o.kind === "instance"), ...orphans.filter((o) => o.kind === "volume")];
  for (const orphan of ordered) {
    try {
      const done = orphan.kind === "instance" ? await client.instances.destroy(orphan.id) : await client.volumes.delete(orphan.id);
      outcomes.push({ orphan, result: done.alreadyGone ? "already gone" : "deleted", ok: true });
    } catch (error) {
      outcomes.push({ orphan, result: (error as Error).message, ok: false });
    }
  }
  return outcomes;
}

// ---- Leftovers: billing objects no marker ties to a stack (reported, never deleted) ----------

/**
 * Objects that bill and that the marker cannot tie to a stack: worker instances of a worker
 * group that no given stack holds (the service starts workers; they carry no marker, and a
 * group whose delete failed or a late copy of a create runs them), and volumes without a marker
 * that no instance uses and no given stack holds (an Instance's `volume.createNew` volume, which
 * the service names itself, left after its instance). Ownership cannot be proven for these, so
 * the report lists them and `--delete` never deletes them.
 */
export interface Leftover {
  kind: "worker" | "workerGroup" | "volume";
  id: number;
  name: string | null;
  status: string | null;
  costPerHour: number;
  why: string;
}

/** Worker group ids held by the given `pulumi stack export` files. */
function heldWorkerGroups(files: readonly string[]): Set<number> {
  const held = new Set<number>();
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (error) {
      throw new StateFileError(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    for (const r of resourcesOf(file, text)) {
      const id = idOf(r.id);
      if (r.type === `${TYPE_PREFIX}WorkerGroup` && id !== undefined) held.add(id);
    }
  }
  return held;
}

export async function findLeftovers(client: VastClient, files: readonly string[] = []): Promise<Leftover[]> {
  const groupsHeld = heldWorkerGroups(files);
  const volumesHeld = files.length > 0 ? readStackHoldings(files).volumes : new Set<number>();
  const [groups, instances, volumes] = await Promise.all([client.workerGroups.list(), client.instances.listAll(), client.volumes.list()]);
  const byId = new Map(instances.map((i) => [i.id, i]));
  const out: Leftover[] = [];
  for (const g of groups) {
    if (groupsHeld.has(g.id)) continue;
    let workers: number[];
    try {
      workers = (await client.workerGroups.workers(g.id)) ?? [];
    } catch (error) {
      // The workers are listed through the serverless URL (vastai:runUrl / VAST_RUN_URL).
      const why = `its workers could not be listed (${(error as Error).message}); no given stack holds it`;
      out.push({ kind: "workerGroup", id: g.id, name: null, status: null, costPerHour: 0, why });
      continue;
    }
    for (const w of workers) {
      const i = byId.get(w);
      if (!i) continue;
      const why = `worker of worker group ${g.id} (endpoint ${g.endpointId}), which ${files.length > 0 ? "no given stack holds" : "no state file was given for"}`;
      out.push({ kind: "worker", id: w, name: i.label ?? null, status: i.actualStatus ?? null, costPerHour: i.dphTotal ?? 0, why });
    }
  }
  for (const v of volumes) {
    if (VOLUME_MARKER.test(v.name ?? "") || v.instanceIds.length > 0 || volumesHeld.has(v.id)) continue;
    const why = "no marker and no instance uses it: possibly an Instance's volume.createNew volume left after the instance";
    out.push({ kind: "volume", id: v.id, name: v.name, status: v.status, costPerHour: v.storageTotalCostPerHour ?? 0, why });
  }
  return out.sort((a, b) => b.costPerHour - a.costPerHour || a.kind.localeCompare(b.kind) || a.id - b.id);
}
