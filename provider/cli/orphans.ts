/**
 * The orphan report: objects of the account that this package made (they carry its marker) but
 * that no given stack's state holds, with what they cost per hour.
 *
 * What carries a marker:
 * - an instance: `PULUMI_VASTAI_MARKER` in its environment (every Instance create sends it;
 *   a Fleet member's is `<fleet key>.<operation marker>.<offer>`);
 * - a volume of either kind: its name ends with ` [<marker>]` (Volume, NetworkVolume);
 * - a volume made with an instance (an Instance's or a Fleet member's `volume.createNew`; the
 *   service takes no name for it): the marker of the marked instance that uses it;
 * - a scheduled job: none of its own (the service keeps only the call and its times), so only a
 *   job whose instance is a listed marked instance is listed, with that instance's marker and
 *   attribution: it acts on an object of that stack that no stack holds, and goes with it. A job
 *   on an instance a given stack holds, on another stack's instance or on an unmarked one is
 *   never listed or deleted (nothing proves it is a stack's).
 *
 * Whose an object is: a marker starts with the tag of the stack that made it (11 characters
 * from the nonce of the stack's StackIdentity, kit/create-once.ts). The report is scoped to the
 * stacks whose `pulumi stack export` files are given: it lists the objects carrying one of their
 * tags that none of them holds (orphans: what `--delete` may delete), and objects whose marker
 * was written by a release before the stack identity (16 hex digits of the stack's names only:
 * any stack with those names could own them), which it lists as unattributable and never
 * deletes. Objects of other stacks are counted, never listed or deleted. Without state files
 * it lists every marked object with its stack tag, and deletes nothing.
 *
 * An object is held by a given stack when its id is the id of a resource of the same kind in
 * one of the files, or, for an instance, the id of a member of a Fleet (`outputs.members[].id`).
 * A marker alone does not make an object held: a create that landed twice leaves a second
 * object with the same marker, and that one is an orphan.
 *
 * Templates carry none (the service adopts a template by its content) and the service has no
 * list of one's own templates, so they cannot be reported; they cost nothing per hour. Clusters
 * and overlays carry none either (a cluster has no name; an overlay's name is what instances
 * join by), so nothing proves one is a stack's: they are never listed or deleted.
 */
import * as fs from "node:fs";
import type { VastClient } from "../client";
import { LEGACY_MARKER, STACK_TAG_LENGTH, stackTagOf } from "../resources/kit/create-once";

/** The environment variable every instance this package rents carries. */
export const INSTANCE_MARKER_ENV = "PULUMI_VASTAI_MARKER";
/** A volume's name as the Volume resources write it: `<name> [<marker>]`. */
const VOLUME_MARKER = / \[([A-Za-z0-9_-]{16})\]$/;
/** One part of a marker: a resource's marker (16 characters) or a fleet's key (16 or 22). */
const MARKER_PART = /^[A-Za-z0-9_-]{16,22}$/;
/** Type tokens of this package's resources in a state file: `pulumi-nodejs:dynamic/vastai:<Type>`. */
const TYPE_PREFIX = "pulumi-nodejs:dynamic/vastai:";
/** The `version` of the `pulumi stack export` format this release reads. */
export const EXPORT_VERSION = 3;

export type OrphanKind = "instance" | "volume" | "scheduledJob";

/**
 * Why an object is listed: `orphan`, a given stack's and held by none (`--delete` deletes it);
 * `unattributable`, a marker of an earlier release held by no given stack (never deleted);
 * `unscoped`, listed without state files (never deleted).
 */
export type Attribution = "orphan" | "unattributable" | "unscoped";

export interface Orphan {
  kind: OrphanKind;
  id: number;
  /** The instance's label or the volume's name, as the service shows it; a scheduled job's call. */
  name: string | null;
  marker: string;
  /** The tag of the stack whose marker it carries; null for a marker of an earlier release. */
  stack: string | null;
  attribution: Attribution;
  status: string | null;
  /** $ per hour the object costs now (an instance's total, a volume's storage). */
  costPerHour: number;
}

/** One given state file: the tag of its stack (undefined: no StackIdentity, a stack of an earlier release). */
export interface GivenStack {
  file: string;
  tag?: string;
}

