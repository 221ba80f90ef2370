/**
 * The TeamRole provider. A role is created by name (the answer names no id: it is read back
 * by name), edited in place by id and removed by name. A name the team already has is
 * refused at create: the role belongs to someone else, or to a run whose state was lost.
 */
import { z } from "zod";
import type { TeamRole as LiveRole, VastClient } from "../../client";
import { getClient } from "../../context";
import { type ImportableImpl, type Props, PartialFailure, numericImport, containsUnknown, createAtMostOnce, deepEqual, jsonClean, lookUp, checkDeclared, diffDeclared } from "../kit";
import { TEAM_ROLE } from "./declare";
import { permissionsIn, permissionsOfScopes, permissionsSchema, scopesOf, type AreaPermissions } from "../kit/permissions";
import { withoutControlCharacters } from "../kit/text-schema";

/** The roles the service makes with every team; a TeamRole never takes one of their names. */
export const BUILT_IN_ROLES = ["owner", "manager", "member"] as const;
export const ROLE_NAME_LIMIT = 64;

const schema = z.object({
  name: withoutControlCharacters(
    z
      .string({ error: "must be a string" })
      .min(1, "must not be empty")
      .max(ROLE_NAME_LIMIT, `must be at most ${ROLE_NAME_LIMIT} characters`)
      .regex(/^[^/?#%\\]+$/, "must not contain / ? # % or \\ (the name is part of the role's address)")
      .refine((n) => !(BUILT_IN_ROLES as readonly string[]).includes(n), { message: `must not be one of the team's own roles (${BUILT_IN_ROLES.join(", ")})` }),
  ),
  permissions: permissionsSchema,
});

const labelOf = (props: Props) => `TeamRole "${String(props.name)}"`;

function liveOutputs(role: LiveRole): Props {
  return { roleId: role.id, scopes: [...role.scopes] };
}

async function createRole(client: VastClient, name: string, permissions: AreaPermissions): Promise<LiveRole> {
  const existing = await client.teams.role(name);
  if (existing) {
    // Nothing the service shows of a role (no creation time, no marker) tells a role a killed
    // run of this resource made from anyone else's: the user says which it is.
    throw new Error(
      `the team already has a role named ${JSON.stringify(name)} (id ${existing.id}), not made by this resource (it is never taken over on its own). ` +
        `If a run of this stack that was killed or lost its answer made it, take it over by adding importId: "${existing.id}" to this TeamRole and running up again; ` +
        "otherwise choose another name or remove that role",
    );
  }
  return createAtMostOnce({
    send: async () => {
      await client.teams.createRole({ name, scopes: scopesOf(permissions) });
      const made = await client.teams.role(name);
      if (!made) throw new Error(`the service accepted the role but does not list ${JSON.stringify(name)}`);
      return made;
    },
    // The name was free before: a role of that name now is the one the lost request made.
    recover: () => lookUp(async () => (await client.teams.role(name)) ?? undefined),
  });
}

export const provider: ImportableImpl = {
  // importId: the role's id (`getTeamRoles`); a role left without permissions keeps the service's.
  importing: numericImport("TeamRole", "team role", { keepShown: ["permissions"], optionalOnImport: ["permissions"] }),

  async check(_olds, news) {
    const result = checkDeclared(TEAM_ROLE, schema, news);
    const failures = result.failures ?? [];
    const p = news.permissions;
    if (!failures.some((f) => f.property.startsWith("permissions")) && p && typeof p === "object" && !containsUnknown(p) && scopesOf(p as AreaPermissions).length === 0) {
      failures.push({ property: "permissions", reason: "permissions: must grant at least one area, such as { instances: \"read\" } (got {})" });
    }
    return { ...result, failures };
  },

  // The service edits name and permissions in place (by the role's id).
  async diff(_id, olds, news) {
    return diffDeclared(TEAM_ROLE, olds, news);
  },

  async create(inputs) {
    const name = String(inputs.name);
    let role: LiveRole;
    try {
      role = await createRole(getClient(), name, permissionsIn(inputs) ?? {});
    } catch (error) {
      throw new Error(`${labelOf(inputs)}: creating the role failed: ${(error as Error).message}`, { cause: error });
    }
    return { id: String(role.id), outs: jsonClean({ ...inputs, ...liveOutputs(role) }) as Props };
  },

  // The role is read by its name; renamed outside the program it is looked for by id in the list.
  async read(id, props) {
    const client = getClient();
    const byName = typeof props.name === "string" ? await client.teams.role(props.name) : null;
    const live = byName && String(byName.id) === id ? byName : (await client.teams.roles()).find((r) => String(r.id) === id);
    if (!live) return { id: "" };
    const stated = permissionsIn(props);
    const same = stated !== undefined && deepEqual(scopesOf(stated), live.scopes);
    const inputs = jsonClean({ name: live.name, permissions: same ? stated : permissionsOfScopes(live.scopes) }) as Props;
    return { id, props: { ...props, ...inputs, ...liveOutputs(live) }, inputs };
  },

  async update(id, olds, news) {
    const client = getClient();
    const name = String(news.name);
    try {
      await client.teams.updateRole(Number(id), { name, scopes: scopesOf(permissionsIn(news) ?? {}) });
    } catch (error) {
      throw new Error(`${labelOf(news)} (id ${id}): updating the role failed: ${(error as Error).message}`, { cause: error });
    }
    // The change landed: a failed read-back still records what was written, never the old scopes.
    const written = { ...news, roleId: olds.roleId, scopes: scopesOf(permissionsIn(news) ?? {}) };
    let live;
    try {
      live = await client.teams.role(name);
    } catch (error) {
      throw new PartialFailure(`${labelOf(news)} (id ${id}): the service accepted the change, but reading the role back failed: ${(error as Error).message}`, id, news, written);
    }
    if (!live) throw new PartialFailure(`${labelOf(news)} (id ${id}): the service accepted the change but does not list the role ${JSON.stringify(name)}`, id, news, { ...news, roleId: olds.roleId, scopes: olds.scopes });
    return { outs: jsonClean({ ...news, ...liveOutputs(live) }) as Props };
  },

  async delete(id, props) {
    try {
      await getClient().teams.deleteRole(String(props.name));
    } catch (error) {
      throw new Error(`${labelOf(props)} (id ${id}): removing the role failed: ${(error as Error).message}`, { cause: error });
    }
  },
};
