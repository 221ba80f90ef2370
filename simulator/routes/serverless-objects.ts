/**
 * Serverless endpoint groups (`/api/v0/endptjobs/`) and worker groups (`/api/v0/workergroups/`,
 * the vendor's client calls them `/api/v0/autojobs/`: both are served). Scope `misc` (the vendor
 * client's scope table). A worker group runs its workers as instances of the account: it starts
 * `test_workers` of them when made; deleting the group destroys them and answers
 * `deleted_workers` / `failed_workers` (vendor document); deleting an endpoint deletes its
 * worker groups and so their workers. Listings carry each object's `api_key` (the request log
 * never keeps responses, http/redact.ts).
 */
import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { offerState } from "../domain/offers";
import { instanceStatus } from "../domain/instance-view";
import { account, requirePermission } from "../http/auth";
import { apiError, invalidArgs, show } from "../http/errors";
import { bodyOf, idParam, optInt, optNumber, optString, type Body } from "../http/validate";
import { SEED } from "../seed/seed";
import type { EndpointRecord, WorkerGroupRecord } from "../store/serverless-types";
import { build } from "./instance-create";

const NAME_MAX = 64;
const ARGS_MAX = 4096;
/** Most workers a group starts at creation (test workers), whatever is asked. */
const TEST_WORKERS_MAX = 10;
const iso = (ms: number) => new Date(ms).toISOString();

function endpointView(e: EndpointRecord): Record<string, unknown> {
  return {
    id: e.id,
    user_id: e.userId,
    endpoint_name: e.name,
    min_load: e.minLoad,
    min_cold_load: e.minColdLoad,
    target_util: e.targetUtil,
    cold_mult: e.coldMult,
    cold_workers: e.coldWorkers,
    max_workers: e.maxWorkers,
    max_queue_time: e.maxQueueTime,
    target_queue_time: e.targetQueueTime,
    inactivity_timeout: e.inactivityTimeout,
    api_key: e.apiKey,
    endpoint_state: e.state,
    created_at: iso(e.createdAt),
  };
}

/** `gpu_name=RTX_3090 rentable=true` -> `{gpu_name: {eq: "RTX_3090"}, rentable: {eq: true}}`. */
function parsedQuery(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const term of text.split(/\s+/).filter(Boolean)) {
    const m = /^([A-Za-z_]+)(>=|<=|!=|=|>|<)(.*)$/.exec(term);
    if (!m) continue;
    const op = { "=": "eq", "!=": "neq", ">=": "gte", "<=": "lte", ">": "gt", "<": "lt" }[m[2]]!;
    const raw = m[3];
    const value = raw === "true" || raw === "True" ? true : raw === "false" || raw === "False" ? false : /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
    out[m[1]] = { ...((out[m[1]] as object | undefined) ?? {}), [op]: value };
  }
  return out;
}

/** Fields never set are left out of a listed group (the vendor document types each as number or string). */
const unsetLeftOut = (view: Record<string, unknown>) => Object.fromEntries(Object.entries(view).filter(([, v]) => v !== null));

function groupView(ctx: SimContext, g: WorkerGroupRecord): Record<string, unknown> {
  const endpoint = ctx.store.data.serverless.endpoints.find((e) => e.id === g.endpointId);
  return unsetLeftOut({
    id: g.id,
    user_id: g.userId,
    endpoint_id: g.endpointId,
    endpoint_name: endpoint?.name ?? null,
    template_hash: g.templateHash,
    template_id: g.templateId,
    search_params: g.searchParams,
    search_query: parsedQuery(g.searchParams),
    launch_args: g.launchArgs,
    gpu_ram: g.gpuRam,
    test_workers: g.testWorkers,
    cold_workers: g.coldWorkers,
    min_load: g.minLoad,
    target_util: g.targetUtil,
    cold_mult: g.coldMult,
    api_key: g.apiKey,
    created_at: iso(g.createdAt),
  });
}

function nonNegative(body: Body, field: string, integer: boolean): number | undefined {
  const v = integer ? optInt(body, field) : optNumber(body, field);
  if (v !== undefined && v < 0) throw invalidArgs(`${field} must not be negative (got ${v})`);
  return v;
}

function checkUtil(v: number | undefined): void {
  if (v !== undefined && (v <= 0 || v > 1)) throw invalidArgs(`target_util must be a fraction above 0 and at most 1.0 (got ${v})`);
}

function endpointName(body: Body): string | undefined {
  const name = optString(body, "endpoint_name", NAME_MAX);
  if (name !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
    throw invalidArgs(`endpoint_name must be letters, digits, '.', '_' or '-', starting with a letter or digit (got ${show(name)})`);
  }
  return name;
}

