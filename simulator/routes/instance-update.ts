/**
 * `PUT /api/v0/instances/update_template/{id}/`: recreate an instance's container on the same
 * machine from a new template, image, environment, start script or arguments (the vendor's
 * client: `vastai update instance`, body `{id, template_id, template_hash_id, image, args, env,
 * onstart}`; answer `{success, updated_instance}` or `{success: false, msg}`). The GPU stays
 * rented: same machine, same ports; the status goes through loading to running again.
 *
 * Refusals, as the vendor's client reads them (`success: false` with `msg`): a stopped or
 * outbid instance (no container to recreate), and machines that `POST
 * /_sim/machines/{id}/refuse-updates {reason}` told to refuse (so tests can cause them).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { mergeEnv } from "../domain/env-flags";
import { instanceView } from "../domain/instance-view";
import { served } from "../domain/untrimmed";
import { account, requirePermission } from "../http/auth";
import { invalidArgs, notFound } from "../http/errors";
import { bodyOf, idParam, optNumber, optString } from "../http/validate";
import type { TemplateRecord } from "../store/types";
import { ONSTART_MAX, envObject, findTemplate, imageUuid, templateEnvOf } from "./instance-create";

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

const FIELDS = ["template_id", "template_hash_id", "image", "args", "env", "onstart"];

function refusal(msg: string) {
  return { success: false, error: "update_refused", msg };
}

function templateOf(ctx: SimContext, body: Record<string, unknown>): TemplateRecord | undefined {
  const byHash = findTemplate(ctx, body);
  if (byHash) return byHash;
  const id = optNumber(body, "template_id");
  if (id === undefined) return undefined;
  const t = ctx.store.data.templates.find((x) => x.id === id);
  if (!t) throw invalidArgs(`template_id ${id} does not name a template`);
  return t;
}

function updateTemplate(ctx: SimContext, request: IdRequest) {
  requirePermission(request, "instance_write");
  const id = idParam(request.params.id, "instance id");
  const inst = ctx.store.data.instances.find((i) => i.id === id && i.userId === account(request).user.id);
  if (!inst) throw notFound("no_such_instance", `Instance with that ID does not exist (${id}).`);
  const body = bodyOf(request.body);
  if (!FIELDS.some((f) => body[f] !== undefined)) throw invalidArgs(`give at least one of ${FIELDS.join(", ")}`);
  const onstart = optString(body, "onstart");
  if (onstart !== undefined && onstart.length > ONSTART_MAX) throw invalidArgs(`onstart must be at most ${ONSTART_MAX} characters (got ${onstart.length})`);
  const image = optString(body, "image");
  const args = optString(body, "args");
  const template = templateOf(ctx, body);
  const requestEnv = body.env === undefined ? undefined : envObject(body);
  if (inst.intendedStatus === "stopped" || inst.outbid) return refusal(`Instance ${id} is stopped: start it before updating its template.`);
  const refused = ctx.store.data.refuseUpdates?.[String(inst.machineId)];
  if (refused !== undefined) return refusal(refused);

  const tf = template?.fields ?? {};
  const newImage = image ?? (tf.image as string | undefined);
  if (newImage !== undefined) inst.imageUuid = imageUuid(newImage, image ? undefined : tf.tag);
  if (template) {
    inst.templateHashId = template.hashId;
    inst.templateId = template.id;
  }
  // The request's env replaces the environment; a template's entries stay, the request's win.
  if (requestEnv !== undefined) inst.env = mergeEnv(template ? templateEnvOf(tf) : [], requestEnv);
  else if (template) inst.env = mergeEnv(templateEnvOf(tf), Object.fromEntries(inst.env));
  const newOnstart = onstart ?? (tf.onstart as string | undefined);
  if (newOnstart !== undefined) inst.onstart = newOnstart;
  const newArgs = args ?? (tf.args_str as string | undefined);
  if (newArgs !== undefined) inst.argsStr = newArgs;
  // The container is recreated on the same machine: the boot runs again.
  inst.bootStartedAt = ctx.now();
  inst.finalStatus = "running";
  inst.statusOverride = null;
  inst.templateUpdates = (inst.templateUpdates ?? 0) + 1;
  ctx.store.changed();
  return { success: true, updated_instance: served(ctx, instanceView(ctx, inst)) };
}

export function registerInstanceUpdate(app: FastifyInstance, ctx: SimContext): void {
  app.put<{ Params: { id: string } }>("/api/v0/instances/update_template/:id", (req) => updateTemplate(ctx, req));
}
