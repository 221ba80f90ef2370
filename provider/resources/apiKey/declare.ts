import type { Declaration } from "../kit/declaration";

/** The `ApiKey` resource, declared once for its class and its provider. */
export const API_KEY = {
  kind: "apiKey",
  type: "ApiKey",
  computed: ["key", "keyId"],
  internal: ["nameMarker"],
  secretOutputs: ["key"],
  replaceOn: ["name", "permissions", "rotateOn"],
} as const satisfies Declaration;