function ownEndpoint(ctx: SimContext, request: FastifyRequest<{ Params: { id: string } }>): EndpointRecord {
  const id = idParam(request.params.id, "endpoint id");
  const e = ctx.store.data.serverless.endpoints.find((x) => x.id === id && x.userId === account(request).user.id);
  if (!e) throw invalidArgs(`Endpointgroup not found for user (id ${id})`);
  return e;
}

function createEndpoint(ctx: SimContext, request: FastifyRequest) {
  const userId = requirePermission(request, "misc").user.id;
  const body = bodyOf(request.body);
  const name = endpointName(body) ?? "default-endpoint";
  const targetUtil = optNumber(body, "target_util");
  checkUtil(targetUtil);
  const s = ctx.store.data.serverless;
  const e: EndpointRecord = {
    id: s.nextEndpointId++,
    userId,
    name,
    // The document's server default, which a client that sends nothing gets (api-facts: Live quirks).
    minLoad: nonNegative(body, "min_load", false) ?? 10,
    minColdLoad: nonNegative(body, "min_cold_load", false) ?? 0,
    targetUtil: targetUtil ?? 0.9,
    coldMult: nonNegative(body, "cold_mult", false) ?? 2.5,
    coldWorkers: nonNegative(body, "cold_workers", true) ?? 5,
    maxWorkers: nonNegative(body, "max_workers", true) ?? 20,
    maxQueueTime: nonNegative(body, "max_queue_time", false) ?? null,
    targetQueueTime: nonNegative(body, "target_queue_time", false) ?? null,
    inactivityTimeout: nonNegative(body, "inactivity_timeout", true) ?? null,
    apiKey: randomBytes(24).toString("hex"),
    state: "active",
    createdAt: ctx.now(),
  };
  s.endpoints.push(e);
  ctx.store.changed();
  return { success: true, result: e.id };
}

function updateEndpoint(ctx: SimContext, request: FastifyRequest<{ Params: { id: string } }>) {
  requirePermission(request, "misc");
  const e = ownEndpoint(ctx, request);
  const body = bodyOf(request.body);
  const targetUtil = optNumber(body, "target_util");
  checkUtil(targetUtil);
  // Fields left out (or null) keep their value, as the vendor's client sends every field.
  e.name = endpointName(body) ?? e.name;
  e.minLoad = nonNegative(body, "min_load", false) ?? e.minLoad;
  e.minColdLoad = nonNegative(body, "min_cold_load", false) ?? e.minColdLoad;
  e.targetUtil = targetUtil ?? e.targetUtil;
  e.coldMult = nonNegative(body, "cold_mult", false) ?? e.coldMult;
  e.coldWorkers = nonNegative(body, "cold_workers", true) ?? e.coldWorkers;
  e.maxWorkers = nonNegative(body, "max_workers", true) ?? e.maxWorkers;
  e.maxQueueTime = nonNegative(body, "max_queue_time", false) ?? e.maxQueueTime;
  e.targetQueueTime = nonNegative(body, "target_queue_time", false) ?? e.targetQueueTime;
  e.inactivityTimeout = nonNegative(body, "inactivity_timeout", true) ?? e.inactivityTimeout;
  const state = optString(body, "endpoint_state");
  if (state !== undefined) e.state = state;
  ctx.store.changed();
  return { success: true };
}

/** Destroys a group's worker instances; those the control API marked undeletable stay and are reported. */
function deleteGroups(ctx: SimContext, groups: WorkerGroupRecord[]): { deleted: number[]; failed: number[] } {
  const s = ctx.store.data.serverless;
  const deleted: number[] = [];
  const failed: number[] = [];
  for (const g of groups) {
    for (const wid of g.workerIds) {
      if (!ctx.store.data.instances.some((i) => i.id === wid)) continue;
      if (s.undeletableWorkers.includes(wid)) {
        failed.push(wid);
        continue;
      }
      ctx.store.data.instances = ctx.store.data.instances.filter((i) => i.id !== wid);
      deleted.push(wid);
    }
  }
  s.undeletableWorkers = s.undeletableWorkers.filter((w) => !failed.includes(w));
  s.workerGroups = s.workerGroups.filter((g) => !groups.includes(g));
  return { deleted, failed };
}

function deleteEndpoint(ctx: SimContext, request: FastifyRequest<{ Params: { id: string } }>) {
  requirePermission(request, "misc");
  const e = ownEndpoint(ctx, request);
  const s = ctx.store.data.serverless;
  const { deleted, failed } = deleteGroups(ctx, s.workerGroups.filter((g) => g.endpointId === e.id));
  s.endpoints = s.endpoints.filter((x) => x !== e);
  ctx.store.changed();
  return { success: true, deleted_workers: deleted, failed_workers: failed, msg: `Deleted endpoint job and ${deleted.length} workers` };
}

