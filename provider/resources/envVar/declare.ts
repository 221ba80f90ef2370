import type { Declaration } from "../kit/declaration";

/** The `EnvVar` resource, declared once for its class and its provider. */
export const ENV_VAR = {
  kind: "envVar",
  type: "EnvVar",
  computed: [],
  secretInputs: ["value"],
  replaceOn: ["key"],
} as const satisfies Declaration;
