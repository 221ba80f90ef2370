/**
 * The WorkerGroup provider. The group id is the Pulumi id and the id its logs use; every
 * setting, the endpoint included, is a PUT on the same id (vendor document:
 * `PUT /api/v0/workergroups/{id}`). A group carries no name to hold a marker, so a create whose
 * answer was lost (or whose plugin was killed) is recognised by its settings: a group on the
 * same endpoint with the same template, search and launch arguments that this process has not
 * already taken.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { OfferFilters, VastClient, WorkerGroup, WorkerGroupSettings } from "../../client";
import { WORKER_GROUP_SEARCH_DEFAULTS, offerConditionProblem, workerGroupSearchParams } from "../../client/wire/filters";
import { getClient } from "../../context";
import { IMPORTED_INPUT_KEY, createAtMostOnce, diffDeclared, isFirstCreate, jsonClean, lookUp, numericImport, type ImportableImpl, type Props, checkDeclared } from "../kit";
import { WORKER_GROUP } from "./declare";
import { liveWorkerGroups } from "../endpoint/live";
import { deleteWithWorkers } from "./workers";
import { LOST_CREATES_KEY, LostSendLog, lostCreatesOf, sweepStrays } from "./strays";

const OPTIONAL = ["templateHash", "searchParams", "launchArgs", "gpuRam", "testWorkers", "coldWorkers", "minLoad", "targetUtil", "coldMult"] as const;

/**
 * What a group is sent for a field the program leaves out, so the service's own default (the
 * document's min_load 1.0, cold_mult 3.0) never applies unseen. The same as the vendor's client
 * and as Endpoint's defaults; the endpoint's settings govern scaling.
 */
export const WORKER_GROUP_DEFAULTS = { testWorkers: 3, minLoad: 0, targetUtil: 0.9, coldMult: 2.5, autoscalerInstance: "prod" } as const;

const nonNegative = z.number({ error: "must be a number" }).finite("must be a finite number").min(0, "must not be negative");

/** `searchParams`: the vendor's query string, or typed offer filters (the offer vocabulary, client wire/filters.ts). */
const searchParams = z.union(
  [
    z.string().max(4096, "must be at most 4096 characters"),
    z.record(z.string(), z.unknown()).superRefine((filters, ctx) => {
      for (const [field, condition] of Object.entries(filters)) {
        const problem = offerConditionProblem(field, condition);
        if (problem) ctx.addIssue({ code: "custom", path: [field], message: problem });
      }
    }),
  ],
  { error: 'must be a search string such as "gpu_ram>=24 num_gpus=1" or offer filters such as { gpuRamGb: { gte: 24 } }' },
);

const count = z.number({ error: "must be a number" }).int("must be a whole number").min(0, "must not be negative");

const schema = z
  .strictObject({
    endpointId: z
      .unknown()
      .refine((v) => (typeof v === "number" && Number.isInteger(v) && v > 0) || (typeof v === "string" && /^[1-9]\d*$/.test(v)), {
        message: "must be the Endpoint's id (endpoint.id) or its number",
      }),
    templateHash: z.string({ error: "must be a string" }).regex(/^[A-Za-z0-9]+$/, "must be a template's hash (letters and digits)").optional(),
    searchParams: searchParams.optional(),
    launchArgs: z.string({ error: "must be a string" }).max(4096, "must be at most 4096 characters").optional(),
    gpuRam: z.number({ error: "must be a number" }).finite("must be a finite number").min(0, "must not be negative").optional(),
    testWorkers: count.max(10, "must be at most 10").optional(),
    coldWorkers: count.optional(),
    minLoad: nonNegative.optional(),
    targetUtil: z.number({ error: "must be a number" }).gt(0, "must be above 0").max(1, "must be at most 1 (a fraction)").optional(),
    coldMult: nonNegative.optional(),
  })
  .refine((v) => v.templateHash !== undefined || v.searchParams !== undefined, {
    path: ["templateHash"],
    message: "give templateHash, searchParams or both (what the workers run and where)",
  });

