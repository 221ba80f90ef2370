/**
 * Templates: search, create, edit, delete (spec: Templates; api-facts: Templates). `id` is
 * stable; `hash_id` is derived from content and changes on every edit. The vendor's client
 * edits through /api/v1/template/ (editV1).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { FilterError, matches, plainReader } from "../domain/filters";
import { completeTemplate, pickTemplateFields } from "../domain/template-fields";
import { templateHash } from "../domain/template-hash";
import { templateView } from "../domain/template-view";
import { account, hasPermission } from "../http/auth";
import { apiError, invalidArgs, notFound, show } from "../http/errors";
import { bodyOf, reqString } from "../http/validate";
import type { TemplateRecord } from "../store/types";

const NONE_FOUND = { success: false, msg: "No templates found", templates_found: 0, templates: [] };

function search(ctx: SimContext, request: FastifyRequest) {
  const acc = account(request);
  // A key without user_read sees no templates (spec: Templates search).
  if (!hasPermission(acc, "user_read")) return NONE_FOUND;
  const raw = (request.query as Record<string, string | undefined>).select_filters;
  let filters: unknown = {};
  try {
    if (raw !== undefined && raw !== "") filters = JSON.parse(raw);
  } catch {
    throw invalidArgs(`select_filters must be a JSON object like {"name": {"eq": "x"}} (got ${show(raw)})`);
  }
  if (filters === null || typeof filters !== "object" || Array.isArray(filters)) return NONE_FOUND;
  let found: Record<string, unknown>[];
  try {
    found = ctx.store.data.templates
      .filter((t) => !t.fields.private || t.creatorId === acc.user.id)
      .map(templateView)
      .filter((v) => matches(plainReader(v), filters as Record<string, unknown>));
  } catch (err) {
    // Filter mistakes yield an empty result rather than an error (spec: Templates search).
    if (err instanceof FilterError) return NONE_FOUND;
    throw err;
  }
  return found.length ? { success: true, templates_found: found.length, templates: found } : NONE_FOUND;
}

function create(ctx: SimContext, request: FastifyRequest) {
  const userId = account(request).user.id;
  const fields = completeTemplate(pickTemplateFields(bodyOf(request.body)));
  const hashId = templateHash(userId, fields);
  const existing = ctx.store.data.templates.find((t) => t.hashId === hashId);
  if (existing) {
    // Same content again: the service hands back the template it has (treat as adopt).
    return { success: false, msg: `Existing Template Found: ${existing.hashId}`, template: templateView(existing) };
  }
  const t: TemplateRecord = {
    id: ctx.store.nextId("template"),
    hashId,
    creatorId: userId,
    createdAt: ctx.now(),
    countCreated: 0,
    recentCreateDate: null,
    recommended: false,
    fields,
  };
  ctx.store.data.templates.push(t);
  ctx.store.changed();
  return { success: true, msg: "Template created", template: templateView(t) };
}

function edit(ctx: SimContext, request: FastifyRequest) {
  const userId = account(request).user.id;
  const body = bodyOf(request.body);
  const hash = reqString(body, "hash_id", " (the template to edit)");
  const t = ctx.store.data.templates.find((x) => x.hashId === hash);
  if (!t) throw notFound("not_found", `No template with hash_id ${hash}; hash_id changes on every edit`);
  if (t.creatorId !== userId) throw apiError(401, "not_creator", "Templates can ONLY be Edited by their Creator");
  const fields = completeTemplate({ ...t.fields, ...pickTemplateFields(body) });
  const hashId = templateHash(userId, fields);
  const clash = ctx.store.data.templates.find((x) => x.hashId === hashId && x !== t);
  if (clash) return { success: false, msg: `Existing Template Found: ${clash.hashId}`, template: templateView(clash) };
  t.fields = fields;
  t.hashId = hashId;
  ctx.store.changed();
  return { success: true, hash_id: hashId, msg: "Template updated", template: templateView(t) };
}

/**
 * The vendor's client edits through `PUT /api/v1/template/` with the whole template and both
 * its numeric `id` and its `hash_id` (vastai update template); the edit is the one of v0.
 */
function editV1(ctx: SimContext, request: FastifyRequest) {
  const body = bodyOf(request.body);
  if (!Number.isInteger(body.id)) throw invalidArgs(`id must be the template's numeric id (got ${show(body.id)}); this route takes id and hash_id`);
  const hash = reqString(body, "hash_id", " (the template to edit)");
  const t = ctx.store.data.templates.find((x) => x.hashId === hash);
  if (t && t.id !== body.id) throw invalidArgs(`id ${show(body.id)} and hash_id ${hash} name different templates`);
  return edit(ctx, request);
}

function remove(ctx: SimContext, request: FastifyRequest) {
  const userId = account(request).user.id;
  const id = bodyOf(request.body).template_id;
  if (!Number.isInteger(id)) throw invalidArgs(`template_id must be the template's numeric id, not its hash_id (got ${show(id)})`);
  const t = ctx.store.data.templates.find((x) => x.id === id);
  if (!t) throw notFound("not_found", `No template with id ${id}`);
  if (t.creatorId !== userId) throw apiError(401, "not_creator", "Templates can ONLY be Deleted by their Creator");
  if (ctx.store.data.instances.some((i) => i.templateId === t.id && i.userId !== userId)) {
    throw apiError(400, "template_in_use", "Cannot Delete Template. Other Users are still using it.");
  }
  ctx.store.data.templates = ctx.store.data.templates.filter((x) => x !== t);
  ctx.store.changed();
  return { success: true };
}

export function registerTemplates(app: FastifyInstance, ctx: SimContext): void {
  app.get("/api/v0/template", (req) => search(ctx, req));
  app.post("/api/v0/template", (req) => create(ctx, req));
  app.put("/api/v0/template", (req) => edit(ctx, req));
  app.put("/api/v1/template", (req) => editV1(ctx, req));
  app.delete("/api/v0/template", (req) => remove(ctx, req));
}
