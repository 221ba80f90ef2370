/**
 * The Endpoint provider. The endpoint id is the Pulumi id; every setting, the name included, is
 * a PUT on the same id (vendor document: `PUT /api/v0/endptjobs/{id}`), so nothing replaces.
 * A create whose answer was lost, or whose plugin was killed, is found by its name.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { registerSecret, type EndpointSettings, type ServerlessEndpoint, type VastClient } from "../../client";
import { getClient } from "../../context";
import { IMPORTED_INPUT_KEY, warnOnce, createAtMostOnce, diffDeclared, isFirstCreate, jsonClean, lookUp, numericImport, type ImportableImpl, type Props, checkDeclared } from "../kit";
import { ENDPOINT } from "./declare";
import { liveEndpoints, liveWorkerGroups } from "./live";
import { endpointKey, endpointWorkerIds, rowsHourlyCost, spentUsd, unixOf } from "../kit/costs";
import { liveInstances } from "../instance/live";
import { deleteWithWorkers } from "../workerGroup/workers";
import { LOST_CREATES_KEY, LostSendLog, lostCreatesOf, sweepStrays } from "../workerGroup/strays";


/**
 * `hourlyCost` of endpoint `id`: its workers' (the instances its worker groups run, read
 * through the shared readers: the groups' list, one workers call per group of the endpoint,
 * the instances by id). When they cannot be read it is `previous`, with one warning.
 */
async function endpointHourly(client: VastClient, id: number, previous: unknown): Promise<number | null> {
  try {
    const workers = await endpointWorkerIds(client, id, await liveWorkerGroups(client).list());
    return rowsHourlyCost(await Promise.all(workers.map((w) => liveInstances(client).get(String(w)))));
  } catch (error) {
    warnOnce(`endpoint-hourly-${id}`, `Endpoint ${id}: reading its workers for hourlyCost failed (${(error as Error).message.replace(/\.$/, "")}); hourlyCost keeps its last value.`);
    return typeof previous === "number" ? previous : null;
  }
}

/** `spentUsd` of endpoint `id`: its workers' charges (rows naming it in `metadata.endpoint_id`) since its creation (kit/costs.ts). */
function endpointSpent(id: number | string, createdAt: unknown, previous: unknown): Promise<number | undefined> {
  return spentUsd(getClient(), `Endpoint ${id}`, [endpointKey(id)], unixOf(createdAt), previous);
}

/** Input name -> the settings field of the client (same names). */
export const ENDPOINT_SETTINGS = [
  "minLoad",
  "minColdLoad",
  "targetUtil",
  "coldMult",
  "coldWorkers",
  "maxWorkers",
  "maxQueueTime",
  "targetQueueTime",
  "inactivityTimeout",
] as const;

/**
 * What an endpoint is sent for a scaling field the program leaves out: the vendor client's
 * values, never the service's own defaults (its document says min_load 10.0, which keeps paid
 * capacity warm with no traffic). maxQueueTime/targetQueueTime are the vendor client's
 * documented defaults; inactivityTimeout has no vendor default and is left to the service.
 * An imported endpoint keeps what the service holds for fields the program leaves out.
 */
export const ENDPOINT_DEFAULTS = {
  minLoad: 0,
  minColdLoad: 0,
  targetUtil: 0.9,
  coldMult: 2.5,
  coldWorkers: 5,
  maxWorkers: 20,
  maxQueueTime: 30,
  targetQueueTime: 10,
} as const;

const nonNegative = z.number({ error: "must be a number" }).finite("must be a finite number").min(0, "must not be negative");
/**
 * Workers an endpoint may scale to: our own bound. The vendor document gives max_workers no
 * maximum (default 20); 1000 GPUs is past any one account's use of the market, while 1e9
 * is a typo that would let the autoscaler rent without end.
 */
export const MAX_WORKERS = 1000;

const count = z.number({ error: "must be a number" }).int("must be a whole number").min(0, "must not be negative");

