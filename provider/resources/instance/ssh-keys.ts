/**
 * SSH keys of an instance: `sshKeyIds` (ids of the account's keys, e.g. `SshKey.keyId`) are
 * attached after create and on change (`POST /api/v0/instances/{id}/ssh/` with the key's
 * public text, as the vendor's client sends it), and keys removed from the list are detached
 * (`DELETE /api/v0/instances/{id}/ssh/{ssh_key_id}/`). The live service does not show which
 * keys an instance has (neither the vendor document nor its client reads them), so they are
 * not read back: drift of attached keys is not seen.
 */
import { NotFoundError, type VastClient } from "../../client";
import { Props } from "../kit";

function idsOf(v: unknown): number[] {
  return Array.isArray(v) ? [...new Set(v.map((k) => Number(k)).filter((k) => Number.isInteger(k) && k > 0))] : [];
}

/** Attaches added keys and detaches removed ones; true when a call was made. */
export async function applySshKeys(client: VastClient, id: number, olds: Props, news: Props): Promise<boolean> {
  const before = idsOf(olds.sshKeyIds);
  const after = idsOf(news.sshKeyIds);
  const added = after.filter((k) => !before.includes(k));
  const removed = before.filter((k) => !after.includes(k));
  if (added.length > 0) {
    const keys = await client.sshKeys.list();
    for (const keyId of added) {
      const key = keys.find((k) => k.id === keyId);
      if (!key) {
        throw new Error(
          `Instance ${id}: sshKeyIds: key ${keyId} is not an SSH key of the account (its keys: ${keys.map((k) => k.id).join(", ") || "none"}); ` +
            "register it first (SshKey) and pass its keyId",
        );
      }
      await client.instances.attachSshKey(id, key.publicKey);
    }
  }
  for (const keyId of removed) {
    try {
      await client.instances.detachSshKey(id, keyId);
    } catch (error) {
      // Not attached (any more), as the service itself says: the goal is reached.
      if (!(error instanceof NotFoundError && error.fromService)) throw error;
    }
  }
  return added.length + removed.length > 0;
}