/** The given stacks: their tags and the ids they hold, by kind. */
export interface StackHoldings {
  files: string[];
  stacks: GivenStack[];
  tags: Set<string>;
  instances: Set<number>;
  volumes: Set<number>;
  scheduledJobs: Set<number>;
}

/** What the account holds that the report concerns. */
export interface OrphanReport {
  /** Listed objects, most expensive first. */
  listed: Orphan[];
  /** Marked objects of stacks that were not given: counted, never listed. */
  otherStacks: number;
}

/** A state file that cannot be read, naming the file and what is wrong. */
export class StateFileError extends Error {
  constructor(file: string, problem: string) {
    super(`${file}: ${problem} (expected the JSON of \`pulumi stack export\`)`);
    this.name = "StateFileError";
  }
}

/** One resource of a `pulumi stack export` file, as far as the reports read it. */
export interface ExportedResource {
  urn?: unknown;
  type?: unknown;
  id?: unknown;
  outputs?: { members?: unknown; volume?: unknown; nonce?: unknown };
}

/** A positive whole id, given as a number or its digits. */
function idOf(value: unknown): number | undefined {
  const id = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  return typeof id === "number" && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The resources of an export; anything but the known format is refused (never read as an empty stack). */
export function resourcesOf(file: string, text: string): ExportedResource[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new StateFileError(file, `not JSON (${(error as Error).message})`);
  }
  if (!isObject(parsed)) throw new StateFileError(file, "not a JSON object");
  if (parsed.version !== EXPORT_VERSION) {
    throw new StateFileError(file, `format version ${JSON.stringify(parsed.version) ?? "missing"} is not one this release reads (version ${EXPORT_VERSION})`);
  }
  const deployment = parsed.deployment;
  if (!isObject(deployment)) throw new StateFileError(file, "no `deployment` object");
  const resources = deployment.resources;
  if (!Array.isArray(resources)) {
    throw new StateFileError(file, `\`deployment.resources\` is ${resources === undefined ? "missing (a stack with no resources scopes nothing)" : "not a list"}`);
  }
  return resources.map((r, i) => {
    if (!isObject(r)) throw new StateFileError(file, `\`deployment.resources[${i}]\` is not an object`);
    return r as ExportedResource;
  });
}

