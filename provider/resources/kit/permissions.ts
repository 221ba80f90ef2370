/**
 * The one mapping between the permissions input of ApiKey and TeamRole
 * (`{ instances: "write", user: "read" }`) and the service's scopes (`instance_read`, ...).
 */
import { z } from "zod";
import type { ApiKeyScope } from "../../client";

export type { AccessLevel, AreaPermissions } from "./permission-types";
import type { AreaPermissions } from "./permission-types";

const AREAS = { instances: "instance", user: "user", billing: "billing", machines: "machine", team: "team", agents: "agents" } as const;
type Area = keyof typeof AREAS;

const level = z.enum(["read", "write"], { error: 'must be "read" or "write"' }).optional();

/** The zod schema of a permissions input: only the known areas, each `read`/`write` (`misc` true/false). */
export const permissionsSchema = z.strictObject(
  { instances: level, user: level, billing: level, machines: level, team: level, agents: level, misc: z.boolean({ error: "must be true or false" }).optional() },
  { error: 'must be an object of areas such as { instances: "write", user: "read" }' },
);

/** The service's scopes for a permissions input (sorted). */
export function scopesOf(p: AreaPermissions): ApiKeyScope[] {
  const out: ApiKeyScope[] = [];
  for (const area of Object.keys(AREAS) as Area[]) {
    const lvl = p[area];
    if (lvl === "read" || lvl === "write") out.push(`${AREAS[area]}_read` as ApiKeyScope);
    if (lvl === "write") out.push(`${AREAS[area]}_write` as ApiKeyScope);
  }
  if (p.misc === true) out.push("misc");
  return out.sort();
}

/** The permissions input that grants exactly `scopes` (a lone _write reads as write, which grants read too). */
export function permissionsOfScopes(scopes: readonly ApiKeyScope[]): AreaPermissions {
  const out: AreaPermissions = {};
  for (const area of Object.keys(AREAS) as Area[]) {
    if (scopes.includes(`${AREAS[area]}_write` as ApiKeyScope)) out[area] = "write";
    else if (scopes.includes(`${AREAS[area]}_read` as ApiKeyScope)) out[area] = "read";
  }
  if (scopes.includes("misc")) out.misc = true;
  return out;
}

/** The permissions object of a props bag, or undefined. */
export function permissionsIn(props: Record<string, unknown>): AreaPermissions | undefined {
  const p = props.permissions;
  return p && typeof p === "object" && !Array.isArray(p) ? (p as AreaPermissions) : undefined;
}
