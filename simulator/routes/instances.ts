/** Reading, changing and destroying instances (api-facts: Instances). */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { endedContract } from "../domain/billing";
import { noteStopped } from "../domain/stopped";
import { leaveOverlays } from "./clusters";
import { FilterError, matches, plainReader } from "../domain/filters";
import { instanceView } from "../domain/instance-view";
import { served } from "../domain/untrimmed";
import { offerState } from "../domain/offers";
import { account, requirePermission } from "../http/auth";
import { invalidArgs, notFound, show } from "../http/errors";
import { bodyOf, idParam, optString, reqString } from "../http/validate";
import type { InstanceRecord } from "../store/types";
import { LABEL_MAX } from "./instance-create";
import { checkPublicKey } from "./ssh-keys";

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

function own(ctx: SimContext, request: IdRequest): InstanceRecord {
  const id = idParam(request.params.id, "instance id");
  const inst = ctx.store.data.instances.find((i) => i.id === id && i.userId === account(request).user.id);
  if (!inst) throw notFound("no_such_instance", `No instance with id ${id} on this account`);
  return inst;
}

function mine(ctx: SimContext, request: FastifyRequest): InstanceRecord[] {
  const userId = account(request).user.id;
  return ctx.store.data.instances.filter((i) => i.userId === userId).sort((a, b) => a.id - b.id);
}

const PAGE_MAX = 25;
/** A page size of 0 or less is read as this (vendor document). */
const PAGE_NONPOSITIVE = 5;
/** Computed columns: the service refuses them as filters (vendor document). */
const COMPUTED = new Set(["dph_total", "num_gpus", "gpu_totalram", "ssh_host", "public_ipaddr", "ports", "geolocation"]);

function jsonParam(q: Record<string, string | undefined>, name: string, fallback: unknown, shape: string): unknown {
  const raw = q[name];
  if (raw === undefined || raw === "") return fallback;
  try {
    return JSON.parse(raw);
  } catch {
    throw invalidArgs(`${name} must be JSON such as ${shape} (got ${show(raw)})`);
  }
}

type Directive = { col: string; dir: 1 | -1 };

function orderBy(q: Record<string, string | undefined>, columns: Set<string>): Directive[] {
  const raw = jsonParam(q, "order_by", [], '[{"col":"id","dir":"asc"}]');
  if (!Array.isArray(raw)) throw invalidArgs(`order_by must be a JSON array like [{"col":"id","dir":"asc"}] (got ${show(raw)})`);
  const out: Directive[] = raw.map((d) => {
    const col = d && typeof d === "object" ? (d as Record<string, unknown>).col : undefined;
    if (typeof col !== "string" || !columns.has(col)) throw invalidArgs(`order_by: invalid column ${show(col)}`);
    // Anything but "desc" is ascending (vendor document).
    return { col, dir: (d as Record<string, unknown>).dir === "desc" ? -1 : 1 };
  });
  // `id` is always the last tiebreaker.
  if (!out.some((d) => d.col === "id")) out.push({ col: "id", dir: 1 });
  return out;
}

function cmp(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a) < String(b) ? -1 : 1;
}

function byOrder(order: Directive[]) {
  return (a: Record<string, unknown>, b: Record<string, unknown>) => {
    for (const { col, dir } of order) {
      const c = cmp(a[col], b[col]) * dir;
      if (c !== 0) return c;
    }
    return 0;
  };
}

/**
 * `GET /api/v1/instances/`: keyset pages of at most 25, filtered by `select_filters` (on stored
 * columns such as `label` or `actual_status`), sorted by `order_by` (id last), trimmed to
 * `select_cols`. The token holds the sort values of the last row of the page.
 */
