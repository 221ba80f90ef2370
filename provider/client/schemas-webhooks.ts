/** Wire schemas (snake_case) and public types of notification webhooks and notification types. */
import { z } from "zod";
import { anyString, idNumber, mapped, optString, timestampLike, withoutSecrets } from "./schema-helpers";
import type { NotificationType, Webhook, WebhookWithSecret } from "./types-webhooks";

// The public types and rules live in types-webhooks.ts (no zod there: it stays out of the
// package's public declarations).
export type { NotificationType, Webhook, WebhookInput, WebhookWithSecret } from "./types-webhooks";
export { WEBHOOK_NAME_LIMIT, WEBHOOK_URL_LIMIT, webhookUrlProblem } from "./types-webhooks";

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
