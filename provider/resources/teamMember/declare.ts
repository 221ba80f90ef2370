import type { Declaration } from "../kit/declaration";

/** The `TeamMember` resource, declared once for its class and its provider. */
export const TEAM_MEMBER = {
  kind: "teamMember",
  type: "TeamMember",
  computed: ["status", "pending", "memberId", "invitedAt"],
  replaceOn: ["email", "role"],
  deleteBeforeReplace: true,
} as const satisfies Declaration;
