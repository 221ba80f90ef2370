import type { Declaration } from "../kit/declaration";

/** The `TeamRole` resource, declared once for its class and its provider. */
export const TEAM_ROLE = {
  kind: "teamRole",
  type: "TeamRole",
  computed: ["roleId", "scopes"],
} as const satisfies Declaration;
