/** Reading, changing and destroying instances (api-facts: Instances). */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { instanceView } from "../domain/instance-view";
import { offerState } from "../domain/offers";
import { account, requirePermission } from "../http/auth";
import { invalidArgs, notFound, show } from "../http/errors";
import { bodyOf, idParam, optString, reqString } from "../http/validate";
import type { InstanceRecord } from "../store/types";
import { LABEL_MAX } from "./instance-create";
import { instancePage } from "./instance-page";
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

function startAgain(ctx: SimContext, inst: InstanceRecord): Record<string, unknown> {
  const wasStopped = inst.intendedStatus === "stopped";
  inst.intendedStatus = "running";
  if (!wasStopped) return { success: true };
  if (offerState(ctx.store, inst.offerId) !== "available") {
    // The start waits until the offer is available again (api-facts: state change queued).
    inst.startQueued = true;
    return { success: false, error: "resources_unavailable", msg: "The machine has no free resources now; the start is queued" };
  }
  inst.bootStartedAt = ctx.now();
  inst.finalStatus = "running";
  return { success: true };
}

function update(ctx: SimContext, request: IdRequest): Record<string, unknown> {
  requirePermission(request, "manage_instances");
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
  ctx.store.changed();
  return result;
}

function attachSsh(ctx: SimContext, request: IdRequest): Record<string, unknown> {
  requirePermission(request, "manage_instances");
  const inst = own(ctx, request);
  const text = checkPublicKey(reqString(bodyOf(request.body), "ssh_key"));
  const userId = inst.userId;
  let key = ctx.store.data.sshKeys.find((k) => k.userId === userId && k.publicKey === text);
  if (!key) {
    key = { id: ctx.store.nextId("sshKey"), userId, publicKey: text, createdAt: ctx.now() };
    ctx.store.data.sshKeys.push(key);
  }
  if (!inst.sshKeyIds.includes(key.id)) inst.sshKeyIds.push(key.id);
  ctx.store.changed();
  return { success: true, msg: `SSH key ${key.id} attached to instance ${inst.id}` };
}

export function registerInstances(app: FastifyInstance, ctx: SimContext): void {
  app.get("/api/v0/instances", (req) => {
    const list = mine(ctx, req).map((i) => instanceView(ctx, i));
    return { instances_found: list.length, instances: list };
  });
  app.get("/api/v1/instances", (req) => instancePage(ctx, req, mine(ctx, req)));
  app.get<{ Params: { id: string } }>("/api/v0/instances/:id", (req) => {
    const id = idParam(req.params.id, "instance id");
    const inst = ctx.store.data.instances.find((i) => i.id === id && i.userId === account(req).user.id);
    // A destroyed instance reads as {instances: null}, not 404 (api-facts: Read one).
    return { instances: inst ? instanceView(ctx, inst) : null };
  });
  app.put<{ Params: { id: string } }>("/api/v0/instances/:id", (req) => update(ctx, req));
  app.delete<{ Params: { id: string } }>("/api/v0/instances/:id", (req) => {
    requirePermission(req, "manage_instances");
    const inst = own(ctx, req);
    ctx.store.data.instances = ctx.store.data.instances.filter((i) => i !== inst);
    ctx.store.changed();
    return { success: true };
  });
  app.post<{ Params: { id: string } }>("/api/v0/instances/:id/ssh", (req) => attachSsh(ctx, req));
}
