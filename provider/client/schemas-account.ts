/** Wire schemas (snake_case) of SSH keys, secrets, API keys and subaccount keys. */
import { z } from "zod";
import { anyNumber, anyRecord, idNumber, mapped, optBoolean, optString, timestampLike, withoutSecrets } from "./schema-helpers";
import type { ApiKey, CreatedApiKey, CurrentUser, RegeneratedKey, SecretList, SshKey } from "./types-account";

// ---- SSH keys ----------------------------------------------------------------------------

/** The list names the key text `key`; the create response names it `public_key`. */
export const sshKeySchema: z.ZodType<SshKey> = mapped(
  {
    id: idNumber,
    key: optString,
    public_key: optString,
    ssh_key: optString,
    user_id: anyNumber,
    created_at: timestampLike,
  },
  (k): SshKey => ({ id: k.id, publicKey: k.public_key ?? k.key ?? k.ssh_key ?? "", userId: k.user_id, createdAt: k.created_at }),
);

export const sshKeyCreateResponse: z.ZodType<SshKey> = z.looseObject({ key: sshKeySchema }).transform((r) => r.key);

/** A bare array (api-facts), or the same under `ssh_keys`. */
export const sshKeyListResponse: z.ZodType<SshKey[]> = z.union([
  z.array(sshKeySchema),
  z.looseObject({ ssh_keys: z.array(sshKeySchema) }).transform((r) => r.ssh_keys),
]);

// ---- secrets -----------------------------------------------------------------------------

export const secretListResponse: z.ZodType<SecretList> = z
  .looseObject({ secrets: z.record(z.string(), z.string().nullable()).nullish() })
  .transform((r) => r.secrets ?? {});

// ---- API keys ----------------------------------------------------------------------------

const permissions = anyRecord;

export const apiKeySchema: z.ZodType<ApiKey> = mapped(
  { id: idNumber, name: optString, permissions, created_at: timestampLike },
  (k, raw): ApiKey => ({ id: k.id, name: k.name, permissions: k.permissions ?? null, createdAt: k.created_at, raw: withoutSecrets(raw, ["key"]) }),
);

export const apiKeyListResponse: z.ZodType<ApiKey[]> = z.union([
  z.looseObject({ apikeys: z.array(apiKeySchema) }).transform((r) => r.apikeys),
  z.array(apiKeySchema),
]);

export const apiKeyCreateResponse: z.ZodType<CreatedApiKey> = z
  .looseObject({ id: idNumber, key: z.string().min(1), permissions })
  .transform((r) => ({ id: r.id, key: r.key, permissions: r.permissions ?? null }));

// ---- users -------------------------------------------------------------------------------

export const currentUserSchema: z.ZodType<CurrentUser> = mapped(
  { id: idNumber, email: optString, username: optString },
  (u, raw): CurrentUser => ({ id: u.id, email: u.email, username: u.username, raw: withoutSecrets(raw, ["api_key", "sid"]) }),
);

// ---- subaccounts -------------------------------------------------------------------------

export const regenerateKeysResponse: z.ZodType<RegeneratedKey[]> = z
  .looseObject({
    success: optBoolean,
    regenerated_keys: z.array(z.looseObject({ user_id: idNumber, email: z.string(), derived_key: z.string() })),
  })
  .transform((r) => r.regenerated_keys.map((k) => ({ userId: k.user_id, email: k.email, derivedKey: k.derived_key })));
