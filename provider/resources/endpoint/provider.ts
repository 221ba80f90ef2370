/**
 * The Endpoint provider. The endpoint id is the Pulumi id; every setting, the name included, is
 * a PUT on the same id (vendor document: `PUT /api/v0/endptjobs/{id}`), so nothing replaces.
 * A create whose answer was lost, or whose plugin was killed, is found by its name.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { registerSecret, type EndpointSettings, type ServerlessEndpoint, type VastClient } from "../../client";
import { getClient } from "../../context";
import { IMPORTED_INPUT_KEY, checkWith, createAtMostOnce, diffInputs, isFirstCreate, jsonClean, lookUp, numericImport, type ImportableImpl, type Props } from "../kit";
import { liveEndpoints, liveWorkerGroups } from "./live";
import { destroyLeftWorkers } from "../workerGroup/workers";

export const ENDPOINT_OUTPUTS = ["endpointId", "state", "createdAt", "apiKey"] as const;

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
  coldWorkers: count.optional(),
  maxWorkers: count.min(1, "must be at least 1").optional(),
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

async function createEndpoint(client: VastClient, settings: EndpointSettings, adoptable: boolean): Promise<ServerlessEndpoint> {
  const named = async () => (await client.endpointGroups.list()).filter((e) => e.name === settings.name);
  const existing = await named();
  const before = new Set(existing.map((e) => e.id));
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
    recover: async () => lookUp(async () => (await named()).find((e) => !before.has(e.id))?.id),
  });
  const live = (await client.endpointGroups.list()).find((e) => e.id === made);
  if (!live) throw new Error(`the endpoint ${made} the service made is not in its listing`);
  // An adopted endpoint takes this program's settings.
  if (before.has(made)) await client.endpointGroups.update(made, settings);
  return { ...live, ...settings, id: made };
}

export const provider: ImportableImpl = {
  // importId: the numeric endpoint id. The name, left out, keeps the service's; settings left
  // out stay as the service holds them, declared ones are written in place.
  importing: numericImport("Endpoint", "endpoint", { keepShown: ["name"], optionalOnImport: ["name"] }),

  async check(_olds, news) {
    return checkWith(schema, news, { type: "Endpoint", outputs: ENDPOINT_OUTPUTS });
  },

  async diff(_id, olds, news) {
    return diffInputs(olds, news, { replaceOn: [], ignore: ENDPOINT_OUTPUTS });
  },

  async create(inputs) {
    const settings = settingsOf(inputs);
    let live: ServerlessEndpoint;
    try {
      live = await oneAtATime(() => createEndpoint(getClient(), settings, isFirstCreate(inputs)));
    } catch (error) {
      throw new Error(`Endpoint "${settings.name}": creating the endpoint failed: ${(error as Error).message}`, { cause: error });
    }
    return { id: String(live.id), outs: jsonClean({ ...inputs, ...outputs(live) }) as Props };
  },

  async read(id, props): Promise<pulumi.dynamic.ReadResult> {
    const n = endpointId(id);
    const live = await liveEndpoints().get(String(n));
    if (!live) return { id: "" };
    const inputs = liveInputs(props, live);
    return { id, props: jsonClean({ ...props, ...inputs, ...outputs(live) }) as Props, inputs: jsonClean(inputs) as Props };
  },

  async update(id, olds, news) {
    const n = endpointId(id);
    const client = getClient();
    await client.endpointGroups.update(n, settingsOf(news));
    // Groups list their endpoint's name.
    if (news.name !== olds.name) liveWorkerGroups(client).noteWrite();
    const kept: Props = {};
    for (const k of ENDPOINT_OUTPUTS) kept[k] = olds[k];
    return { outs: jsonClean({ ...news, ...kept }) as Props };
  },

  async delete(id) {
    // The service deletes the endpoint's worker groups and their workers too.
    const n = endpointId(id);
    const client = getClient();
    const result = await client.endpointGroups.delete(n);
    // The service answers an unknown endpoint with a 400 "not found", which is no proof: a
    // missing one is read back before it counts as gone.
    if (result.alreadyGone && (await client.endpointGroups.list()).some((e) => e.id === n)) {
      throw new Error(`Endpoint ${n}: the service answered the delete with "not found", but the endpoint is still listed; nothing was deleted, run again`);
    }
    // Its groups went with it: cached listings of groups no longer serve.
    liveWorkerGroups(client).noteWrite();
    await destroyLeftWorkers(client, `Endpoint ${n}`, result.failedWorkers);
  },
};
