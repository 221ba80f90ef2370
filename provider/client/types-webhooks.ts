/** Public (camelCase) types and rules of notification webhooks. Wire forms: schemas-webhooks.ts. */

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

/** The document's limits: `name` at most 120 characters, `webhook_url` at most 2048. */
export const WEBHOOK_NAME_LIMIT = 120;
/** The longest webhook URL the service stores, characters. */
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
