/**
 * `Webhook`: a notification webhook of the account. The service POSTs the chosen notification
 * events to `url`, signed with a secret that it shows once (at creation and at each rotation):
 * the secret is the secret output `secret`.
 */
import { resourceClass, type ImportedOutput, type Inputs } from "../kit/declare";
import type { ImportArgs } from "../kit/resource";
import { WEBHOOK } from "./declare";

/** A Webhook's inputs, each also an output of the same name. */
interface WebhookFields {
  /**
   * The address deliveries are POSTed to: an absolute http:// or https:// URL. Updated in
   * place. Kept secret in state (it may hold a token); messages show it as scheme://host/… only.
   */
  url: string;
  /**
   * Notification type keys, `<context>:<slug>` such as `client:low_credit` or
   * `host:machine_offline` (`GET /api/v0/notification-types/` lists them; an unknown key is
   * refused before anything is sent). Updated in place.
   */
  eventTypes: string[];
  /** A label for you, at most 101 characters (the service's 120 less the marker). Updated in place. */
  name?: string;
  /** Any value; when it changes the signing secret is rotated in place and `secret` holds the new one. */
  rotateSecretTrigger?: unknown;
}

/** What the service shows of it. */
interface WebhookComputed extends ImportedOutput {
  /** The signing secret (secret): verify `X-Vast-Signature-256` of each delivery with it. */
  secret: string;
  /** The service's numeric id of the webhook. */
  webhookId: number;
  /** True when the create took over a webhook a killed or lost earlier run made (its secret was rotated to learn one). */
  adopted: boolean;
  /** ISO 8601. */
  createdAt: string | undefined;
}

/** Inputs of a `Webhook` resource. */
export interface WebhookArgs extends ImportArgs, Inputs<WebhookFields> {}

/**
 * A notification webhook. Its signing secret is the secret output `secret`, readable only from
 * this resource: the service shows it once.
 *
 *   const ops = new vastai.Webhook("ops", { url: "https://ops.example.com/vast", eventTypes: ["client:low_credit"] });
 *   export const signingSecret = ops.secret; // secret
 *
 * Every input changes in place; deleting the resource deletes the webhook.
 */
export class Webhook extends resourceClass<WebhookArgs, WebhookFields & WebhookComputed>(WEBHOOK) {}
