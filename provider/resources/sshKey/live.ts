/**
 * The shared reader of SSH keys (`GET /api/v0/ssh/`, paced at about one call a second): a
 * refresh of many SshKey resources makes one list call instead of one per resource. There is
 * no read of one key: a key this process just wrote is read from a listing that starts after
 * the write.
 */
import type { SshKey, VastClient } from "../../client";
import { getClient } from "../../context";
import { readerFor, type SharedList } from "../kit";

/** SSH keys of the account, by id. */
export function liveSshKeys(client: VastClient = getClient()): SharedList<SshKey> {
  return readerFor<SshKey>(client, "sshKeys", (c) => ({
    fetchAll: () => c.sshKeys.list(),
    keyOf: (key) => String(key.id),
  }));
}