function page(ctx: SimContext, request: FastifyRequest) {
  const q = request.query as Record<string, string | undefined>;
  const asked = q.limit === undefined || q.limit === "" ? PAGE_MAX : Number(q.limit);
  if (!Number.isInteger(asked)) throw invalidArgs(`limit must be an integer (got ${show(q.limit)})`);
  const limit = asked <= 0 ? PAGE_NONPOSITIVE : Math.min(asked, PAGE_MAX);
  const views = mine(ctx, request).map((i) => instanceView(ctx, i));
  const columns = new Set(views.length ? Object.keys(views[0]) : ["id"]);
  const filters = jsonParam(q, "select_filters", {}, '{"label": {"eq": "x"}}');
  if (filters === null || typeof filters !== "object" || Array.isArray(filters)) {
    throw invalidArgs(`select_filters must be a JSON object like {"label": {"eq": "x"}} (got ${show(filters)})`);
  }
  for (const col of Object.keys(filters)) {
    if (COMPUTED.has(col)) throw invalidArgs(`select_filters: ${col} is computed and cannot be filtered`);
    if (views.length > 0 && !columns.has(col)) throw invalidArgs(`select_filters: unknown column ${show(col)}`);
  }
  const cols = jsonParam(q, "select_cols", ["*"], '["id","label"]');
  if (!Array.isArray(cols) || cols.some((c) => typeof c !== "string")) throw invalidArgs(`select_cols must be a JSON array of column names (got ${show(cols)})`);
  const order = orderBy(q, columns);
  let found: Record<string, unknown>[];
  try {
    found = views.filter((v) => matches(plainReader(v), filters as Record<string, unknown>));
  } catch (err) {
    if (err instanceof FilterError) throw invalidArgs(`select_filters: ${err.message}`);
    throw err;
  }
  found.sort(byOrder(order));
  let rest = found;
  if (q.after_token) {
    let values: Record<string, unknown> | undefined;
    try {
      const decoded = JSON.parse(Buffer.from(q.after_token, "base64").toString("utf8")) as { values?: Record<string, unknown> };
      values = decoded.values && typeof decoded.values === "object" ? decoded.values : undefined;
    } catch {
      values = undefined;
    }
    if (!values || typeof values.id !== "number") throw invalidArgs(`after_token is not a token this API returned (got ${show(q.after_token)})`);
    const key = values;
    rest = found.filter((v) => byOrder(order)(v, key) > 0);
  }
  const items = rest.slice(0, limit);
  const more = rest.length > items.length;
  const last = items[items.length - 1];
  const token = more && last ? Buffer.from(JSON.stringify({ values: Object.fromEntries(order.map((d) => [d.col, last[d.col]])) })).toString("base64") : null;
  const all = cols.includes("*");
  const labelCounts: Record<string, number> = {};
  for (const v of found) labelCounts[String(v.label ?? "")] = (labelCounts[String(v.label ?? "")] ?? 0) + 1;
  return {
    success: true,
    instances_found: items.length,
    total_instances: found.length,
    label_counts: labelCounts,
    next_token: token,
    instances: items.map((v) => served(ctx, all ? v : Object.fromEntries((cols as string[]).map((c) => [c, v[c] ?? null])))),
  };
}

function startAgain(ctx: SimContext, inst: InstanceRecord): Record<string, unknown> {
  const wasStopped = inst.intendedStatus === "stopped";
  inst.intendedStatus = "running";
  if (!wasStopped) return { success: true };
  if (offerState(ctx.store, inst.offerId, inst.id) !== "available") {
    // The start waits until the offer is available again (api-facts: state change queued).
    inst.startQueued = true;
    return { success: false, error: "resources_unavailable", msg: "The machine has no free resources now; the start is queued" };
  }
  inst.bootStartedAt = ctx.now();
  inst.finalStatus = "running";
  return { success: true };
}

