import type { Declaration } from "../kit/declaration";

/** The `Webhook` resource, declared once for its class and its provider. */
export const WEBHOOK = {
  kind: "webhook",
  type: "Webhook",
  computed: ["secret", "webhookId", "adopted", "createdAt"],
  internal: ["nameMarker", "lostCreate"],
  secretInputs: ["url"],
  secretOutputs: ["secret"],
} as const satisfies Declaration;
