import type { Declaration } from "../kit/declaration";

/** The `SubaccountKeyRotation` resource, declared once for its class and its provider. */
export const SUBACCOUNT_KEY_ROTATION = {
  kind: "subaccountKeyRotation",
  type: "SubaccountKeyRotation",
  computed: ["regeneratedKeys", "rotatedAt"],
  secretOutputs: ["regeneratedKeys"],
  replaceOn: ["subaccountUserId", "all", "triggers"],
  importable: false,
} as const satisfies Declaration;