function update(ctx: SimContext, request: IdRequest): Record<string, unknown> {
  requirePermission(request, "instance_write");
  const inst = own(ctx, request);
  const body = bodyOf(request.body);
  const label = optString(body, "label", LABEL_MAX);
  const state = optString(body, "state");
  if (label === undefined && state === undefined) throw invalidArgs("Nothing to change: send label or state");
  if (state !== undefined && state !== "running" && state !== "stopped") {
    throw invalidArgs(`state must be "running" or "stopped" (got ${show(state)})`);
  }
  if (label !== undefined) inst.label = label;
  let result: Record<string, unknown> = { success: true };
  if (state === "stopped") {
    inst.intendedStatus = "stopped";
    inst.startQueued = false;
  } else if (state === "running") result = startAgain(ctx, inst);
  noteStopped(inst, ctx.now());
  ctx.store.changed();
  return result;
}

function attachSsh(ctx: SimContext, request: IdRequest): Record<string, unknown> {
  requirePermission(request, "instance_write");
  const inst = own(ctx, request);
  const text = checkPublicKey(reqString(bodyOf(request.body), "ssh_key"));
  const userId = inst.userId;
  let key = ctx.store.data.sshKeys.find((k) => k.userId === userId && !k.deletedAt && k.publicKey === text);
  if (!key) {
    key = { id: ctx.store.nextId("sshKey"), userId, publicKey: text, createdAt: ctx.now() };
    ctx.store.data.sshKeys.push(key);
  }
  if (!inst.sshKeyIds.includes(key.id)) inst.sshKeyIds.push(key.id);
  ctx.store.changed();
  return { success: true, msg: `SSH key ${key.id} attached to instance ${inst.id}` };
}

/** `DELETE /api/v0/instances/{id}/ssh/{ssh_key_id}/` (vendor document: detach ssh-key). */
function detachSsh(ctx: SimContext, request: FastifyRequest<{ Params: { id: string; keyId: string } }>): Record<string, unknown> {
  requirePermission(request, "instance_write");
  const inst = own(ctx, request as unknown as IdRequest);
  const keyId = idParam(request.params.keyId, "ssh key id");
  if (!inst.sshKeyIds.includes(keyId)) throw notFound("no_such_ssh_key", `SSH key ${keyId} is not attached to instance ${inst.id}.`);
  inst.sshKeyIds = inst.sshKeyIds.filter((k) => k !== keyId);
  ctx.store.changed();
  return { success: true, msg: "SSH key removed from instance." };
}

export function registerInstances(app: FastifyInstance, ctx: SimContext): void {
  app.get("/api/v0/instances", (req) => {
    const list = mine(ctx, req).map((i) => served(ctx, instanceView(ctx, i)));
    return { instances_found: list.length, instances: list };
  });
  app.get("/api/v1/instances", (req) => page(ctx, req));
  app.get<{ Params: { id: string } }>("/api/v0/instances/:id", (req) => {
    const id = idParam(req.params.id, "instance id");
    const inst = ctx.store.data.instances.find((i) => i.id === id && i.userId === account(req).user.id);
    // A destroyed instance reads as {instances: null}, not 404 (api-facts: Read one).
    return { instances: inst ? served(ctx, instanceView(ctx, inst)) : null };
  });
  app.put<{ Params: { id: string } }>("/api/v0/instances/:id", (req) => update(ctx, req));
  app.delete<{ Params: { id: string } }>("/api/v0/instances/:id", (req) => {
    requirePermission(req, "instance_write");
    const inst = own(ctx, req);
    ctx.store.data.endedContracts.push(endedContract(ctx, inst));
    ctx.store.data.instances = ctx.store.data.instances.filter((i) => i !== inst);
    leaveOverlays(ctx, inst.id);
    ctx.store.changed();
    return { success: true };
  });
  app.post<{ Params: { id: string } }>("/api/v0/instances/:id/ssh", (req) => attachSsh(ctx, req));
  app.delete<{ Params: { id: string; keyId: string } }>("/api/v0/instances/:id/ssh/:keyId", (req) => detachSsh(ctx, req));
}
