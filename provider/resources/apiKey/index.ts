/**
 * `ApiKey`: an API key of the account, full access or scoped by permission flags. The service
 * shows the key value once, at creation: it is captured as the secret output `key`. Keys
 * cannot be edited, so every change of the inputs makes a new key (the old one is deleted
 * after the new one exists, and stops working at once).
 */
import * as pulumi from "@pulumi/pulumi";
import { VastResource } from "../kit/resource";

/**
 * Permission flags as the service names them. A key without `permissions` has full access.
 * `user_read` is needed for template search. Flags not listed here are sent as given.
 */
export interface ApiKeyPermissions {
  manage_instances?: boolean;
  manage_billing?: boolean;
  user_read?: boolean;
  [flag: string]: unknown;
}

export interface ApiKeyArgs {
  /** Label for the owner; the service never uses it. Changing it makes a new key. */
  name: pulumi.Input<string>;
  /** Scope of the key, for example `{ manage_instances: true, manage_billing: false }`. Default: full access. Changing it makes a new key. */
  permissions?: pulumi.Input<ApiKeyPermissions>;
  /** Any value; when it changes the key is replaced by a new one (rotation), for example a date. */
  rotateOn?: pulumi.Input<unknown>;
}

/**
 * An API key of the account. Its value is the secret output `key`, readable only from this
 * resource: the service shows it once.
 *
 *   const ci = new vastai.ApiKey("ci", { name: "ci", permissions: { manage_instances: true, manage_billing: false } });
 *   export const ciKey = ci.key; // secret
 *
 * Deleting the resource deletes the key; requests with it get 401 at once.
 */
export class ApiKey extends VastResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly permissions: pulumi.Output<ApiKeyPermissions | undefined>;
  declare readonly rotateOn: pulumi.Output<unknown>;
  /** The key value (secret). */
  declare readonly key: pulumi.Output<string>;
  /** The service's numeric id of the key. */
  declare readonly keyId: pulumi.Output<number>;

  constructor(name: string, args: ApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super("apiKey", "ApiKey", name, { ...args, key: undefined, keyId: undefined }, opts, ["key"]);
  }
}