const schema = z.strictObject({
  name: z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .max(64, "must be at most 64 characters")
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "must be letters, digits, '.', '_' or '-', starting with a letter or digit"),
  minLoad: nonNegative.optional(),
  minColdLoad: nonNegative.optional(),
  targetUtil: z.number({ error: "must be a number" }).gt(0, "must be above 0").max(1, "must be at most 1 (a fraction)").optional(),
  coldMult: nonNegative.optional(),
  coldWorkers: count.max(MAX_WORKERS, `must be at most ${MAX_WORKERS}`).optional(),
  maxWorkers: count.min(1, "must be at least 1").max(MAX_WORKERS, `must be at most ${MAX_WORKERS}`).optional(),
  maxQueueTime: nonNegative.optional(),
  targetQueueTime: nonNegative.optional(),
  inactivityTimeout: count.optional(),
});

function endpointId(id: string): number {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`Endpoint id "${id}" is not a numeric endpoint id`);
  return n;
}

function settingsOf(inputs: Props): EndpointSettings {
  const out: EndpointSettings = { name: String(inputs.name), ...(inputs[IMPORTED_INPUT_KEY] || inputs.importId !== undefined ? {} : ENDPOINT_DEFAULTS) };
  for (const k of ENDPOINT_SETTINGS) if (typeof inputs[k] === "number") out[k] = inputs[k] as number;
  return out;
}

function outputs(e: ServerlessEndpoint): Props {
  registerSecret(e.apiKey);
  return { endpointId: e.id, state: e.state, createdAt: e.createdAt, apiKey: e.apiKey };
}

/** The inputs a refresh saw: the live value of every setting the program states, the rest left to the service. */
export function liveInputs(props: Props, live: ServerlessEndpoint): Props {
  const out: Props = { name: live.name || props.name };
  for (const k of ENDPOINT_SETTINGS) if (props[k] !== undefined) out[k] = live[k] ?? props[k];
  return out;
}

// Creations of this process run one at a time, so a lost answer's look-up by name never takes a sibling's endpoint.
let creating: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(run: () => Promise<T>): Promise<T> {
  const next = creating.then(run, run);
  creating = next.catch(() => undefined);
  return next;
}

async function createEndpoint(client: VastClient, settings: EndpointSettings, adoptable: boolean): Promise<ServerlessEndpoint & { lost: LostSendLog }> {
  const named = async () => (await client.endpointGroups.list()).filter((e) => e.name === settings.name);
  const existing = await named();
  const before = new Set(existing.map((e) => e.id));
  const lost = new LostSendLog(before);
  const made = await createAtMostOnce<number>({
    // An endpoint of this name on the resource's first create is what a killed run of it made.
    adopt: async () => {
      if (existing.length === 0) return undefined;
      if (adoptable && existing.length === 1) return existing[0].id;
      throw new Error(
        `an endpoint named "${settings.name}" already exists (id ${existing.map((e) => e.id).join(", ")}): endpoints are called by name, ` +
          `so choose another name or take it over with importId: "${existing[0].id}"`,
      );
    },
    send: () => client.endpointGroups.create(settings),
    recover: async () => lost.found(lookUp(async () => (await named()).find((e) => !before.has(e.id))?.id)),
  });
  const live = (await client.endpointGroups.list()).find((e) => e.id === made);
  if (!live) throw new Error(`the endpoint ${made} the service made is not in its listing`);
  // An adopted endpoint takes this program's settings.
  if (before.has(made)) await client.endpointGroups.update(made, settings);
  return { ...live, ...settings, id: made, lost };
}

/**
 * After a create whose lost sends were not found (workerGroup/strays.ts): endpoints of this
 * name that landed late are named in a warning, never deleted. An endpoint carries no marker,
 * so a same-named one may be a teammate's (another stack on the account), and an endpoint
 * alone bills nothing: its worker groups do, and the groups of this stack's WorkerGroups
 * point at this endpoint's own id, where a late copy of a group is provably this stack's
 * (workerGroup/provider.ts deletes those). Returns the new `lostCreates`.
 */
async function sweepLateEndpoints(client: VastClient, own: ServerlessEndpoint, props: Props): Promise<Props> {
  const watch = lostCreatesOf(props);
  if (!watch) return {};
  const all = await client.endpointGroups.list();
  // The name the create sent: a late copy carries it even after this endpoint was renamed.
  const name = typeof props.name === "string" ? props.name : own.name;
  const matching = all.filter((e) => e.name === name);
  const left = await sweepStrays(own, watch, matching, async (id) => {
    warnOnce(
      `late-endpoint-${id}`,
      `Endpoint ${own.id}: endpoint ${id} named ${JSON.stringify(name)} appeared after a create of this endpoint lost its answer; it may be that lost create, or another stack's endpoint of the same name, so it is left alone. If it is not another stack's, delete it: \`vastai delete endpoint ${id}\` (an endpoint alone bills nothing; its worker groups do).`,
    );
  });
  return { [LOST_CREATES_KEY]: left };
}

