import type { Declaration } from "../kit/declaration";

/** The `Team` resource, declared once for its class and its provider. */
export const TEAM = {
  kind: "team",
  type: "Team",
  computed: ["roleNames"],
  replaceOn: ["name"],
  importable: false,
} as const satisfies Declaration;