/** The resources of the `pulumi stack export` file at `file`, read strictly (resourcesOf). */
export function readExport(file: string): ExportedResource[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new StateFileError(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return resourcesOf(file, text);
}

/** Reads the stack tags and the ids of this package's instances and volumes from `pulumi stack export` files. */
export function readStackHoldings(files: readonly string[]): StackHoldings {
  const holdings: StackHoldings = { files: [...files], stacks: [], tags: new Set(), instances: new Set(), volumes: new Set(), scheduledJobs: new Set() };
  for (const file of files) {
    const given: GivenStack = { file };
    for (const r of readExport(file)) {
      if (typeof r.type !== "string" || !r.type.startsWith(TYPE_PREFIX)) continue;
      const type = r.type.slice(TYPE_PREFIX.length);
      if (type === "StackIdentity") {
        const nonce = r.outputs?.nonce;
        if (typeof nonce !== "string" || nonce === "") throw new StateFileError(file, "its StackIdentity has no readable `outputs.nonce`");
        given.tag = stackTagOf(nonce);
        holdings.tags.add(given.tag);
        continue;
      }
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
      else if (type === "ScheduledJob") holdings.scheduledJobs.add(id);
    }
    holdings.stacks.push(given);
  }
  return holdings;
}

/**
 * The tag of the stack whose marker `marker` is: from its first part (an Instance's marker, a
 * fleet's key) or, for a member of a fleet made by an earlier release, from its operation
 * marker. Undefined for a marker of an earlier release (16 hex digits) or of no known form.
 */
export function stackTagOfMarker(marker: string): string | undefined {
  for (const part of marker.split(".").slice(0, 2)) {
    if (LEGACY_MARKER.test(part)) continue;
    if (MARKER_PART.test(part)) return part.slice(0, STACK_TAG_LENGTH);
    return undefined;
  }
  return undefined;
}

/**
 * The marked instances and volumes of the account that the report lists: with holdings, the
 * given stacks' objects none of them holds and the unattributable ones none holds; without,
 * every marked one. Most expensive first.
 */
export async function findOrphans(client: VastClient, holdings?: StackHoldings): Promise<OrphanReport> {
  const [instances, volumes, jobs] = await Promise.all([client.instances.listAll(), client.volumes.list(), client.scheduledJobs.list()]);
  const listed: Orphan[] = [];
  let otherStacks = 0;
  /** Decides for one unheld marked object: listed (with its attribution) or another stack's. */
  const consider = (o: Omit<Orphan, "stack" | "attribution">): boolean => {
    const stack = stackTagOfMarker(o.marker) ?? null;
    let attribution: Attribution;
    if (!holdings) attribution = "unscoped";
    else if (stack === null) attribution = "unattributable";
    else if (holdings.tags.has(stack)) attribution = "orphan";
    else {
      otherStacks++;
      return false;
    }
    listed.push({ ...o, stack, attribution });
    return true;
  };
  /** Listed instances by id, with their markers: a volume made with one is listed with it. */
  const listedInstances = new Map<number, string>();
  for (const i of instances) {
    const marker = (i.extraEnv ?? []).find(([k]) => k === INSTANCE_MARKER_ENV)?.[1];
    if (marker === undefined || holdings?.instances.has(i.id)) continue;
    if (consider({ kind: "instance", id: i.id, name: i.label ?? null, marker, status: i.actualStatus ?? null, costPerHour: i.dphTotal ?? 0 })) {
      listedInstances.set(i.id, marker);
    }
  }
  for (const v of volumes) {
    const named = v.name === null ? undefined : VOLUME_MARKER.exec(v.name)?.[1];
    const user = v.instanceIds.find((id) => listedInstances.has(id));
    const marker = named ?? (user === undefined ? undefined : listedInstances.get(user));
    if (marker === undefined || holdings?.volumes.has(v.id)) continue;
    consider({ kind: "volume", id: v.id, name: v.name, marker, status: v.status, costPerHour: v.storageTotalCostPerHour ?? 0 });
  }
  // A job goes with the listed instance it acts on (it costs nothing itself); any other job is left alone.
  for (const j of jobs) {
    const marker = listedInstances.get(j.instanceId);
    if (marker === undefined || holdings?.scheduledJobs.has(j.id)) continue;
    consider({ kind: "scheduledJob", id: j.id, name: `${j.requestMethod} ${j.apiEndpoint} (${j.frequency.toLowerCase()}, instance ${j.instanceId})`, marker, status: null, costPerHour: 0 });
  }
  listed.sort((a, b) => b.costPerHour - a.costPerHour || a.kind.localeCompare(b.kind) || a.id - b.id);
  return { listed, otherStacks };
}

export interface DeleteOutcome {
  orphan: Orphan;
  /** `deleted`, `already gone`, or the error's message. */
  result: string;
  ok: boolean;
}

/**
 * Deletes the given orphans (only those attributed to a given stack; any other is skipped):
 * scheduled jobs first (none is left calling an instance that is gone), then instances (a
 * volume an instance uses cannot go), then volumes. Each delete is confirmed as the resources' deletes are (a 404 counts as gone only in the
 * service's own error shape). One failure does not stop the rest; each outcome is returned.
 */
export async function deleteOrphans(client: VastClient, orphans: readonly Orphan[]): Promise<DeleteOutcome[]> {
  const outcomes: DeleteOutcome[] = [];
  // Only a given stack's orphans: never an object of an unknown owner, whatever the caller passes.
  const ours = orphans.filter((o) => o.attribution === "orphan");
  const ordered = (["scheduledJob", "instance", "volume"] as const).flatMap((kind) => ours.filter((o) => o.kind === kind));
  for (const orphan of ordered) {
    try {
      const done =
        orphan.kind === "scheduledJob"
          ? await client.scheduledJobs.delete(orphan.id)
          : orphan.kind === "instance"
            ? await client.instances.destroy(orphan.id)
            : await client.volumes.delete(orphan.id);
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
    for (const r of readExport(file)) {
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