function ownGroupOrNull(ctx: SimContext, request: FastifyRequest<{ Params: { id: string } }>): WorkerGroupRecord | undefined {
  const id = idParam(request.params.id, "workergroup id");
  return ctx.store.data.serverless.workerGroups.find((g) => g.id === id && g.userId === account(request).user.id);
}

function groupEndpoint(ctx: SimContext, userId: number, body: Body): EndpointRecord | undefined {
  const id = optInt(body, "endpoint_id");
  const name = optString(body, "endpoint_name");
  if (id === undefined && name === undefined) return undefined;
  const e = ctx.store.data.serverless.endpoints.find((x) => x.userId === userId && (id !== undefined ? x.id === id : x.name === name));
  if (!e) throw invalidArgs("Please assign your workergroup to a valid endpoint identifier");
  return e;
}

function groupTemplate(ctx: SimContext, userId: number, body: Body): { hash: string | null; id: number | null } | undefined {
  const hash = optString(body, "template_hash");
  const tid = optInt(body, "template_id");
  if (hash === undefined && tid === undefined) return undefined;
  const t = ctx.store.data.templates.find((x) => (hash !== undefined ? x.hashId === hash : x.id === tid) && (x.creatorId === userId || x.creatorId === SEED.marketUserId));
  if (!t) throw invalidArgs(`template_hash ${show(hash ?? tid)} does not name a template of this account or a public one`);
  return { hash: t.hashId, id: t.id };
}

/** Starts `count` worker instances for group `g` on available offers. */
function startWorkers(ctx: SimContext, g: WorkerGroupRecord, count: number): void {
  const offers = SEED.offers.filter((o) => offerState(ctx.store, o.id) === "available");
  const t = ctx.store.data.templates.find((x) => x.hashId === g.templateHash);
  for (let i = 0; i < count && offers.length > 0; i++) {
    const offer = offers[i % offers.length];
    const image = (t?.fields.image as string | undefined) ?? "vastai/serverless-worker";
    const inst = build(ctx, { userId: g.userId, offerId: offer.id, body: { label: `workergroup-${g.id}-worker-${i + 1}` }, template: t, image, env: [] });
    ctx.store.data.instances.push(inst);
    g.workerIds.push(inst.id);
  }
}

function createGroup(ctx: SimContext, request: FastifyRequest) {
  const userId = requirePermission(request, "misc").user.id;
  const body = bodyOf(request.body);
  const endpoint = groupEndpoint(ctx, userId, body);
  if (!endpoint) throw invalidArgs("Please assign your workergroup to a valid endpoint identifier");
  const template = groupTemplate(ctx, userId, body);
  const searchParams = optString(body, "search_params", ARGS_MAX);
  if (!template && !searchParams) throw invalidArgs("template_hash, template_id or search_params is required");
  const targetUtil = optNumber(body, "target_util");
  checkUtil(targetUtil);
  const s = ctx.store.data.serverless;
  const g: WorkerGroupRecord = {
    id: s.nextWorkerGroupId++,
    userId,
    endpointId: endpoint.id,
    templateHash: template?.hash ?? null,
    templateId: template?.id ?? null,
    searchParams: searchParams ?? "verified=true rentable=true rented=false",
    launchArgs: optString(body, "launch_args", ARGS_MAX) ?? null,
    gpuRam: nonNegative(body, "gpu_ram", false) ?? null,
    testWorkers: nonNegative(body, "test_workers", true) ?? 3,
    coldWorkers: nonNegative(body, "cold_workers", true) ?? null,
    // The document's defaults for a group (min_load 1.0, target_util 0.9, cold_mult 3.0).
    minLoad: nonNegative(body, "min_load", false) ?? 1,
    targetUtil: targetUtil ?? 0.9,
    coldMult: nonNegative(body, "cold_mult", false) ?? 3,
    apiKey: randomBytes(24).toString("hex"),
    workerIds: [],
    createdAt: ctx.now(),
  };
  s.workerGroups.push(g);
  startWorkers(ctx, g, Math.min(g.testWorkers, TEST_WORKERS_MAX));
  ctx.store.changed();
  return { success: true, id: g.id };
}

