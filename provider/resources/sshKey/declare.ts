import type { Declaration } from "../kit/declaration";

/** The `SshKey` resource, declared once for its class and its provider. */
export const SSH_KEY = {
  kind: "sshKey",
  type: "SshKey",
  computed: ["keyId", "fingerprint", "keyType", "createdAt"],
  internal: ["lostCreate"],
} as const satisfies Declaration;
