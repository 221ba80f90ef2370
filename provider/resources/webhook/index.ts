/**
 * `Webhook`: a notification webhook of the account. The service POSTs the chosen notification
 * events to `url`, signed with a secret that it shows once (at creation and at each rotation):
 * the secret is the secret output `secret`.
 */
import * as pulumi from "@pulumi/pulumi";
import { ImportArgs, VastResource } from "../kit/resource";

/** Inputs of a `Webhook` resource. */
export interface WebhookArgs extends ImportArgs {
  /**
   * The address deliveries are POSTed to: an absolute http:// or https:// URL. Updated in
   * place. Kept secret in state (it may hold a token); messages show it as scheme://host/… only.
   */
  url: pulumi.Input<string>;
  /**
   * Notification type keys, `<context>:<slug>` such as `client:low_credit` or
   * `host:machine_offline` (`GET /api/v0/notification-types/` lists them; an unknown key is
   * refused before anything is sent). Updated in place.
   */
  eventTypes: pulumi.Input<pulumi.Input<string>[]>;
  /** A label for you, at most 101 characters (the service's 120 less the marker). Updated in place. */
  name?: pulumi.Input<string>;
  /** Any value; when it changes the signing secret is rotated in place and `secret` holds the new one. */
  rotateSecretTrigger?: pulumi.Input<unknown>;
}

/**
 * A notification webhook. Its signing secret is the secret output `secret`, readable only from
 * this resource: the service shows it once.
 *
 *   const ops = new vastai.Webhook("ops", { url: "https://ops.example.com/vast", eventTypes: ["client:low_credit"] });
 *   export const signingSecret = ops.secret; // secret
 *
 * Every input changes in place; deleting the resource deletes the webhook.
 */
export class Webhook extends VastResource {
  declare readonly url: pulumi.Output<string>;
  declare readonly eventTypes: pulumi.Output<string[]>;
  declare readonly name: pulumi.Output<string | undefined>;
  declare readonly rotateSecretTrigger: pulumi.Output<unknown>;
  /** The signing secret (secret): verify `X-Vast-Signature-256` of each delivery with it. */
  declare readonly secret: pulumi.Output<string>;
  /** The service's numeric id of the webhook. */
  declare readonly webhookId: pulumi.Output<number>;
  /** True when the create took over a webhook a killed or lost earlier run made (its secret was rotated to learn one). */
  declare readonly adopted: pulumi.Output<boolean>;
  /** ISO 8601. */
  declare readonly createdAt: pulumi.Output<string | undefined>;

  /** True when the resource took over an existing object (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: WebhookArgs, opts?: pulumi.CustomResourceOptions) {
    // The address may hold the webhook's token (in its path, query or userinfo): kept secret in
    // state, as input and output, and shown in messages as scheme://host/… only.
    const url = args.url === undefined ? undefined : pulumi.secret(args.url);
    const outputs = { secret: undefined, webhookId: undefined, adopted: undefined, createdAt: undefined, imported: undefined };
    super("webhook", "Webhook", name, { ...args, url, ...outputs }, opts, ["secret", "url"]);
  }
}