function updateGroup(ctx: SimContext, request: FastifyRequest<{ Params: { id: string } }>) {
  const userId = requirePermission(request, "misc").user.id;
  const g = ownGroupOrNull(ctx, request);
  if (!g) throw invalidArgs("Workgroup not found for user");
  const body = bodyOf(request.body);
  const endpoint = groupEndpoint(ctx, userId, body);
  const template = groupTemplate(ctx, userId, body);
  const targetUtil = optNumber(body, "target_util");
  checkUtil(targetUtil);
  if (endpoint) g.endpointId = endpoint.id;
  if (template) {
    g.templateHash = template.hash;
    g.templateId = template.id;
  }
  g.searchParams = optString(body, "search_params", ARGS_MAX) ?? g.searchParams;
  g.launchArgs = optString(body, "launch_args", ARGS_MAX) ?? g.launchArgs;
  g.gpuRam = nonNegative(body, "gpu_ram", false) ?? g.gpuRam;
  g.testWorkers = nonNegative(body, "test_workers", true) ?? g.testWorkers;
  g.coldWorkers = nonNegative(body, "cold_workers", true) ?? g.coldWorkers;
  g.minLoad = nonNegative(body, "min_load", false) ?? g.minLoad;
  g.targetUtil = targetUtil ?? g.targetUtil;
  g.coldMult = nonNegative(body, "cold_mult", false) ?? g.coldMult;
  ctx.store.changed();
  return { success: true };
}

function deleteGroup(ctx: SimContext, request: FastifyRequest<{ Params: { id: string } }>) {
  requirePermission(request, "misc");
  const g = ownGroupOrNull(ctx, request);
  if (!g) {
    const id = Number(request.params.id);
    throw apiError(404, "no_such_workergroup", "No workergroup by that id is available.", { id });
  }
  const { deleted, failed } = deleteGroups(ctx, [g]);
  ctx.store.changed();
  return { success: true, deleted_workers: deleted, failed_workers: failed, msg: `Deleted workergroup and ${deleted.length} workers` };
}

/** The live worker instances of a stored group of this user; undefined when there is no such group. */
export function storedGroupWorkers(ctx: SimContext, id: number, userId: number): Array<Record<string, unknown>> | undefined {
  const g = ctx.store.data.serverless.workerGroups.find((x) => x.id === id && x.userId === userId);
  if (!g) return undefined;
  return ctx.store.data.instances
    .filter((i) => g.workerIds.includes(i.id))
    .map((i) => ({ id: i.id, status: instanceStatus(ctx, i) ?? "loading", created_at: iso(g.createdAt) }));
}

/** Log lines of a worker group of the store, for the run URL's logs route; undefined when none of this user. */
export function storedGroupLogs(ctx: SimContext, id: number, userId: number): string[] | undefined {
  const g = ctx.store.data.serverless.workerGroups.find((x) => x.id === id && x.userId === userId);
  if (!g) return undefined;
  return [`${iso(g.createdAt)} workergroup ${g.id} created`, ...g.workerIds.map((w, i) => `${iso(g.createdAt)} worker-${i} instance ${w} starting`)];
}

export function registerServerlessObjects(app: FastifyInstance, ctx: SimContext): void {
  const s = () => ctx.store.data.serverless;
  app.get("/api/v0/endptjobs", (req) => ({ success: true, results: s().endpoints.filter((e) => e.userId === account(req).user.id).map(endpointView) }));
  app.post("/api/v0/endptjobs", (req) => createEndpoint(ctx, req));
  app.put<{ Params: { id: string } }>("/api/v0/endptjobs/:id", (req) => updateEndpoint(ctx, req));
  app.delete<{ Params: { id: string } }>("/api/v0/endptjobs/:id", (req) => deleteEndpoint(ctx, req));
  for (const base of ["/api/v0/workergroups", "/api/v0/autojobs"]) {
    app.get(base, (req) => ({ success: true, results: s().workerGroups.filter((g) => g.userId === account(req).user.id).map((g) => groupView(ctx, g)) }));
    app.post(base, (req) => createGroup(ctx, req));
    app.put<{ Params: { id: string } }>(`${base}/:id`, (req) => updateGroup(ctx, req));
    app.delete<{ Params: { id: string } }>(`${base}/:id`, (req) => deleteGroup(ctx, req));
  }
  // Control: the next delete of a group holding these workers reports them failed and leaves them running.
  app.post("/_sim/serverless/undeletable-workers", { config: { auth: "none" } }, (req) => {
    const ids = bodyOf(req.body).instance_ids;
    if (!Array.isArray(ids) || !ids.every((x) => Number.isInteger(x))) throw invalidArgs(`instance_ids must be a list of instance ids (got ${show(ids)})`);
    s().undeletableWorkers.push(...(ids as number[]));
    ctx.store.changed();
    return { success: true };
  });
}