export const provider: ImportableImpl = {
  // importId: the numeric endpoint id. The name, left out, keeps the service's; settings left
  // out stay as the service holds them, declared ones are written in place.
  importing: numericImport("Endpoint", "endpoint", { keepShown: ["name"], optionalOnImport: ["name"] }),

  async check(_olds, news) {
    return checkDeclared(ENDPOINT, schema, news);
  },

  async diff(_id, olds, news) {
    return diffDeclared(ENDPOINT, olds, news, [LOST_CREATES_KEY]);
  },

  async create(inputs) {
    const settings = settingsOf(inputs);
    let live: ServerlessEndpoint & { lost: LostSendLog };
    try {
      live = await oneAtATime(() => createEndpoint(getClient(), settings, isFirstCreate(inputs)));
    } catch (error) {
      throw new Error(`Endpoint "${settings.name}": creating the endpoint failed: ${(error as Error).message}`, { cause: error });
    }
    const { lost, ...endpoint } = live;
    const spent = await endpointSpent(live.id, endpoint.createdAt, undefined);
    // A new endpoint has no worker group yet: no workers, nothing per hour.
    return { id: String(live.id), outs: jsonClean({ ...inputs, ...outputs(endpoint), spentUsd: spent, hourlyCost: 0, ...lost.outputs() }) as Props };
  },

  async read(id, props): Promise<pulumi.dynamic.ReadResult> {
    const n = endpointId(id);
    const live = await liveEndpoints().get(String(n));
    if (!live) return { id: "" };
    const inputs = liveInputs(props, live);
    const swept = await sweepLateEndpoints(getClient(), live, props);
    const [spent, hourlyCost] = await Promise.all([endpointSpent(n, live.createdAt ?? props.createdAt, props.spentUsd), endpointHourly(getClient(), n, props.hourlyCost)]);
    return { id, props: jsonClean({ ...props, ...inputs, ...outputs(live), spentUsd: spent, hourlyCost, ...swept }) as Props, inputs: jsonClean(inputs) as Props };
  },

  async update(id, olds, news) {
    const n = endpointId(id);
    const client = getClient();
    await client.endpointGroups.update(n, settingsOf(news));
    // Groups list their endpoint's name.
    if (news.name !== olds.name) liveWorkerGroups(client).noteWrite();
    const kept: Props = {};
    for (const k of ENDPOINT.computed) kept[k] = olds[k];
    const own = lostCreatesOf(olds) ? (await client.endpointGroups.list()).find((e) => e.id === n) : undefined;
    const swept = own ? await sweepLateEndpoints(client, own, olds) : { [LOST_CREATES_KEY]: olds[LOST_CREATES_KEY] };
    kept.spentUsd = await endpointSpent(n, olds.createdAt, olds.spentUsd);
    kept.hourlyCost = await endpointHourly(client, n, olds.hourlyCost);
    return { outs: jsonClean({ ...news, ...kept, ...swept }) as Props };
  },

  async delete(id) {
    // The service deletes the endpoint's worker groups and their workers too.
    const n = endpointId(id);
    const client = getClient();
    const groups = (await client.workerGroups.list()).filter((g) => g.endpointId === n).map((g) => g.id);
    // Its groups' workers first, then the endpoint, then a listing that confirms they are gone (workers.ts).
    await deleteWithWorkers(client, `Endpoint ${n}`, groups, async () => {
      const result = await client.endpointGroups.delete(n);
      // The service answers an unknown endpoint with a 400 "not found", which is no proof: a
      // missing one is read back before it counts as gone.
      if (result.alreadyGone && (await client.endpointGroups.list()).some((e) => e.id === n)) {
        throw new Error(`Endpoint ${n}: the service answered the delete with "not found", but the endpoint is still listed; nothing was deleted, run again`);
      }
      // Its groups went with it: cached listings of groups no longer serve.
      liveWorkerGroups(client).noteWrite();
      return result;
    });
  },
};
