/**
 * Notification webhooks (`/api/v0/webhooks/`) and the notification types they subscribe to.
 * The signing secret is in two answers only, a create and a rotation: it is registered for
 * redaction as soon as it arrives.
 */
import type { RequestCore } from "../core";
import { ENDPOINTS } from "../endpoints";
import { VastValidationError } from "../errors";
import { registerSecret } from "../redact";
import { acknowledgedResponse } from "../schemas";
import {
  WEBHOOK_NAME_LIMIT,
  notificationTypesResponse,
  webhookListResponse,
  webhookSecretResponse,
  webhookTestResponse,
  webhookUpdateResponse,
  webhookUrlProblem,
} from "../schemas-webhooks";
import type { NotificationType, Webhook, WebhookInput, WebhookWithSecret } from "../types-webhooks";
import type { DeleteResult } from "../types-templates";
import { SUCCESS_TRUE, deleteConfirmed } from "./confirm";

function bodyOf(input: WebhookInput, creating: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (input.name !== undefined) {
    if (input.name !== null && input.name.length > WEBHOOK_NAME_LIMIT) throw new VastValidationError(`webhook name must be at most ${WEBHOOK_NAME_LIMIT} characters (got ${input.name.length})`);
    body.name = input.name;
  }
  if (input.url !== undefined || creating) {
    const problem = webhookUrlProblem(input.url);
    if (problem) throw new VastValidationError(`webhook url ${problem}`);
    body.webhook_url = input.url;
  }
  if (input.eventTypes !== undefined || creating) {
    if (!input.eventTypes || input.eventTypes.length === 0) throw new VastValidationError("webhook eventTypes must name at least one notification type");
    body.event_types = input.eventTypes;
  }
  return body;
}

/** The webhooks area of the client. */
export class WebhooksApi {
  constructor(private readonly core: RequestCore) {}

  /** Webhooks of the account; secrets are never listed. */
  list(): Promise<Webhook[]> {
    return this.core.request({ endpoint: ENDPOINTS.webhooksList, schema: webhookListResponse });
  }

  /** Create a webhook; the answer holds the signing secret (secret, shown once). Not resent if the response is lost: list to check. */
  async create(input: WebhookInput): Promise<WebhookWithSecret> {
    const made = await this.core.request({ endpoint: ENDPOINTS.webhooksCreate, body: bodyOf(input, true), schema: webhookSecretResponse });
    registerSecret(made.secret);
    return made;
  }

  /** Edit name, URL or event types in place (only the fields given are sent). */
  update(id: number, input: WebhookInput): Promise<Webhook> {
    return this.core.request({ endpoint: ENDPOINTS.webhooksUpdate, params: { id }, body: bodyOf(input, false), schema: webhookUpdateResponse });
  }

  /**
   * A new signing secret (secret); the previous one stops verifying. Not resent if the response
   * is lost: a late landing would void the secret a resend returned.
   */
  async rotateSecret(id: number): Promise<WebhookWithSecret> {
    const rotated = await this.core.request({ endpoint: ENDPOINTS.webhooksRotateSecret, params: { id }, schema: webhookSecretResponse });
    registerSecret(rotated.secret);
    return rotated;
  }

  /** Asks the service to send a test delivery to the webhook's URL, signed as real deliveries. */
  test(id: number): Promise<{ msg: string | undefined }> {
    return this.core.request({ endpoint: ENDPOINTS.webhooksTest, params: { id }, schema: webhookTestResponse });
  }

  /**
   * Delete; the service's own 404 resolves `{alreadyGone: true}`. A 404 not from the service
   * is checked against the list.
   */
  delete(id: number): Promise<DeleteResult> {
    return deleteConfirmed({
      what: `webhook ${id}`,
      run: () => this.core.request({ endpoint: ENDPOINTS.webhooksDelete, params: { id }, schema: acknowledgedResponse, documented: SUCCESS_TRUE }),
      stillThere: async () => (await this.list()).some((w) => w.id === id),
    });
  }

  /** The notification types webhooks may subscribe to (`client:low_credit`, ...). */
  notificationTypes(): Promise<NotificationType[]> {
    return this.core.request({ endpoint: ENDPOINTS.notificationTypes, schema: notificationTypesResponse });
  }
}
