import type { RequestCore } from "../core";
import { ENDPOINTS } from "../endpoints";
import { BadRequestError, NotFoundError, VastValidationError } from "../errors";
import { registerSecret } from "../redact";
import { acknowledgedResponse, successResponse } from "../schemas";
import {
  apiKeyCreateResponse,
  apiKeyListResponse,
  NO_SSH_KEYS_MESSAGE,
  currentUserSchema,
  regenerateKeysResponse,
  secretListResponse,
  sshKeyCreateResponse,
  sshKeyListResponse,
} from "../schemas-account";
import type {
  ApiKey,
  CreateApiKeyInput,
  CreatedApiKey,
  CurrentUser,
  RegenerateKeysInput,
  RegeneratedKey,
  SecretList,
  SshKey,
} from "../types-account";
import { API_KEY_SCOPES, permissionsOfScopes, secretValueProblem } from "../types-account";
import type { DeleteResult } from "../types-templates";
import { STRING_OR_SUCCESS_TRUE, SUCCESS_TRUE, deleteConfirmed } from "./confirm";

function checkSecretValue(key: string, value: string): void {
  const problem = typeof value === "string" ? secretValueProblem(value) : "must be a string";
  if (problem) throw new VastValidationError(`secret ${key}: value ${problem}`);
}

/** SSH public keys of the account (separate from API keys). */
export class SshKeysApi {
  constructor(private readonly core: RequestCore) {}

  /** Register a public key; it is also added to the user's running instances. Not resent if the response is lost: list to check. */
  create(publicKey: string): Promise<SshKey> {
    return this.core.request({ endpoint: ENDPOINTS.sshKeysCreate, body: { ssh_key: publicKey }, schema: sshKeyCreateResponse });
  }

  /** Live keys of the account; soft-deleted ones (`deleted_at` set) are left out. */
  async list(): Promise<SshKey[]> {
    try {
      return await this.core.request({ endpoint: ENDPOINTS.sshKeysList, schema: sshKeyListResponse });
    } catch (error) {
      // An account without keys is answered 404 "No SSH keys found for the user.".
      if (error instanceof NotFoundError && NO_SSH_KEYS_MESSAGE.test(error.serverMessage ?? "")) return [];
      throw error;
    }
  }

  /** Replace the key text of key `id`. */
  async update(id: number, publicKey: string): Promise<void> {
    await this.core.request({ endpoint: ENDPOINTS.sshKeysUpdate, params: { id }, body: { id, ssh_key: publicKey }, schema: successResponse });
  }

  /**
   * Remove a key; an unknown id (400 `no_ssh_key` or the service's 404) resolves
   * `{alreadyGone: true}`. A 404 not from the service is checked against the list.
   */
  delete(id: number): Promise<DeleteResult> {
    return deleteConfirmed({
      what: `SSH key ${id}`,
      run: () => this.core.request({ endpoint: ENDPOINTS.sshKeysDelete, params: { id }, schema: acknowledgedResponse, documented: SUCCESS_TRUE }),
      isGone: (e) => e instanceof BadRequestError && e.code === "no_ssh_key",
      stillThere: async () => (await this.list()).some((k) => k.id === id),
    });
  }
}

/** Account environment variables (secrets). Values are never returned, only masked. */
export class SecretsApi {
  constructor(private readonly core: RequestCore) {}

  /** Names mapped to a masked value (asterisks), or null when empty. */
  list(): Promise<SecretList> {
    return this.core.request({ endpoint: ENDPOINTS.secretsList, schema: secretListResponse });
  }

  /**
   * Add a secret. The server upper-cases names; at most 16 per account. The value must match
   * SECRET_VALUE_PATTERN (checked here, so a refusal never echoes it); an existing name is
   * refused with `existing_key`.
   */
  async add(key: string, value: string): Promise<void> {
    registerSecret(value);
    checkSecretValue(key, value);
    await this.core.request({ endpoint: ENDPOINTS.secretsAdd, body: { key, value }, schema: successResponse });
  }

  /** Change a value (rules as `add`); an unknown name is refused with `nonexistent_key`. */
  async update(key: string, value: string): Promise<void> {
    registerSecret(value);
    checkSecretValue(key, value);
    await this.core.request({ endpoint: ENDPOINTS.secretsUpdate, body: { key, value }, schema: successResponse });
  }

