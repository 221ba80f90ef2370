import type { Declaration } from "../kit/declaration";

/** The `Subaccount` resource, declared once for its class and its provider. */
export const SUBACCOUNT = {
  kind: "subaccount",
  type: "Subaccount",
  computed: ["userId", "keyId"],
  secretOutputs: ["password"],
  replaceOn: ["email", "username", "password", "hostOnly"],
} as const satisfies Declaration;
