/**
 * The shared reader of templates. The service has no list of one's own templates, but its
 * search takes `id: {in: [...]}`: the ids asked for at about the same time (a refresh) are read
 * with one search per 100 ids instead of one search each.
 */
import type { Template, VastClient } from "../../client";
import { getClient } from "../../context";
import { readerFor } from "../kit";
import type { SharedList } from "../kit";

/** Ids per search: keeps the query string short. */
export const TEMPLATE_IDS_PER_SEARCH = 100;

/** A template that carries its numeric id. */
export type LiveTemplate = Template & { id: number };

/** One id alone; a single answer without an id field is that template (the filter asked for it). */
async function searchOne(client: VastClient, id: number): Promise<LiveTemplate | undefined> {
  const found = await client.templates.search({ id: { eq: id } });
  const match = found.find((t) => t.id === id) ?? (found.length === 1 && found[0].id === undefined ? found[0] : undefined);
  return match && { ...match, id };
}

async function searchIds(client: VastClient, ids: number[]): Promise<LiveTemplate[]> {
  if (ids.length === 1) {
    const one = await searchOne(client, ids[0]);
    return one ? [one] : [];
  }
  const found = await client.templates.search({ id: { in: ids } });
  const hits = found.filter((t): t is LiveTemplate => t.id !== undefined && ids.includes(t.id));
  if (found.every((t) => t.id !== undefined)) return hits;
  // Answers without ids cannot be matched to what was asked: read the rest one by one.
  const rest = ids.filter((id) => !hits.some((t) => t.id === id));
  const alone = await Promise.all(rest.map((id) => searchOne(client, id)));
  return [...hits, ...alone.filter((t): t is LiveTemplate => t !== undefined)];
}

/**
 * Throws unless the key can see templates. The service answers a key without `user_read` with
 * an empty search (spec: Templates search), which looks like "gone": an empty answer is
 * believed only when a search every reading key gets answers (the public recommended
 * templates) is not empty too. Called only when something asked for is missing.
 */
export async function templatesVisible(client: VastClient, missing: readonly number[]): Promise<void> {
  const probe = await client.templates.search({ recommended: { eq: true } });
  if (probe.length > 0) return;
  throw new Error(
    `Template ${missing.join(", ")}: the search found nothing, not even the public recommended templates, so the API key cannot read templates ` +
      "(it lacks the user_read permission) and cannot tell whether they still exist. Use a key with user_read; nothing was removed from state.",
  );
}

/** Templates by numeric id. */
export function liveTemplates(client: VastClient = getClient()): SharedList<LiveTemplate> {
  return readerFor<LiveTemplate>(client, "templates", (c) => ({
    fetchKeys: async (keys) => {
      const ids = keys.map(Number);
      const out: LiveTemplate[] = [];
      for (let i = 0; i < ids.length; i += TEMPLATE_IDS_PER_SEARCH) out.push(...(await searchIds(c, ids.slice(i, i + TEMPLATE_IDS_PER_SEARCH))));
      const missing = ids.filter((id) => !out.some((t) => t.id === id));
      if (missing.length > 0) await templatesVisible(c, missing);
      return out;
    },
    keyOf: (t) => String(t.id),
  }));
}
