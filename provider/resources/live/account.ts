/**
 * Shared readers of account objects that one list call returns whole: SSH keys
 * (`GET /api/v0/ssh/`, paced at about one call a second), account environment variables
 * (`GET /api/v0/secrets`) and API keys (`GET /api/v0/auth/apikeys/`). A refresh of many
 * SshKey, EnvVar or ApiKey resources makes one list call instead of one per resource. Neither has a read of one object: a key this process just wrote
 * is read from a listing that starts after the write.
 */
import type { ApiKey, SshKey, VastClient } from "../../client";
import { getClient } from "../../context";
import { readerFor } from "./readers";
import type { SharedList } from "./shared-list";

/** One account environment variable as listed: its name and masked value (null when empty). */
export interface LiveSecret {
  key: string;
  masked: string | null;
}

/** SSH keys of the account, by id. */
export function liveSshKeys(client: VastClient = getClient()): SharedList<SshKey> {
  return readerFor<SshKey>(client, "sshKeys", (c) => ({
    fetchAll: () => c.sshKeys.list(),
    keyOf: (key) => String(key.id),
  }));
}

/** Account environment variables, by name. */
export function liveSecrets(client: VastClient = getClient()): SharedList<LiveSecret> {
  return readerFor<LiveSecret>(client, "secrets", (c) => ({
    fetchAll: async () => Object.entries(await c.secrets.list()).map(([key, masked]) => ({ key, masked })),
    keyOf: (secret) => secret.key,
  }));
}

/** API keys of the account, by id (values are never listed). */
export function liveApiKeys(client: VastClient = getClient()): SharedList<ApiKey> {
  return readerFor<ApiKey>(client, "apiKeys", (c) => ({
    fetchAll: () => c.apiKeys.list(),
    keyOf: (key) => String(key.id),
  }));
}
