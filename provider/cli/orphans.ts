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
 * object with the same marker, and that one is an orphan. Every field read for this is read or
 * refused (export-read.ts): an encrypted secret never reads as "holds nothing".
 *
 * An export holds what its stack held at its checkpoint (`deployment.manifest.time`): an
 * object created later (by the service's `start_date`, less CLOCK_MARGIN_MS for the two
 * clocks) may be held by the stack's newer state, and one whose creation time the service does
 * not give cannot be proved older; both are listed apart and never deleted.
 *
 * Templates carry none (the service adopts a template by its content) and the service has no
 * list of one's own templates, so they cannot be reported; they cost nothing per hour. Clusters
 * and overlays carry none either (a cluster has no name; an overlay's name is what instances
 * join by), so nothing proves one is a stack's: they are never listed or deleted.
 */
import * as fs from "node:fs";
import type { VastClient } from "../client";
import { stackTagOf } from "../resources/kit/create-once";
import { stackTagOfMarker } from "../resources/kit/stack-budget";
import { type FieldSite, RECORDED_STACK_OUTPUTS, UnreadableFieldError, isObject, openField, ownStackOf, recordedNameMatches, resourceLabel, rfc3339Ms } from "./export-read";

/** The environment variable every instance this package rents carries. */
export const INSTANCE_MARKER_ENV = "PULUMI_VASTAI_MARKER";
/** A volume's name as the Volume resources write it: `<name> [<marker>]`. */
const VOLUME_MARKER = / \[([A-Za-z0-9_-]{16})\]$/;
/** One part of a marker: a resource's marker (16 characters) or a fleet's key (16 or 22). */
/** Type tokens of this package's resources in a state file: `pulumi-nodejs:dynamic/vastai:<Type>`. */
const TYPE_PREFIX = "pulumi-nodejs:dynamic/vastai:";
/** The `version` of the `pulumi stack export` format this release reads. */
export const EXPORT_VERSION = 3;

export type OrphanKind = "instance" | "volume" | "scheduledJob";

/**
 * Why an object is listed: `orphan`, a given stack's, held by none of them and created before
 * its export's checkpoint (`--delete` deletes it); `newer`, a given stack's and held by none,
 * but created after its export's checkpoint less the clock margin (a later `up` may hold it:
 * never deleted); `unknownAge`, a given stack's and held by none, but the service gives no
 * creation time (it cannot be proved older than the export: never deleted); `unattributable`,
 * a marker of an earlier release held by no given stack (never deleted); `unscoped`, listed
 * without state files (never deleted).
 */
export type Attribution = "orphan" | "newer" | "unknownAge" | "unattributable" | "unscoped";

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
  /**
   * When the service says it was created (ISO 8601; an instance's or a volume's `start_date`);
   * a scheduled job has none of its own and takes its instance's. Null when not given.
   */
  createdAt: string | null;
  /** A scheduled job's instance (it is deleted only once that instance is seen gone). */
  instanceId?: number;
}

/**
 * An object counts as older than an export's checkpoint only when the service's creation time
 * is at least this much before the checkpoint's time: the two times come from two clocks (the
 * service's, and that of the machine that ran `pulumi`), and a machine whose clock runs ahead
 * would otherwise make an object created just after the checkpoint look older. NTP keeps clocks
 * within a second; ten minutes also covers an unsynchronised CI runner or laptop. The cost: an
 * orphan younger than this at the checkpoint waits for a later export (a `pulumi refresh`
 * writes one).
 */
export const CLOCK_MARGIN_MS = 10 * 60_000;

/** One given state file: the tag of its stack (undefined: no StackIdentity, a stack of an earlier release). */
export interface GivenStack {
  file: string;
  tag?: string;
  /** The time of the export's checkpoint (`deployment.manifest.time`), ISO 8601; with a tag. */
  checkpoint?: string;
  /** The stack the export is of (`<project>/<stack>`, its Stack resource's URN); undefined without one. */
  ownStack?: string;
  /** The stack name its StackIdentity records it was made for (an identity that records one). */
  identityMadeFor?: string;
}

