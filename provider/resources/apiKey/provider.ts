/**
 * The ApiKey provider. The service shows a key's value once, at creation, and cannot edit a
 * key: every change of the inputs makes a new key.
 */
import { z } from "zod";
import type { ApiKey as ApiKeyRecord, CreatedApiKey, VastClient } from "../../client";
import { getClient } from "../../context";
import { ImportableImpl, Props, containsUnknown, createAtMostOnce, deepEqual, identityMarker, jsonClean, lookUp, numericImport, NAME_LIMIT, checkDeclared, diffDeclared, recordedUpdate } from "../kit";
import { API_KEY } from "./declare";
import { withoutControlCharacters } from "../kit/text-schema";
import type { AreaPermissions as ApiKeyPermissions } from "../kit/permission-types";
import { liveApiKeys } from "./live";
import { permissionsIn, permissionsOfScopes, permissionsSchema, scopesOf } from "../kit/permissions";

// The one mapping of permissions to scopes, shared with TeamRole (kit/permissions.ts).
export { permissionsOfScopes, scopesOf };

/**
 * The name the service holds: the resource's name and, when the class gave an identity, its
 * marker (kit/create-once.ts), so keys this resource made and nobody holds the value of (a
 * killed run, a lost answer that landed late) can be told apart from every other key.
 */
function serviceName(name: string, marker: string | undefined): string {
  return marker ? `${name} [${marker}]` : name;
}

function markerOfName(name: string, marker: string): boolean {
  return name.endsWith(` [${marker}]`);
}

const inputSchema = z.object({
  name: withoutControlCharacters(z.string({ error: "must be a string" }).min(1, "must not be empty").max(NAME_LIMIT, `must be at most ${NAME_LIMIT} characters`)),
  permissions: permissionsSchema.optional(),
  rotateOn: z.unknown().optional(),
});

const permissionsOf = (props: Props): ApiKeyPermissions | undefined => permissionsIn(props);

/**
 * Inputs as the user wrote them, with what a refresh saw of name and scopes. The service lists
 * a key's scopes (`rights`); none listed means full access. Scopes other than the stated
 * ones (or full access where some were stated) show as drift: the next up makes a new key.
 */
export function liveInputs(props: Props, live: ApiKeyRecord): Props {
  const stated = permissionsOf(props);
  const seen = live.scopes === null ? undefined : permissionsOfScopes(live.scopes);
  const same = stated === undefined ? seen === undefined : seen !== undefined && deepEqual(scopesOf(stated), scopesOf(seen));
  const marker = typeof props.nameMarker === "string" ? props.nameMarker : undefined;
  const name = marker && live.name && markerOfName(live.name, marker) ? live.name.slice(0, -(marker.length + 3)) : live.name;
  return jsonClean({ name: name || props.name, permissions: same ? stated : seen, rotateOn: props.rotateOn }) as Props;
}

// Key creations of this process run one at a time: after a lost answer, keys of the same name
// that appeared meanwhile are taken for what that creation made, never for a sibling's key.
let creating: Promise<unknown> = Promise.resolve();

function oneAtATime<T>(run: () => Promise<T>): Promise<T> {
  const next = creating.then(run, run);
  creating = next.catch(() => undefined);
  return next;
}

/**
 * Creates a key. Its value is shown once, in the answer, so a key made by a request whose
 * answer was lost can never be used: it is looked for over the look-up window
 * (kit/create-once.ts) among the keys of this name that were not there before, deleted, and the
 * key is created again.
 */
async function createKey(client: VastClient, name: string, permissions: ApiKeyPermissions | undefined, marker?: string): Promise<CreatedApiKey> {
  const scopes = permissions === undefined ? undefined : scopesOf(permissions);
  const listed = await client.apiKeys.list();
  // Keys carrying this create's marker were made by a killed run: nobody saw their value.
  if (marker) for (const orphan of listed.filter((k) => k.name && markerOfName(k.name, marker))) await client.apiKeys.delete(orphan.id);
  const before = new Set(listed.map((k) => k.id));
  return createAtMostOnce({
    send: () => client.apiKeys.create({ name, scopes }),
    recover: async () => {
      const strays = await lookUp(async () => {
        const made = (await client.apiKeys.list()).filter((k) => !before.has(k.id) && k.name === name);
        return made.length > 0 ? made : undefined;
      });
      // A key whose value nobody saw can never be used: delete it and create again.
      for (const stray of strays ?? []) await client.apiKeys.delete(stray.id);
      return undefined;
    },
  });
}

export const provider: ImportableImpl = {
  // importId: the numeric key id. Name and permissions, left out, keep what the service shows
  // (a key cannot be edited: a declared difference fails the import). The key's value is shown
  // only when a key is created: an imported key has no `key` output.
  importing: numericImport("ApiKey", "API key", { keepShown: ["name", "permissions"], optionalOnImport: ["name"] }),

  async check(_olds, news) {
    const result = checkDeclared(API_KEY, inputSchema, news);
    const failures = result.failures ?? [];
    // Only when the areas themselves are valid: a permissions object that grants nothing.
    const p = news.permissions;
    if (!failures.some((f) => f.property.startsWith("permissions")) && p && typeof p === "object" && !containsUnknown(p) && scopesOf(p as ApiKeyPermissions).length === 0) {
      failures.push({ property: "permissions", reason: "permissions: must grant at least one scope; leave permissions out for a full-access key (got {})" });
    }
    return { ...result, failures };
  },

  // No call edits a key: any change of the inputs is a replacement.
  async diff(_id, olds, news) {
    return diffDeclared(API_KEY, olds, news);
  },

  async create(inputs) {
    const name = String(inputs.name);
    const permissions = permissionsOf(inputs);
    const marker = identityMarker(inputs);
    let created;
    try {
      created = await oneAtATime(() => createKey(getClient(), serviceName(name, marker), permissions, marker));
    } catch (error) {
      throw new Error(`ApiKey "${name}": creating the key failed: ${(error as Error).message}`, { cause: error });
    }
    const outs = { ...inputs, key: created.key, keyId: created.id, nameMarker: marker };
    return { id: String(created.id), outs: jsonClean(outs) as Props };
  },

  // The list shows name and permissions, never the value: the value is kept from state.
  // One list call serves every ApiKey read at about the same time (a refresh).
  async read(id, props) {
    const live = await liveApiKeys().get(id);
    if (!live) return { id: "" };
    // A create whose lost answer landed after the look-up window left a key nobody holds.
    const marker = props.nameMarker;
    if (typeof marker === "string" && marker !== "") {
      const client = getClient();
      const strays = (await liveApiKeys().list()).filter((k) => String(k.id) !== id && k.name && markerOfName(k.name, marker));
      for (const stray of strays) await client.apiKeys.delete(stray.id);
    }
    const inputs = liveInputs(props, live);
    return { id, props: { ...props, ...inputs, keyId: live.id }, inputs };
  },

  // Reached only when nothing but the provider code changed (diff replaces otherwise).
  async update(_id, olds, news) {
    return { outs: recordedUpdate(API_KEY, olds, news) };
  },

  async delete(id, props) {
    try {
      await getClient().apiKeys.delete(Number(id));
    } catch (error) {
      throw new Error(`ApiKey "${String(props.name)}" (id ${id}): deleting the key failed: ${(error as Error).message}`, { cause: error });
    }
  },
};
