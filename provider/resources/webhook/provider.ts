/**
 * The Webhook provider. Name, URL and event types are edited in place (`PUT
 * /api/v0/webhooks/{id}/`); the signing secret is shown once, at creation and at each rotation
 * (`POST /api/v0/webhooks/{id}/rotate-secret/`), so a webhook this provider did not see created
 * (a killed run, a lost answer) is adopted and its secret rotated: the only way to hand the
 * user a secret that verifies its deliveries.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { isoOfEpochSeconds, webhookUrlProblem, WEBHOOK_NAME_LIMIT, type VastClient, type Webhook as LiveWebhook, type WebhookInput, type WebhookWithSecret } from "../../client";
import { getClient } from "../../context";
import {
  MAX_LOST_CREATES,
  PartialFailure,
  checkAndDiff,
  createAtMostOnce,
  deepEqual,
  identityMarker,
  jsonClean,
  lookUp,
  nearestName,
  waitOutLostRequest,
  numericImport,
  stateOutputs,
  type ImportableImpl,
  type Props,
} from "../kit";
import { withoutControlCharacters } from "../kit/text-schema";
import { liveWebhooks } from "./live";
import { WEBHOOK } from "./declare";

/** ` [0123456789abcdef]`: what the marker adds to the name the service holds. */
const MARKER_SUFFIX_LENGTH = 19;
/** The longest name a user may give: the service's limit less the marker. */
export const WEBHOOK_USER_NAME_LIMIT = WEBHOOK_NAME_LIMIT - MARKER_SUFFIX_LENGTH;
const EVENT_TYPE = /^[a-z][a-z0-9_]*:[a-z0-9_.-]+$/;

