/**
 * The shared reader of account environment variables (`GET /api/v0/secrets`): a refresh of
 * many EnvVar resources makes one list call. Values come back masked.
 */
import type { VastClient } from "../../client";
import { getClient } from "../../context";
import { readerFor, type SharedList } from "../kit";

/** One account environment variable as listed: its name and masked value (null when empty). */
export interface LiveSecret {
  key: string;
  masked: string | null;
}

/** Account environment variables, by name. */
export function liveSecrets(client: VastClient = getClient()): SharedList<LiveSecret> {
  return readerFor<LiveSecret>(client, "secrets", (c) => ({
    fetchAll: async () => Object.entries(await c.secrets.list()).map(([key, masked]) => ({ key, masked })),
    keyOf: (secret) => secret.key,
  }));
}
