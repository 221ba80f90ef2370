/**
 * `ApiKey`: an API key of the account, full access or scoped to some of the service's scopes. The service
 * shows the key value once, at creation: it is captured as the secret output `key`. Keys
 * cannot be edited, so every change of the inputs makes a new key (the old one is deleted
 * after the new one exists, and stops working at once).
 */
import { resourceClass, type ImportedOutput, type Inputs } from "../kit/declare";
import type { ImportArgs } from "../kit/resource";
import { API_KEY } from "./declare";
import type { AccessLevel, AreaPermissions } from "../kit/permission-types";

/** `read` grants the area's `_read` scope; `write` grants `_read` and `_write`. */
export type ApiKeyAccessLevel = AccessLevel;

/**
 * What a scoped key (or a TeamRole) may do, area by area, mapped exactly to the service's scopes:
 * `instances` -> instance_read/instance_write, `user` -> user_read/user_write (template search
 * needs user read), `billing` -> billing_read/billing_write, `machines` ->
 * machine_read/machine_write, `misc: true` -> misc. An area left out grants nothing. A key
 * without `permissions` has full access.
 */
export type ApiKeyPermissions = AreaPermissions;

/** An ApiKey's inputs, each also an output of the same name. */
interface ApiKeyFields {
  /** Label for the owner; the service never uses it. Changing it makes a new key. */
  name: string;
  /**
   * What the key may do, for example `{ instances: "write", user: "read" }`. Default: full
   * access. A refresh reads the key's scopes back: a change made outside the program shows as
   * drift. Changing it makes a new key.
   */
  permissions?: ApiKeyPermissions;
  /** Any value; when it changes the key is replaced by a new one (rotation), for example a date. */
  rotateOn?: unknown;
}

/** What the service shows of it. */
interface ApiKeyComputed extends ImportedOutput {
  /** The key value (secret). */
  key: string;
  /** The service's numeric id of the key. */
  keyId: number;
}

/** Inputs of an `ApiKey` resource. */
export interface ApiKeyArgs extends ImportArgs, Inputs<ApiKeyFields> {}

/**
 * An API key of the account. Its value is the secret output `key`, readable only from this
 * resource: the service shows it once.
 *
 *   const ci = new vastai.ApiKey("ci", { name: "ci", permissions: { instances: "write", user: "read" } });
 *   export const ciKey = ci.key; // secret
 *
 * Deleting the resource deletes the key; requests with it get 401 at once.
 */
export class ApiKey extends resourceClass<ApiKeyArgs, ApiKeyFields & ApiKeyComputed>(API_KEY) {}