const schema = z.object({
  url: z.string({ error: "must be a string" }).superRefine((url, ctx) => {
    const problem = webhookUrlProblem(url);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
  eventTypes: z
    .array(z.string({ error: "must be a string" }).regex(EVENT_TYPE, 'must be a notification type key "<context>:<slug>" such as "client:low_credit"'), {
      error: 'must be a list of notification type keys such as ["client:low_credit"]',
    })
    .min(1, 'must name at least one notification type, such as ["client:low_credit"]')
    .superRefine((types, ctx) => {
      const dup = types.find((t, i) => types.indexOf(t) !== i);
      if (dup !== undefined) ctx.addIssue({ code: "custom", message: `must not repeat a type (${JSON.stringify(dup)} appears twice)` });
    }),
  name: withoutControlCharacters(
    z
      .string({ error: "must be a string" })
      .min(1, "must not be empty; leave name out for none")
      .max(WEBHOOK_USER_NAME_LIMIT, `must be at most ${WEBHOOK_USER_NAME_LIMIT} characters (the service's ${WEBHOOK_NAME_LIMIT} less the marker)`),
  ).optional(),
  rotateSecretTrigger: z.unknown().optional(),
});

/** The name the service holds: the user's name and the create's marker (kit/create-once.ts), so a webhook a killed run made can be found. */
export function serviceName(name: string | undefined, marker: string | undefined): string | undefined {
  if (!marker) return name;
  return name ? `${name} [${marker}]` : `[${marker}]`;
}

function hasMarker(name: string | undefined, marker: string): boolean {
  return name !== undefined && (name === `[${marker}]` || name.endsWith(` [${marker}]`));
}

/** The user's part of a name the service holds. */
export function userName(live: string | undefined, marker: string | undefined): string | undefined {
  if (!live || !marker || !hasMarker(live, marker)) return live || undefined;
  const rest = live.slice(0, live.length - (marker.length + 2)).replace(/ $/, "");
  return rest || undefined;
}

function webhookId(id: string): number {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`Webhook id "${id}" is not a numeric webhook id`);
  return n;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");

/**
 * Refuses event types the account's notification types do not list, before anything is sent:
 * the service would answer 400, and a name a user misspelt deserves the nearest real one.
 */
async function checkEventTypes(client: VastClient, label: string, types: string[]): Promise<void> {
  const known = (await client.webhooks.notificationTypes()).map((t) => t.key);
  const unknown = types.filter((t) => !known.includes(t));
  if (unknown.length === 0) return;
  const parts = unknown.map((t) => {
    const near = nearestName(t, known);
    return `${JSON.stringify(t)} is not a notification type${near ? `; did you mean ${near}?` : ""}`;
  });
  throw new Error(`${label}: eventTypes: ${parts.join("; ")} (the service lists ${known.join(", ") || "none"})`);
}

/**
 * Rotates the secret and returns the new one. A rotation whose answer was lost may still land
 * and void whatever secret a resend returned: the look-up window is waited out before rotating
 * again, so the last rotation is the one whose secret is kept.
 */
function rotate(client: VastClient, id: number): Promise<WebhookWithSecret> {
  return createAtMostOnce({
    send: () => client.webhooks.rotateSecret(id),
    recover: async (_error, send) => {
      if (send < MAX_LOST_CREATES) await waitOutLostRequest();
      return undefined;
    },
  });
}

interface Made {
  webhook: LiveWebhook;
  secret: string;
  adopted: boolean;
}

/**
 * Takes over webhooks an earlier create made: keeps the first, deletes the others (their
 * secrets were never seen), brings its fields to what is wanted and rotates its secret, which
 * the killed or lost run alone had seen.
 */
async function adopt(client: VastClient, found: LiveWebhook[], wanted: WebhookInput): Promise<Made> {
  const [keep, ...extra] = [...found].sort((a, b) => a.id - b.id);
  for (const w of extra) await client.webhooks.delete(w.id);
  const edit: WebhookInput = {};
  if (keep.name !== wanted.name) edit.name = wanted.name;
  if (keep.url !== wanted.url) edit.url = wanted.url;
  if (!deepEqual(keep.eventTypes, wanted.eventTypes)) edit.eventTypes = wanted.eventTypes;
  if (Object.keys(edit).length > 0) await client.webhooks.update(keep.id, edit);
  const rotated = await rotate(client, keep.id);
  return { webhook: rotated, secret: rotated.secret, adopted: true };
}

// Webhook creations of this process run one at a time: after a lost answer, webhooks that
// appeared meanwhile are taken for what that creation made, never for a sibling's.
let creating: Promise<unknown> = Promise.resolve();

function oneAtATime<T>(run: () => Promise<T>): Promise<T> {
  const next = creating.then(run, run);
  creating = next.catch(() => undefined);
  return next;
}

/**
 * Creates the webhook at most once. With a marker, a webhook carrying it (a killed run's) is
 * adopted instead; after a lost answer the webhook the request made is looked for over the
 * look-up window and adopted; when it never shows up the create is sent again and the state
 * records `lostCreate` so that a late landing is deleted by the next refresh.
 */
async function createWebhook(client: VastClient, wanted: WebhookInput, marker: string | undefined): Promise<Made & { lost: boolean }> {
  const listed = await client.webhooks.list();
  const before = new Set(listed.map((w) => w.id));
  const ours = (w: LiveWebhook) => (marker ? hasMarker(w.name, marker) : w.name === wanted.name && w.url === wanted.url && !before.has(w.id));
  let lost = false;
  const made = await createAtMostOnce<Made>({
    adopt: async () => {
      const left = marker ? listed.filter(ours) : [];
      return left.length > 0 ? adopt(client, left, wanted) : undefined;
    },
    send: async () => {
      const w: WebhookWithSecret = await client.webhooks.create(wanted);
      return { webhook: w, secret: w.secret, adopted: false };
    },
    recover: async () => {
      const found = await lookUp(async () => {
        const hits = (await client.webhooks.list()).filter(ours);
        return hits.length > 0 ? hits : undefined;
      });
      if (found) return adopt(client, found, wanted);
      lost = true;
      return undefined;
    },
  });
  return { ...made, lost };
}

function outputsOf(w: LiveWebhook, secret: string, adopted: boolean, marker: string | undefined, lost: boolean): Props {
  return { secret, webhookId: w.id, adopted, createdAt: isoOfEpochSeconds(w.createdAt), nameMarker: marker, lostCreate: lost || undefined };
}

/** Inputs as written, with what the service holds of name, URL and event types (same types in another order are no drift). */
export function liveInputs(props: Props, live: LiveWebhook): Props {
  const marker = typeof props.nameMarker === "string" ? props.nameMarker : undefined;
  const stated = strings(props.eventTypes);
  return jsonClean({
    url: live.url,
    eventTypes: sameSet(stated, live.eventTypes) ? stated : live.eventTypes,
    name: userName(live.name, marker),
    rotateSecretTrigger: props.rotateSecretTrigger,
  }) as Props;
}

const labelOf = (props: Props) => `Webhook${typeof props.name === "string" ? ` "${props.name}"` : ""}`;

export const provider: ImportableImpl = {
  // importId: the numeric webhook id. Its secret is never shown: an imported webhook has no
  // `secret` until rotateSecretTrigger changes. The name, left out, keeps the service's.
  importing: numericImport("Webhook", "webhook", { keepShown: ["name", "url", "eventTypes"], optionalOnImport: ["url", "eventTypes"] }),

  // The service edits every field in place; a new trigger value rotates the secret in place.
  ...checkAndDiff(WEBHOOK, schema),

  async create(inputs) {
    const client = getClient();
    const label = labelOf(inputs);
    const marker = identityMarker(inputs);
    const eventTypes = strings(inputs.eventTypes);
    await checkEventTypes(client, label, eventTypes);
    const wanted: WebhookInput = { name: serviceName(inputs.name as string | undefined, marker), url: String(inputs.url), eventTypes };
    let made;
    try {
      made = await oneAtATime(() => createWebhook(client, wanted, marker));
    } catch (error) {
      throw new Error(`${label}: creating the webhook failed: ${(error as Error).message}`, { cause: error });
    }
    const outs = { ...inputs, ...outputsOf(made.webhook, made.secret, made.adopted, marker, made.lost) };
    return { id: String(made.webhook.id), outs: jsonClean(outs) as Props };
  },

  // The list never shows the secret: it is kept from state.
  async read(id, props): Promise<pulumi.dynamic.ReadResult> {
    const n = webhookId(id);
    const live = await liveWebhooks().get(String(n));
    if (!live) return { id: "" };
    const marker = props.nameMarker;
    if (typeof marker === "string" && marker !== "") {
      // A lost create that landed after the look-up window made a webhook nobody holds the secret of.
      const client = getClient();
      const strays = (await liveWebhooks().list()).filter((w) => w.id !== n && hasMarker(w.name, marker));
      for (const stray of strays) await client.webhooks.delete(stray.id);
    }
    const inputs = liveInputs(props, live);
    const createdAt = isoOfEpochSeconds(live.createdAt) ?? props.createdAt;
    return { id, props: jsonClean({ ...props, ...inputs, webhookId: n, createdAt, lostCreate: undefined }) as Props, inputs };
  },

  async update(id, olds, news) {
    const n = webhookId(id);
    const client = getClient();
    const label = labelOf(news);
    const marker = typeof olds.nameMarker === "string" ? olds.nameMarker : undefined;
    const edit: WebhookInput = {};
    if (olds.name !== news.name) edit.name = serviceName(news.name as string | undefined, marker) ?? null;
    if (olds.url !== news.url) edit.url = String(news.url);
    if (!deepEqual(olds.eventTypes, news.eventTypes)) {
      edit.eventTypes = strings(news.eventTypes);
      await checkEventTypes(client, label, edit.eventTypes);
    }
    const outs: Props = { ...news };
    for (const name of stateOutputs(WEBHOOK)) outs[name] = olds[name];
    let edited = false;
    try {
      if (Object.keys(edit).length > 0) {
        await client.webhooks.update(n, edit);
        edited = true;
      }
      if (!deepEqual(olds.rotateSecretTrigger, news.rotateSecretTrigger)) outs.secret = (await rotate(client, n)).secret;
    } catch (error) {
      const message = `${label} (id ${id}): updating the webhook failed: ${(error as Error).message}`;
      // The edit is made but the rotation is not: state records the edit, and the old trigger
      // with the old secret, so the next up rotates again.
      if (edited) throw new PartialFailure(`${message}. The name, URL and event types were changed; the secret was not rotated and still is the one in state.`, id, news, { ...outs, rotateSecretTrigger: olds.rotateSecretTrigger });
      throw new Error(message, { cause: error });
    }
    return { outs: jsonClean(outs) as Props };
  },

  async delete(id, props) {
    try {
      await getClient().webhooks.delete(webhookId(id));
    } catch (error) {
      throw new Error(`${labelOf(props)} (id ${id}): deleting the webhook failed: ${(error as Error).message}`, { cause: error });
    }
  },
};
