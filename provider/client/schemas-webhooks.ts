/** Wire schemas (snake_case) and public types of notification webhooks and notification types. */
import { z } from "zod";
import { anyString, idNumber, mapped, optString, timestampLike, withoutSecrets } from "./schema-helpers";

/** A notification webhook as listed: never its signing secret. */
export interface Webhook {
  id: number;
  name: string | undefined;
  /** `webhook_url` on the wire. */
  url: string;
  eventTypes: string[];
  /** Epoch seconds (the document's float). */
  createdAt: number | string | null | undefined;
  updatedAt: number | string | null | undefined;
  /** The record as sent, without `webhook_secret`. */
  raw: Record<string, unknown>;
}

/** A create or a rotation: the only answers that carry the signing secret. */
export interface WebhookWithSecret extends Webhook {
  secret: string;
}

/** What a create or an edit sends; an edit sends only what is given. */
export interface WebhookInput {
  name?: string | null;
  url?: string;
  eventTypes?: string[];
}

/** One notification type a webhook may subscribe to (`client:low_credit`). */
export interface NotificationType {
  key: string;
  context: string | undefined;
  displayName: string | undefined;
  category: string | undefined;
}

const webhookShape = {
  id: idNumber,
  name: optString,
  webhook_url: z.string(),
  event_types: z.array(z.string()).nullish(),
  created_at: timestampLike,
  updated_at: timestampLike,
};

function webhookOf(w: z.output<z.ZodObject<typeof webhookShape>>, raw: Record<string, unknown>): Webhook {
  return {
    id: w.id,
    name: w.name,
    url: w.webhook_url,
    eventTypes: w.event_types ?? [],
    createdAt: w.created_at,
    updatedAt: w.updated_at,
    raw: withoutSecrets(raw, ["webhook_secret"]),
  };
}

export const webhookSchema: z.ZodType<Webhook> = mapped(webhookShape, webhookOf);

const webhookWithSecretSchema: z.ZodType<WebhookWithSecret> = mapped(
  { ...webhookShape, webhook_secret: z.string().min(1) },
  (w, raw): WebhookWithSecret => ({ ...webhookOf(w, raw), secret: w.webhook_secret }),
);

/** `{webhooks: [...]}`; without the key (a `200 {}`) it is refused, not read as "none". */
export const webhookListResponse: z.ZodType<Webhook[]> = z.looseObject({ webhooks: z.array(webhookSchema).nullable() }).transform((r) => r.webhooks ?? []);

/** Create and rotate-secret answers: `{success, webhook: {..., webhook_secret}}`. */
export const webhookSecretResponse: z.ZodType<WebhookWithSecret> = z.looseObject({ webhook: webhookWithSecretSchema }).transform((r) => r.webhook);

export const webhookUpdateResponse: z.ZodType<Webhook> = z.looseObject({ webhook: webhookSchema }).transform((r) => r.webhook);

export const webhookTestResponse: z.ZodType<{ msg: string | undefined }> = z.looseObject({ msg: anyString }).transform((r) => ({ msg: r.msg }));

const notificationTypeSchema: z.ZodType<NotificationType> = mapped(
  { key: z.string().min(1), context: anyString, display_name: anyString, category: anyString },
  (t): NotificationType => ({ key: t.key, context: t.context, displayName: t.display_name, category: t.category }),
);

export const notificationTypesResponse: z.ZodType<NotificationType[]> = z
  .looseObject({ notification_types: z.array(notificationTypeSchema).nullish() })
  .transform((r) => r.notification_types ?? []);

/** The document's limits: `name` at most 120 characters, `webhook_url` at most 2048. */
export const WEBHOOK_NAME_LIMIT = 120;
export const WEBHOOK_URL_LIMIT = 2048;

/**
 * Why `url` cannot be a webhook address, or undefined when it can: an absolute http or https
 * URL with a host, no credentials in it (they would be stored and shown in every listing), at
 * most 2048 characters. The message never repeats credentials.
 */
export function webhookUrlProblem(url: unknown): string | undefined {
  if (typeof url !== "string" || url.trim() === "") return "must be an http:// or https:// URL such as https://example.com/hooks/vast";
  if (url.length > WEBHOOK_URL_LIMIT) return `must be at most ${WEBHOOK_URL_LIMIT} characters (got ${url.length})`;
  if (url !== url.trim() || /\s/.test(url)) return "must not contain spaces";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be an absolute http:// or https:// URL such as https://example.com/hooks/vast";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return `must use http or https (got the scheme ${parsed.protocol.slice(0, -1).slice(0, 20)})`;
  if (parsed.hostname === "") return "must name a host";
  if (parsed.username !== "" || parsed.password !== "") return "must not carry a user name or password (the service lists the URL to every reader of the account)";
  return undefined;
}