  /**
   * Delete; an unknown name (400 `nonexistent_key`) resolves `{alreadyGone: true}`. A 404 not
   * from the service is checked against the list.
   */
  delete(key: string): Promise<DeleteResult> {
    return deleteConfirmed({
      what: `environment variable ${key}`,
      run: () => this.core.request({ endpoint: ENDPOINTS.secretsDelete, body: { key }, schema: acknowledgedResponse, documented: SUCCESS_TRUE }),
      isGone: (e) => e instanceof BadRequestError && (e.code === "nonexistent_key" || /not found/i.test(e.serverMessage ?? "")),
      stillThere: async () => Object.keys((await this.list()) ?? {}).some((k) => k.toUpperCase() === key.toUpperCase()),
    });
  }
}

function permissionsBody(input: CreateApiKeyInput): Record<string, unknown> {
  if (input.scopes && input.permissions) throw new VastValidationError("give scopes or permissions for an API key, not both");
  if (input.scopes) {
    const unknown = input.scopes.filter((s) => !(API_KEY_SCOPES as readonly string[]).includes(s));
    if (unknown.length > 0) throw new VastValidationError(`${unknown.join(", ")} is not an API key scope; scopes are ${API_KEY_SCOPES.join(", ")}`);
    if (input.scopes.length === 0) throw new VastValidationError("scopes must name at least one scope (leave scopes out for a full-access key)");
    return { name: input.name, permissions: permissionsOfScopes(input.scopes) };
  }
  return input.permissions ? { name: input.name, permissions: input.permissions } : { name: input.name };
}

/** API keys of the account. */
export class ApiKeysApi {
  constructor(private readonly core: RequestCore) {}

  /** Create a key; its value is in the result only (secret). Not resent if the response is lost. */
  async create(input: CreateApiKeyInput): Promise<CreatedApiKey> {
    const created = await this.core.request({
      endpoint: ENDPOINTS.apiKeysCreate,
      body: permissionsBody(input),
      schema: apiKeyCreateResponse,
    });
    registerSecret(created.key);
    return created;
  }

  /** Keys of the account; values are never listed. */
  list(): Promise<ApiKey[]> {
    return this.core.request({ endpoint: ENDPOINTS.apiKeysList, schema: apiKeyListResponse });
  }

  /**
   * Delete a key (immediate; later use gives 401). The primary key cannot be deleted (400).
   * The service answers a JSON string (`"Successfully Deleted API Key"`); any other 2xx, or a
   * 404 not from the service, is checked against the list: a key reported deleted must be.
   */
  delete(id: number): Promise<DeleteResult> {
    return deleteConfirmed({
      what: `API key ${id}`,
      // The documented answer alone proves nothing: the delete counts once a read shows it gone.
      readBack: true,
      run: () => this.core.request({ endpoint: ENDPOINTS.apiKeysDelete, params: { id }, schema: acknowledgedResponse, documented: STRING_OR_SUCCESS_TRUE }),
      stillThere: async () => (await this.list()).some((k) => k.id === id),
    });
  }
}

/** Subaccount keys. */
export class SubaccountsApi {
  constructor(private readonly core: RequestCore) {}

  /**
   * Regenerate the key of one subaccount, or of all (`{all: true}` also rotates the owner
   * seed). Only accounts approved for subaccounts (403 otherwise). Never resent: a lost
   * response held the only copy of the new keys; call again to rotate once more.
   */
  async regenerateKeys(input: RegenerateKeysInput): Promise<RegeneratedKey[]> {
    const body = "all" in input ? { regenerate_all: input.all } : { subaccount_user_id: input.subaccountUserId };
    const keys = await this.core.request({ endpoint: ENDPOINTS.subaccountsRegenerateKeys, body, schema: regenerateKeysResponse });
    for (const k of keys) registerSecret(k.derivedKey);
    return keys;
  }
}

/** The account behind the API key. */
export class UsersApi {
  constructor(private readonly core: RequestCore) {}

  /** The current user (id, e-mail, name); `raw` holds the rest without key fields. */
  current(): Promise<CurrentUser> {
    return this.core.request({ endpoint: ENDPOINTS.usersCurrent, schema: currentUserSchema });
  }
}