function groupId(id: string): number {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`WorkerGroup id "${id}" is not a numeric worker group id`);
  return n;
}

/**
 * The settings sent: every field, the defaults for those left out, and the search with the
 * vendor client's defaults (`verified=True rentable=True rented=False`, a term the user gives
 * wins); typed filters are written in the query language.
 */
function settingsOf(inputs: Props): WorkerGroupSettings {
  const out: WorkerGroupSettings = { endpointId: Number(inputs.endpointId), ...(inputs[IMPORTED_INPUT_KEY] || inputs.importId !== undefined ? {} : WORKER_GROUP_DEFAULTS) };
  for (const k of OPTIONAL) if (inputs[k] !== undefined) (out as unknown as Record<string, unknown>)[k] = inputs[k];
  out.searchParams = workerGroupSearchParams(inputs.searchParams as string | OfferFilters | undefined);
  return out;
}

function outputs(g: WorkerGroup): Props {
  return { workerGroupId: g.id, endpointName: g.endpointName, createdAt: g.createdAt };
}

/** The inputs a refresh saw: live values of what the program states; the endpoint id keeps its input form. */
export function liveInputs(props: Props, live: WorkerGroup): Props {
  const endpointId = Number(props.endpointId) === live.endpointId ? props.endpointId : live.endpointId;
  const out: Props = { endpointId };
  for (const k of OPTIONAL) if (props[k] !== undefined) out[k] = live[k] ?? props[k];
  // The search as sent (defaults appended, filters written out) is the program's own.
  if (props.searchParams !== undefined && live.searchParams === settingsOf(props).searchParams) out.searchParams = props.searchParams;
  return out;
}

/** A search's own terms, in order, without the vendor client's default terms (they are added to every search). */
function ownTerms(search: string): string {
  const defaults = new Set(Object.entries(WORKER_GROUP_SEARCH_DEFAULTS).map(([k, v]) => `${k}=${v}`.toLowerCase()));
  return search.split(/\s+/).filter((t) => t !== "" && !defaults.has(t.toLowerCase())).join(" ");
}

/** Whether `g` is what a create of `s` made (the search compared without the default terms). */
function sameGroup(g: WorkerGroup, s: WorkerGroupSettings): boolean {
  return (
    g.endpointId === s.endpointId &&
    (s.templateHash === undefined || g.templateHash === s.templateHash) &&
    (s.searchParams === undefined || g.searchParams === undefined || ownTerms(g.searchParams) === ownTerms(s.searchParams)) &&
    (g.launchArgs ?? undefined) === s.launchArgs
  );
}

/** Groups this process created or adopted, per client: never adopted a second time by a sibling resource. */
const takenBy = new WeakMap<VastClient, Set<number>>();
function takenOf(client: VastClient): Set<number> {
  let set = takenBy.get(client);
  if (!set) takenBy.set(client, (set = new Set()));
  return set;
}

let creating: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(run: () => Promise<T>): Promise<T> {
  const next = creating.then(run, run);
  creating = next.catch(() => undefined);
  return next;
}

async function createGroup(client: VastClient, settings: WorkerGroupSettings, adoptable: boolean): Promise<{ id: number; lost: LostSendLog }> {
  const taken = takenOf(client);
  const matching = async () => (await client.workerGroups.list()).filter((g) => !taken.has(g.id) && sameGroup(g, settings));
  const existing = await matching();
  const before = new Set(existing.map((g) => g.id));
  const lost = new LostSendLog(before);
  const id = await createAtMostOnce<number>({
    // A group with these settings on the resource's first create is what a killed run of it made.
    adopt: async () => (adoptable && existing.length > 0 ? existing[0].id : undefined),
    send: () => client.workerGroups.create(settings),
    recover: async () => lost.found(lookUp(async () => (await matching()).find((g) => !before.has(g.id))?.id)),
  });
  taken.add(id);
  return { id, lost };
}