/** The given stacks: their tags and the ids they hold, by kind. */
export interface StackHoldings {
  files: string[];
  stacks: GivenStack[];
  tags: Set<string>;
  /** Each tag's checkpoint time in epoch ms (the earliest, should two files share a tag). */
  checkpoints: Map<string, number>;
  instances: Set<number>;
  volumes: Set<number>;
  scheduledJobs: Set<number>;
  /**
   * Why the given exports cannot scope a delete: two files holding one nonce, an identity made
   * for another stack than the export's own, or an operation of this package's pending at the
   * checkpoint (an update was running, or was killed). `--delete` is refused.
   */
  conflicts: string[];
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

/** The resources of an export; anything but the known format is refused (never read as an empty stack). */
export function resourcesOf(file: string, text: string): ExportedResource[] {
  return parseExport(file, text).resources;
}

/** An export's `deployment` object and its resources, read strictly. */
export interface ParsedExport {
  deployment: Record<string, unknown>;
  resources: ExportedResource[];
}

/** Parses the text of a `pulumi stack export` file; anything but the known format is refused. */
export function parseExport(file: string, text: string): ParsedExport {
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
  const list = resources.map((r, i) => {
    if (!isObject(r)) throw new StateFileError(file, `\`deployment.resources[${i}]\` is not an object`);
    return r as ExportedResource;
  });
  return { deployment, resources: list };
}

/** The text of the file at `file`; a file that cannot be read is refused naming it. */
function readText(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new StateFileError(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** The resources of the `pulumi stack export` file at `file`, read strictly (resourcesOf). */
export function readExport(file: string): ExportedResource[] {
  return resourcesOf(file, readText(file));
}

/**
 * The operations of this package's resources an export records as in progress at its
 * checkpoint (`deployment.pending_operations`, which the Pulumi CLI writes only when there are
 * some), as `"<type>" <urn>`. A list it cannot read is refused.
 */
function pendingOperationsOf(file: string, deployment: Record<string, unknown>): string[] {
  const site: FieldSite = { file, resource: "the checkpoint" };
  const ops = openField(site, "deployment.pending_operations", deployment.pending_operations);
  if (ops === undefined || ops === null) return [];
  if (!Array.isArray(ops)) throw new UnreadableFieldError(file, site.resource, "deployment.pending_operations", `is ${JSON.stringify(ops)}, not a list`);
  const ours: string[] = [];
  ops.forEach((op, i) => {
    const resource = isObject(op) && isObject(op.resource) ? op.resource : undefined;
    if (!isObject(op) || !resource || typeof op.type !== "string") {
      throw new UnreadableFieldError(file, site.resource, `deployment.pending_operations[${i}]`, "is not an operation (`type` and `resource`)");
    }
    if (typeof resource.type === "string" && resource.type.startsWith(TYPE_PREFIX)) ours.push(`"${op.type}" ${typeof resource.urn === "string" ? resource.urn : resource.type}`);
  });
  return ours;
}

/** A positive whole id read through openField, or a refusal naming the field. */
function heldId(site: FieldSite, field: string, value: unknown): number {
  const opened = openField(site, field, value);
  const id = idOf(opened);
  if (id === undefined) throw new UnreadableFieldError(site.file, site.resource, field, `is ${JSON.stringify(opened) ?? "missing"}, not an id`);
  return id;
}

/**
 * Reads the stack tags, checkpoint times and the ids of this package's instances, volumes and
 * jobs from `pulumi stack export` files. Every field it relies on is read or refused
 * (UnreadableFieldError, StateFileError): an encrypted Fleet `members`, an id that is not one,
 * a StackIdentity's nonce, a checkpoint without its time. `now` checks a checkpoint is not
 * from this machine's future.
 */
export function readStackHoldings(files: readonly string[], now: number = Date.now()): StackHoldings {
  const holdings: StackHoldings = {
    files: [...files], stacks: [], tags: new Set(), checkpoints: new Map(), instances: new Set(), volumes: new Set(), scheduledJobs: new Set(), conflicts: [],
  };
  for (const file of files) {
    const given: GivenStack = { file };
    const { deployment, resources } = parseExport(file, readText(file));
    resources.forEach((r, index) => {
      if (typeof r.type !== "string" || !r.type.startsWith(TYPE_PREFIX)) return;
      const type = r.type.slice(TYPE_PREFIX.length);
      const site: FieldSite = { file, resource: resourceLabel(r, index) };
      const outputs = openField(site, "outputs", r.outputs);
      const out = isObject(outputs) ? outputs : undefined;
      if (type === "StackIdentity") {
        const nonce = openField(site, "outputs.nonce", out?.nonce);
        if (typeof nonce !== "string" || nonce === "") throw new StateFileError(file, "its StackIdentity has no readable `outputs.nonce`");
        given.tag = stackTagOf(nonce);
        holdings.tags.add(given.tag);
        for (const key of RECORDED_STACK_OUTPUTS) {
          if (out?.[key] === undefined || out[key] === null) continue;
          const name = openField(site, `outputs.${key}`, out[key]);
          if (typeof name !== "string" || name === "") throw new UnreadableFieldError(file, site.resource, `outputs.${key}`, `is ${JSON.stringify(name)}, not a stack name`);
          given.identityMadeFor ??= name;
        }
        return;
      }
      if (type === "Fleet") {
        if (!out) throw new UnreadableFieldError(file, site.resource, "outputs", "is missing");
        const members = openField(site, "outputs.members", out.members);
        if (!Array.isArray(members)) throw new UnreadableFieldError(file, site.resource, "outputs.members", `is ${JSON.stringify(members) ?? "missing"}, not a list`);
        members.forEach((value, i) => {
          const m = openField(site, `outputs.members[${i}]`, value);
          if (!isObject(m)) throw new UnreadableFieldError(file, site.resource, `outputs.members[${i}]`, `is ${JSON.stringify(m)}, not a member`);
          holdings.instances.add(heldId(site, `outputs.members[${i}].id`, m.id));
          const volumeId = openField(site, `outputs.members[${i}].volumeId`, m.volumeId);
          if (volumeId !== undefined && volumeId !== null) holdings.volumes.add(heldId(site, `outputs.members[${i}].volumeId`, volumeId));
        });
        return;
      }
      const held =
        type === "Instance" ? holdings.instances : type === "Volume" || type === "NetworkVolume" ? holdings.volumes : type === "ScheduledJob" ? holdings.scheduledJobs : undefined;
      if (held) held.add(heldId(site, "id", r.id));
    });
    const pending = pendingOperationsOf(file, deployment);
    if (pending.length > 0) {
      holdings.conflicts.push(
        `${file} records operations of this package in progress at its checkpoint (${pending.join(", ")}): an update was running, or was killed, and what it makes may exist without the export holding it, however old it is. ` +
          "When no update runs, resolve them (`pulumi refresh --clear-pending-creates`, or `pulumi refresh` at a terminal, which asks; a later `pulumi up` keeps a pending create), then export again",
      );
    }
    const own = ownStackOf(resources);
    if (own) given.ownStack = `${own.project}/${own.stack}`;
    if (given.tag !== undefined) {
      const site: FieldSite = { file, resource: "the checkpoint" };
      const manifest = openField(site, "deployment.manifest", deployment.manifest);
      const time = openField(site, "deployment.manifest.time", isObject(manifest) ? manifest.time : undefined);
      const ms = rfc3339Ms(time);
      if (ms === undefined) {
        throw new UnreadableFieldError(file, site.resource, "deployment.manifest.time", `is ${JSON.stringify(time) ?? "missing"}, not an RFC 3339 time (the time \`pulumi\` wrote the checkpoint)`);
      }
      if (ms > now + CLOCK_MARGIN_MS) {
        throw new UnreadableFieldError(file, site.resource, "deployment.manifest.time", `is ${String(time)}, more than ${CLOCK_MARGIN_MS / 60_000} minutes ahead of this machine's clock (one of the clocks is wrong)`);
      }
      given.checkpoint = new Date(ms).toISOString();
      holdings.checkpoints.set(given.tag, Math.min(ms, holdings.checkpoints.get(given.tag) ?? Infinity));
      if (given.identityMadeFor !== undefined && (!own || !recordedNameMatches(given.identityMadeFor, own))) {
        holdings.conflicts.push(
          `the stack identity in ${file} was made for stack ${given.identityMadeFor}, but the export is of ${own ? `stack ${given.ownStack}` : "no stack it names (it has no pulumi:pulumi:Stack resource)"}: ` +
            "its state was copied from that stack, whose objects carry the same tag. Give the export of the stack the identity was made for, or settle the copy first (see docs/sharing-an-account.md) and export again",
        );
      }
    }
    holdings.stacks.push(given);
  }
  const byTag = new Map<string, GivenStack[]>();
  for (const s of holdings.stacks) if (s.tag !== undefined) byTag.set(s.tag, [...(byTag.get(s.tag) ?? []), s]);
  for (const [tag, same] of byTag) {
    if (same.length < 2) continue;
    const named = same.map((s) => `${s.file}${s.ownStack ? ` (stack ${s.ownStack})` : ""}`).join(" and ");
    holdings.conflicts.push(
      `${named} hold the same stack identity (tag ${tag}): one stack's state was copied to the other, so their objects cannot be told apart by marker. Settle the copy (see docs/sharing-an-account.md) and export again`,
    );
  }
  return holdings;
}

/** The tag of the stack a marker names (kit/stack-budget.ts, which counts a stack's objects by the same rule). */
export { stackTagOfMarker };

/** ISO 8601 of a service time in Unix seconds; null when there is none or it is not a time. */
function isoOfSeconds(seconds: number | null | undefined): string | null {
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds <= 0) return null;
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * The marked instances and volumes of the account that the report lists: with holdings, the
 * given stacks' objects none of them holds and the unattributable ones none holds; without,
 * every marked one. An object of a given stack is an orphan only when the service's creation
 * time is at least CLOCK_MARGIN_MS before that stack's checkpoint. Most expensive first.
 */
export async function findOrphans(client: VastClient, holdings?: StackHoldings): Promise<OrphanReport> {
  const [instances, volumes, jobs] = await Promise.all([client.instances.listAll(), client.volumes.list(), client.scheduledJobs.list()]);
  const listed: Orphan[] = [];
  let otherStacks = 0;
  /** Decides for one unheld marked object: listed (with its attribution) or another stack's. */
  const consider = (o: Omit<Orphan, "stack" | "attribution">): Orphan | undefined => {
    const stack = stackTagOfMarker(o.marker) ?? null;
    let attribution: Attribution;
    if (!holdings) attribution = "unscoped";
    else if (stack === null) attribution = "unattributable";
    else if (holdings.tags.has(stack)) {
      const checkpoint = holdings.checkpoints.get(stack);
      const created = o.createdAt === null ? undefined : Date.parse(o.createdAt);
      if (created === undefined || checkpoint === undefined) attribution = "unknownAge";
      else attribution = created <= checkpoint - CLOCK_MARGIN_MS ? "orphan" : "newer";
    } else {
      otherStacks++;
      return undefined;
    }
    const orphan: Orphan = { ...o, stack, attribution };
    listed.push(orphan);
    return orphan;
  };
  /** Listed instances by id: a volume made with one is listed with its marker, a job with its attribution. */
  const listedInstances = new Map<number, Orphan>();
  for (const i of instances) {
    const marker = (i.extraEnv ?? []).find(([k]) => k === INSTANCE_MARKER_ENV)?.[1];
    if (marker === undefined || holdings?.instances.has(i.id)) continue;
    const orphan = consider({
      kind: "instance", id: i.id, name: i.label ?? null, marker, status: i.actualStatus ?? null, costPerHour: i.dphTotal ?? 0, createdAt: isoOfSeconds(i.startDate),
    });
    if (orphan) listedInstances.set(i.id, orphan);
  }
  for (const v of volumes) {
    const named = v.name === null ? undefined : VOLUME_MARKER.exec(v.name)?.[1];
    const user = v.instanceIds.find((id) => listedInstances.has(id));
    const marker = named ?? (user === undefined ? undefined : listedInstances.get(user)?.marker);
    if (marker === undefined || holdings?.volumes.has(v.id)) continue;
    consider({ kind: "volume", id: v.id, name: v.name, marker, status: v.status, costPerHour: v.storageTotalCostPerHour ?? 0, createdAt: isoOfSeconds(v.startDate) });
  }
  // A job goes with the listed instance it acts on (it costs nothing itself; the service gives
  // no creation time of a job): same marker, attribution and age. Any other job is left alone.
  for (const j of jobs) {
    const instance = listedInstances.get(j.instanceId);
    if (instance === undefined || holdings?.scheduledJobs.has(j.id)) continue;
    listed.push({
      kind: "scheduledJob", id: j.id, name: `${j.requestMethod} ${j.apiEndpoint} (${j.frequency.toLowerCase()}, instance ${j.instanceId})`,
      marker: instance.marker, stack: instance.stack, attribution: instance.attribution, status: null, costPerHour: 0, createdAt: instance.createdAt, instanceId: j.instanceId,
    });
  }
  listed.sort((a, b) => b.costPerHour - a.costPerHour || a.kind.localeCompare(b.kind) || a.id - b.id);
  return { listed, otherStacks };
}

export interface DeleteOutcome {
  orphan: Orphan;
  /** `deleted`, `already gone` (both seen gone in a fresh listing), or why it is not counted deleted. */
  result: string;
  /** Seen gone after the delete. */
  ok: boolean;
}

/** How the deletes are checked: fresh listings, read again after a wait while an object still shows. */
export interface DeleteChecks {
  /** Listings read again while a deleted object still shows (default 2). */
  rereads?: number;
  /** Ms between them (default 5000). */
  waitMs?: number;
  /** Waits `ms` (tests: instant). */
  sleep?: (ms: number) => Promise<void>;
}

type Kind = Orphan["kind"];
const listingOf = (client: VastClient, kind: Kind): Promise<number[]> =>
  kind === "instance"
    ? client.instances.listAll().then((l) => l.map((i) => i.id))
    : kind === "volume"
      ? client.volumes.list().then((l) => l.map((v) => v.id))
      : client.scheduledJobs.list().then((l) => l.map((j) => j.id));

/**
 * Which of `done` (deletes the service answered as done) a fresh listing no longer shows; one
 * still shown is read again `rereads` times, `waitMs` apart. Returns, per object, null when it is
 * seen gone, else why it is not counted deleted.
 */
async function seenGone(client: VastClient, done: readonly Orphan[], checks: DeleteChecks): Promise<Map<Orphan, string | null>> {
  const verdict = new Map<Orphan, string | null>();
  const rereads = checks.rereads ?? 2;
  const sleep = checks.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let pending = [...done];
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await sleep(checks.waitMs ?? 5000);
    const listings = new Map<Kind, Set<number> | Error>();
    for (const kind of new Set(pending.map((o) => o.kind))) {
      try {
        listings.set(kind, new Set(await listingOf(client, kind)));
      } catch (error) {
        listings.set(kind, error as Error);
      }
    }
    const still: Orphan[] = [];
    for (const o of pending) {
      const listing = listings.get(o.kind)!;
      if (listing instanceof Error) verdict.set(o, `the service answered the delete as done, but listing ${o.kind}s to see it gone failed (${listing.message}): not counted as deleted`);
      else if (listing.has(o.id)) still.push(o);
      else verdict.set(o, null);
    }
    if (still.length > 0 && attempt >= rereads) {
      for (const o of still) verdict.set(o, `still present: the service answered the delete as done, but a fresh listing still shows it (read ${attempt + 1} time(s))`);
      break;
    }
    pending = still;
  }
  return verdict;
}

/**
 * Deletes the given orphans (only those attributed `orphan`; any other is skipped): instances
 * first (a volume an instance uses cannot go), then volumes, then the scheduled jobs of
 * instances seen gone (a job whose instance stays is left: nothing gives its own age, and it
 * would act on a live object). Each delete is confirmed as the resources' deletes are (a 404
 * counts as gone only in the service's own error shape), and counts as deleted only when a
 * fresh listing no longer shows the object. One failure does not stop the rest; each outcome
 * is returned.
 */
export async function deleteOrphans(client: VastClient, orphans: readonly Orphan[], checks: DeleteChecks = {}): Promise<DeleteOutcome[]> {
  const outcomes = new Map<Orphan, DeleteOutcome>();
  // Only a given stack's orphans: never an object of an unknown owner or age, whatever the caller passes.
  const ours = orphans.filter((o) => o.attribution === "orphan");
  const run = async (batch: readonly Orphan[]) => {
    const answered: Array<[Orphan, string]> = [];
    for (const orphan of batch) {
      try {
        const done =
          orphan.kind === "scheduledJob"
            ? await client.scheduledJobs.delete(orphan.id)
            : orphan.kind === "instance"
              ? await client.instances.destroy(orphan.id)
              : await client.volumes.delete(orphan.id);
        answered.push([orphan, done.alreadyGone ? "already gone" : "deleted"]);
      } catch (error) {
        outcomes.set(orphan, { orphan, result: (error as Error).message, ok: false });
      }
    }
    const verdict = await seenGone(client, answered.map(([o]) => o), checks);
    for (const [orphan, result] of answered) {
      const why = verdict.get(orphan) ?? null;
      outcomes.set(orphan, why === null ? { orphan, result, ok: true } : { orphan, result: why, ok: false });
    }
  };
  await run(ours.filter((o) => o.kind === "instance"));
  await run(ours.filter((o) => o.kind === "volume"));
  const goneInstances = new Set([...outcomes.values()].filter((d) => d.ok && d.orphan.kind === "instance").map((d) => d.orphan.id));
  const jobs = ours.filter((o) => o.kind === "scheduledJob");
  for (const job of jobs) {
    if (job.instanceId !== undefined && !goneInstances.has(job.instanceId)) {
      outcomes.set(job, { orphan: job, result: `not deleted: its instance ${job.instanceId} was not seen gone`, ok: false });
    }
  }
  await run(jobs.filter((j) => !outcomes.has(j)));
  const order: Kind[] = ["instance", "volume", "scheduledJob"];
  return order.flatMap((kind) => ours.filter((o) => o.kind === kind).map((o) => outcomes.get(o)!));
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

export async function findLeftovers(client: VastClient, files: readonly string[] = [], holdings?: StackHoldings): Promise<Leftover[]> {
  const groupsHeld = heldWorkerGroups(files);
  // The holdings the report already read (with its clock), else read here.
  const volumesHeld = holdings?.volumes ?? (files.length > 0 ? readStackHoldings(files).volumes : new Set<number>());
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
