import type { Declaration } from "../kit/declaration";

/** The `Endpoint` resource, declared once for its class and its provider. */
export const ENDPOINT = {
  kind: "endpoint",
  type: "Endpoint",
  computed: ["endpointId", "state", "createdAt", "apiKey", "spentUsd", "hourlyCost"],
  secretOutputs: ["apiKey"],
} as const satisfies Declaration;
