/**
 * Notification webhooks (vendor document: `/api/v0/webhooks`, `/api/v0/webhooks/{id}`,
 * `.../rotate-secret`, `.../test`, `/api/v0/notification-types`). The signing secret is in the
 * create and rotate-secret answers only. Listing needs `user_read`, every write `user_write`
 * (the vendor client's scope table; it does not list rotate-secret, test or the notification
 * types, which follow the webhooks' scopes here).
 *
 * `test` really delivers, but only to a loopback address (127.0.0.0/8, localhost, [::1]): the
 * simulator never sends anything off the machine. A delivery is `POST <url>` with a JSON body
 * and the header `X-Vast-Signature-256: sha256=<hex HMAC-SHA256 of the raw body, keyed by the
 * secret>`. The vendor document names the header but not how it is computed: this scheme is the
 * simulator's (the common one for a header of that name).
 */
import { createHmac, randomBytes } from "crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { requirePermission } from "../http/auth";
import { apiError, invalidArgs, notFound, show } from "../http/errors";
import { bodyOf, idParam, optString, type Body } from "../http/validate";
import { NOTIFICATION_TYPES } from "../seed/notifications";
import type { WebhookRecord } from "../store/types";

const NAME_LIMIT = 120;
const URL_LIMIT = 2048;
const DELIVERY_TIMEOUT_MS = 5000;

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("hex")}`;
}

/** `sha256=<hex>`: the signature of one delivery body. */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

function view(w: WebhookRecord, withSecret = false): Record<string, unknown> {
  return {
    id: w.id,
    user_id: w.userId,
    name: w.name,
    webhook_url: w.url,
    event_types: [...w.eventTypes],
    created_at: w.createdAt / 1000,
    updated_at: w.updatedAt / 1000,
    ...(withSecret ? { webhook_secret: w.secret } : {}),
  };
}

function urlOf(body: Body, required: boolean): string | undefined {
  const v = body.webhook_url;
  if (v === undefined || v === null) {
    if (required) throw invalidArgs("webhook_url is required");
    return undefined;
  }
  if (typeof v !== "string") throw invalidArgs(`webhook_url must be a string (got ${show(v)})`);
  if (v.length > URL_LIMIT) throw invalidArgs(`webhook_url must be at most ${URL_LIMIT} characters (got ${v.length})`);
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw invalidArgs(`webhook_url must be an absolute http(s) URL (got ${show(v)})`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw invalidArgs(`webhook_url must use http or https (got ${show(parsed.protocol)})`);
  return v;
}

function eventTypesOf(body: Body, required: boolean): string[] | undefined {
  const v = body.event_types;
  if (v === undefined || v === null) {
    if (required) throw invalidArgs("event_types is required: a list of notification type keys such as client:low_credit");
    return undefined;
  }
  if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== "string")) {
    throw invalidArgs(`event_types must be a non-empty list of notification type keys (got ${show(v)})`);
  }
  const known = new Set(NOTIFICATION_TYPES.map((t) => t.key));
  const unknown = (v as string[]).filter((x) => !known.has(x));
  if (unknown.length > 0) throw apiError(400, "invalid_event_types", `Unknown notification type(s): ${unknown.join(", ")}`);
  return [...new Set(v as string[])];
}

function nameOf(body: Body): string | null | undefined {
  if (body.name === null) return null;
  return optString(body, "name", NAME_LIMIT);
}

function own(ctx: SimContext, request: FastifyRequest<{ Params: { id: string } }>, userId: number): WebhookRecord {
  const id = idParam(request.params.id, "webhook id");
  const w = ctx.store.data.webhooks.find((x) => x.id === id && x.userId === userId);
  if (!w) throw notFound("not_found", `No webhook with id ${id} on this account`);
  return w;
}

/** Whether the simulator may deliver to this URL: loopback hosts only. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase();
  return host === "localhost" || host === "[::1]" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

async function deliverTest(ctx: SimContext, w: WebhookRecord): Promise<Record<string, unknown>> {
  if (!isLoopbackUrl(w.url)) {
    throw apiError(400, "delivery_refused", "The simulator delivers test events only to loopback addresses (127.0.0.0/8, localhost, [::1])");
  }
  const body = JSON.stringify({
    event_type: "test",
    webhook_id: w.id,
    user_id: w.userId,
    created_at: ctx.now() / 1000,
    data: { msg: "Test webhook delivery" },
  });
  let status: number;
  try {
    const res = await fetch(w.url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-vast-signature-256": webhookSignature(w.secret, body), "x-vast-event": "test" },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    status = res.status;
    await res.arrayBuffer().catch(() => undefined);
  } catch (error) {
    throw apiError(400, "delivery_failed", `Test delivery failed: ${(error as Error).name === "TimeoutError" ? "timed out" : "could not connect"}`);
  }
  if (status < 200 || status > 299) throw apiError(400, "delivery_failed", `Test delivery failed: the endpoint answered HTTP ${status}`);
  return { success: true, msg: "Test webhook delivered" };
}

export function registerWebhooks(app: FastifyInstance, ctx: SimContext): void {
  // Control: whether `secret` is the live signing secret of webhook `id` (tests judge a secret
  // in state without a delivery; the secret itself is never shown by the control API).
  app.post<{ Params: { id: string } }>("/_sim/webhooks/:id/verify-secret", { config: { auth: "none" } }, (req) => {
    const id = idParam(req.params.id, "webhook id");
    const w = ctx.store.data.webhooks.find((x) => x.id === id);
    if (!w) throw notFound("not_found", `No webhook with id ${id}`);
    const secret = bodyOf(req.body).secret;
    return { id, matches: typeof secret === "string" && secret === w.secret };
  });

  app.get("/api/v0/notification-types/", (req) => {
    requirePermission(req, "user_read");
    return {
      success: true,
      notification_types: NOTIFICATION_TYPES.map((t) => ({
        key: t.key,
        slug: t.key.split(":")[1],
        context: t.context,
        topic: t.topic,
        category: t.category,
        display_name: t.displayName,
        default_preferences: { email: true, webhooks: false },
        mandatory_email: false,
      })),
    };
  });

  app.get("/api/v0/webhooks/", (req) => {
    const userId = requirePermission(req, "user_read").user.id;
    return { success: true, webhooks: ctx.store.data.webhooks.filter((w) => w.userId === userId).map((w) => view(w)) };
  });

  app.post("/api/v0/webhooks/", (req) => {
    const userId = requirePermission(req, "user_write").user.id;
    const body = bodyOf(req.body);
    const name = nameOf(body) ?? null;
    const url = urlOf(body, true)!;
    const eventTypes = eventTypesOf(body, true)!;
    const now = ctx.now();
    const w: WebhookRecord = { id: ctx.store.nextId("webhook"), userId, name, url, eventTypes, secret: newWebhookSecret(), createdAt: now, updatedAt: now };
    ctx.store.data.webhooks.push(w);
    ctx.store.changed();
    return { success: true, webhook: view(w, true), enabled_notification_preferences: [...eventTypes] };
  });

  app.put<{ Params: { id: string } }>("/api/v0/webhooks/:id/", (req) => {
    const userId = requirePermission(req, "user_write").user.id;
    const w = own(ctx, req, userId);
    const body = bodyOf(req.body);
    const name = nameOf(body);
    const url = urlOf(body, false);
    const eventTypes = eventTypesOf(body, false);
    if (name !== undefined || body.name === null) w.name = name ?? null;
    if (url !== undefined) w.url = url;
    if (eventTypes !== undefined) w.eventTypes = eventTypes;
    w.updatedAt = ctx.now();
    ctx.store.changed();
    return { success: true, webhook: view(w), enabled_notification_preferences: [...w.eventTypes] };
  });

  app.delete<{ Params: { id: string } }>("/api/v0/webhooks/:id/", (req) => {
    const userId = requirePermission(req, "user_write").user.id;
    const w = own(ctx, req, userId);
    ctx.store.data.webhooks = ctx.store.data.webhooks.filter((x) => x !== w);
    ctx.store.changed();
    return { success: true };
  });

  app.post<{ Params: { id: string } }>("/api/v0/webhooks/:id/rotate-secret/", (req) => {
    const userId = requirePermission(req, "user_write").user.id;
    const w = own(ctx, req, userId);
    w.secret = newWebhookSecret();
    w.updatedAt = ctx.now();
    ctx.store.changed();
    return { success: true, webhook: view(w, true) };
  });

  app.post<{ Params: { id: string } }>("/api/v0/webhooks/:id/test/", (req) => {
    const userId = requirePermission(req, "user_write").user.id;
    return deliverTest(ctx, own(ctx, req, userId));
  });
}