/**
 * After a create whose lost sends were not found (strays.ts): groups with these settings that
 * landed late are deleted with their workers. Returns the state's new `lostCreates`.
 */
async function sweepLateGroups(client: VastClient, own: WorkerGroup, props: Props): Promise<Props> {
  const watch = lostCreatesOf(props);
  if (!watch) return {};
  const taken = takenOf(client);
  const settings = settingsOf(props);
  const matching = (await client.workerGroups.list()).filter((g) => !(taken.has(g.id) && g.id !== own.id) && sameGroup(g, settings));
  const left = await sweepStrays(own, watch, matching, (id) => deleteWithWorkers(client, `WorkerGroup ${id} (a late copy of ${own.id})`, [id], () => client.workerGroups.delete(id)));
  return { [LOST_CREATES_KEY]: left };
}

export const provider: ImportableImpl = {
  // importId: the numeric group id. The endpoint, left out, is the one the group is on; what
  // the workers run may be left out too (the group has it); declared settings are written in place.
  importing: numericImport("WorkerGroup", "worker group", { keepShown: ["endpointId"], optionalOnImport: ["endpointId", "templateHash"] }),

  async check(_olds, news) {
    return checkDeclared(WORKER_GROUP, schema, news);
  },

  async diff(_id, olds, news) {
    // The endpoint id given as a number or as the Endpoint's id string is the same endpoint.
    const same = Number(olds.endpointId) === Number(news.endpointId);
    return diffDeclared(WORKER_GROUP, same ? { ...olds, endpointId: news.endpointId } : olds, news, [LOST_CREATES_KEY]);
  },

  async create(inputs) {
    const settings = settingsOf(inputs);
    const client = getClient();
    let made: { id: number; lost: LostSendLog };
    try {
      made = await oneAtATime(() => createGroup(client, settings, isFirstCreate(inputs)));
    } catch (error) {
      throw new Error(`WorkerGroup on endpoint ${settings.endpointId}: creating the group failed: ${(error as Error).message}`, { cause: error });
    }
    const id = made.id;
    const live = await liveWorkerGroups(client).get(String(id));
    const outs = { ...inputs, workerGroupId: id, endpointName: live?.endpointName, createdAt: live?.createdAt, ...made.lost.outputs() };
    return { id: String(id), outs: jsonClean(outs) as Props };
  },

  async read(id, props): Promise<pulumi.dynamic.ReadResult> {
    const n = groupId(id);
    const live = await liveWorkerGroups().get(String(n));
    if (!live) return { id: "" };
    const inputs = liveInputs(props, live);
    const swept = await sweepLateGroups(getClient(), live, props);
    return { id, props: jsonClean({ ...props, ...inputs, ...outputs(live), ...swept }) as Props, inputs: jsonClean(inputs) as Props };
  },

  async update(id, olds, news) {
    const n = groupId(id);
    const client = getClient();
    await client.workerGroups.update(n, settingsOf(news));
    const live = await liveWorkerGroups(client).get(String(n));
    const swept = live ? await sweepLateGroups(client, live, { ...news, [LOST_CREATES_KEY]: olds[LOST_CREATES_KEY] }) : { [LOST_CREATES_KEY]: olds[LOST_CREATES_KEY] };
    return { outs: jsonClean({ ...news, workerGroupId: n, endpointName: live?.endpointName ?? olds.endpointName, createdAt: olds.createdAt, ...swept }) as Props };
  },

  async delete(id) {
    // Its workers first, then the group, then a listing that confirms they are gone (workers.ts).
    const n = groupId(id);
    const client = getClient();
    await deleteWithWorkers(client, `WorkerGroup ${n}`, [n], () => client.workerGroups.delete(n));
  },
};
