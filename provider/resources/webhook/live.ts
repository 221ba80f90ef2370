/**
 * The shared reader of webhooks (`GET /api/v0/webhooks/`): a refresh of many Webhook resources
 * makes one list call. Secrets are never listed.
 */
import type { VastClient, Webhook } from "../../client";
import { getClient } from "../../context";
import { readerFor, type SharedList } from "../kit";

/** Webhooks of the account, by id. */
export function liveWebhooks(client: VastClient = getClient()): SharedList<Webhook> {
  return readerFor<Webhook>(client, "webhooks", (c) => ({
    fetchAll: () => c.webhooks.list(),
    keyOf: (w) => String(w.id),
  }));
}
