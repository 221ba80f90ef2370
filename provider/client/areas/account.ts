import type { RequestCore } from "../core";
import { ENDPOINTS } from "../endpoints";
import { BadRequestError } from "../errors";
import { registerSecret } from "../redact";
import { successResponse } from "../schemas";
import {
  apiKeyCreateResponse,
  apiKeyListResponse,
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
import type { DeleteResult } from "../types-templates";
import { deleteConfirmed } from "./confirm";

/** SSH public keys of the account (separate from API keys). */
export class SshKeysApi {
  constructor(private readonly core: RequestCore) {}

  /** Register a public key; it is also added to the user's running instances. Not resent if the response is lost: list to check. */
  create(publicKey: string): Promise<SshKey> {
    return this.core.request({ endpoint: ENDPOINTS.sshKeysCreate, body: { ssh_key: publicKey }, schema: sshKeyCreateResponse });
  }

  list(): Promise<SshKey[]> {
    return this.core.request({ endpoint: ENDPOINTS.sshKeysList, schema: sshKeyListResponse });
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
      run: () => this.core.request({ endpoint: ENDPOINTS.sshKeysDelete, params: { id }, schema: successResponse }),
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

  /** Add a secret. The server upper-cases names; at most 16 per account. */
  async add(key: string, value: string): Promise<void> {
    registerSecret(value);
    await this.core.request({ endpoint: ENDPOINTS.secretsAdd, body: { key, value }, schema: successResponse });
  }

  async update(key: string, value: string): Promise<void> {
    registerSecret(value);
    await this.core.request({ endpoint: ENDPOINTS.secretsUpdate, body: { key, value }, schema: successResponse });
  }

  /**
   * Delete; an unknown name (`Environment variable not found`) resolves `{alreadyGone: true}`.
   * A 404 not from the service is checked against the list.
   */
  delete(key: string): Promise<DeleteResult> {
    return deleteConfirmed({
      what: `environment variable ${key}`,
      run: () => this.core.request({ endpoint: ENDPOINTS.secretsDelete, body: { key }, schema: successResponse }),
      isGone: (e) => e instanceof BadRequestError && /not found/i.test(e.serverMessage ?? ""),
      stillThere: async () => Object.keys((await this.list()) ?? {}).some((k) => k.toUpperCase() === key.toUpperCase()),
    });
  }
}

/** API keys of the account. */
export class ApiKeysApi {
  constructor(private readonly core: RequestCore) {}

  /** Create a key; its value is in the result only (secret). Not resent if the response is lost. */
  async create(input: CreateApiKeyInput): Promise<CreatedApiKey> {
    const created = await this.core.request({
      endpoint: ENDPOINTS.apiKeysCreate,
      body: input.permissions ? { name: input.name, permissions: input.permissions } : { name: input.name },
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
   * Delete a key (immediate; later use gives 401). The primary key cannot be deleted (400). A
   * 404 not from the service is checked against the list: a key reported deleted must be.
   */
  delete(id: number): Promise<DeleteResult> {
    return deleteConfirmed({
      what: `API key ${id}`,
      run: () => this.core.request({ endpoint: ENDPOINTS.apiKeysDelete, params: { id }, schema: successResponse }),
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
