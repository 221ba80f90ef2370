/**
 * The permissions input's types, apart from its schema: public declarations (ApiKey, TeamRole)
 * import these, so a user's type check never reaches zod's declarations.
 */

/** `read` grants the area's `_read` scope; `write` grants `_read` and `_write`. */
export type AccessLevel = "read" | "write";

/** What a key or role may do, area by area (ApiKeyPermissions is this type). */
export interface AreaPermissions {
  instances?: AccessLevel;
  user?: AccessLevel;
  billing?: AccessLevel;
  machines?: AccessLevel;
  /** Team routes: team_read, team_write (the vendor's route table). */
  team?: AccessLevel;
  /** Agent routes: agents_read, agents_write (the vendor's route table). */
  agents?: AccessLevel;
  misc?: boolean;
}
