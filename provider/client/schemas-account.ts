/** Wire schemas (snake_case) of SSH keys, secrets, API keys and subaccount keys. */
import { z } from "zod";
import { anyNumber, anyRecord, anyString, idNumber, mapped, optBoolean, optString, timestampLike, withoutSecrets } from "./schema-helpers";
import { scopesOfPermissions, type ApiKey, type ApiKeyPermissions, type CreatedApiKey, type CurrentUser, type RegeneratedKey, type SecretList, type SshKey } from "./types-account";

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
    deleted_at: timestampLike,
  },
  (k): SshKey => ({
    id: k.id,
    publicKey: k.public_key ?? k.key ?? k.ssh_key ?? "",
    userId: k.user_id,
    createdAt: k.created_at,
    deletedAt: k.deleted_at ?? null,
  }),
);

/** A key with a `deleted_at` time is soft-deleted: for every caller it is gone. */
const liveKeys = (keys: SshKey[]): SshKey[] => keys.filter((k) => k.deletedAt === null || k.deletedAt === undefined);

export const sshKeyCreateResponse: z.ZodType<SshKey> = z.looseObject({ key: sshKeySchema }).transform((r) => r.key);

/** A bare array (api-facts), or the same under `ssh_keys`; soft-deleted keys are left out. */
export const sshKeyListResponse: z.ZodType<SshKey[]> = z
  .union([z.array(sshKeySchema), z.looseObject({ ssh_keys: z.array(sshKeySchema) }).transform((r) => r.ssh_keys)])
  .transform(liveKeys);

/** The 404 message of `GET /api/v0/ssh/` for an account without keys: an empty list, not an error. */
export const NO_SSH_KEYS_MESSAGE = /no ssh keys found/i;

// ---- secrets -----------------------------------------------------------------------------

/** `{secrets: {...}}`; without the key (a `200 {}`) it is refused, not read as "none". */
export const secretListResponse: z.ZodType<SecretList> = z
  .looseObject({ secrets: z.record(z.string(), z.string().nullable()).nullable() })
  .transform((r) => r.secrets ?? {});

// ---- API keys ----------------------------------------------------------------------------

const permissions = anyRecord;

/**
 * The list carries the key's scopes as `rights`: a permission object, or the same as JSON text
 * (the document types it as a string). Text that is not a JSON object reads as no scopes.
 */
const rights = z
  .unknown()
  .optional()
  .transform((v): ApiKeyPermissions | undefined => {
    if (v && typeof v === "object" && !Array.isArray(v)) return v as ApiKeyPermissions;
    if (typeof v !== "string") return undefined;
    try {
      const parsed: unknown = JSON.parse(v);
      return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as ApiKeyPermissions) : undefined;
    } catch {
      return undefined;
    }
  });

export const apiKeySchema: z.ZodType<ApiKey> = mapped(
  { id: idNumber, name: optString, permissions, rights, created_at: timestampLike },
  (k, raw): ApiKey => ({
    id: k.id,
    name: k.name,
    permissions: k.permissions ?? k.rights ?? null,
    scopes: scopesOfPermissions(k.permissions ?? k.rights),
    createdAt: k.created_at,
    raw: withoutSecrets(raw, ["key"]),
  }),
);

export const apiKeyListResponse: z.ZodType<ApiKey[]> = z.union([
  z.looseObject({ apikeys: z.array(apiKeySchema) }).transform((r) => r.apikeys),
  z.array(apiKeySchema),
]);

export const apiKeyCreateResponse: z.ZodType<CreatedApiKey> = z
  .looseObject({ id: idNumber, key: z.string().min(1), permissions })
  .transform((r) => ({ id: r.id, key: r.key, permissions: r.permissions ?? null, scopes: scopesOfPermissions(r.permissions) }));

// ---- users -------------------------------------------------------------------------------

export const currentUserSchema: z.ZodType<CurrentUser> = mapped(
  { id: idNumber, email: optString, username: optString, balance: anyNumber, credit: anyNumber },
  (u, raw): CurrentUser => ({ id: u.id, email: u.email, username: u.username, balance: u.balance, credit: u.credit, raw: withoutSecrets(raw, ["api_key", "sid"]) }),
);

// ---- subaccounts -------------------------------------------------------------------------

export const regenerateKeysResponse: z.ZodType<RegeneratedKey[]> = z
  .looseObject({
    success: optBoolean,
    // The response is the only copy of the new keys: only what identifies a key and the key
    // itself are strict, so an odd descriptive field (a null email) never loses a key.
    regenerated_keys: z.array(z.looseObject({ user_id: idNumber, email: anyString, derived_key: z.string().min(1) })),
  })
  .transform((r) => r.regenerated_keys.map((k) => ({ userId: k.user_id, email: k.email ?? "", derivedKey: k.derived_key })));
