/**
 * The shared reader of API keys (`GET /api/v0/auth/apikeys/`): a refresh of many ApiKey
 * resources makes one list call. Values are never listed.
 */
import type { ApiKey, VastClient } from "../../client";
import { getClient } from "../../context";
import { readerFor, type SharedList } from "../kit";

/** API keys of the account, by id. */
export function liveApiKeys(client: VastClient = getClient()): SharedList<ApiKey> {
  return readerFor<ApiKey>(client, "apiKeys", (c) => ({
    fetchAll: () => c.apiKeys.list(),
    keyOf: (key) => String(key.id),
  }));
}
