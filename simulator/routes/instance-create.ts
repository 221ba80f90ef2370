/**
 * `PUT /api/v0/asks/{id}/`: create an instance on an offer, optionally from a template
 * (spec: Instance-creation request body, Precedence; api-facts: Instances).
 */
import { randomBytes } from "crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { EnvFlagError, mergeEnv, parseEnvFlags } from "../domain/env-flags";
import { minBidOf } from "../domain/bids";
import { catalogueOffer, offerSeed, offerState, pricedWithDisk } from "../domain/offers";
import { requirePermission } from "../http/auth";
import { apiError, invalidArgs, show } from "../http/errors";
import { bodyOf, idParam, optBool, optNumber, optObject, optString, type Body } from "../http/validate";
import type { InstanceRecord, TemplateRecord } from "../store/types";
import { checkVolumeInfo, instanceVolume } from "./volume-info";

export const ONSTART_MAX = 4048;
export const LABEL_MAX = 1024;

/**
 * The request env: the vendor document's Docker flag string (`-e K=V -p 8000:8000`), or the
 * object the vendor's client sends (`{"K": "V", "-p 8000:8000": "1"}`).
 */
export function envObject(body: Body): Record<string, string> {
  if (typeof body.env === "string") {
    try {
      return Object.fromEntries(parseEnvFlags(body.env));
    } catch (err) {
      if (err instanceof EnvFlagError) throw invalidArgs(`env must be Docker flags like "-e VAR=value -p 8080:8080": ${err.message}`);
      throw err;
    }
  }
  const env = optObject(body, "env") ?? {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") {
      throw invalidArgs(`env.${k} must be a string (got ${show(v)})`);
    }
    out[k] = String(v);
  }
  return out;
}

const RUNTYPES = new Set(["ssh", "jupyter", "args", "ssh_direct", "ssh_proxy", "ssh_direc", "jupyter_direct", "jupyter_proxy", "jupyter_direc"]);

function checkBody(body: Body): void {
  if (body.template_id !== undefined) {
    throw invalidArgs("template_id is not accepted when creating an instance; send the template's hash_id as template_hash_id");
  }
  const onstart = optString(body, "onstart");
  if (onstart !== undefined && onstart.length > ONSTART_MAX) {
    throw invalidArgs(
      `onstart must be at most ${ONSTART_MAX} characters (got ${onstart.length}); compress and encode longer scripts`,
    );
  }
  optString(body, "label", LABEL_MAX);
  const target = optString(body, "target_state");
  if (target !== undefined && target !== "running" && target !== "stopped") {
    throw invalidArgs(`target_state must be "running" or "stopped" (got ${show(target)})`);
  }
  // One runtype, or the vendor client's space-separated ones ("ssh_direc ssh_proxy", api-facts: Live quirks).
  const runtype = optString(body, "runtype");
  const tokens = runtype?.trim().split(/\s+/) ?? [];
  if (runtype !== undefined && (tokens.some((t) => !RUNTYPES.has(t)) || (tokens.includes("args") && tokens.length > 1))) {
    throw invalidArgs(`runtype must be one of ssh, jupyter, args, or space-separated ssh_proxy, ssh_direc, jupyter_proxy, jupyter_direc (got ${show(runtype)})`);
  }
  const disk = optNumber(body, "disk");
  if (disk !== undefined && disk <= 0) throw invalidArgs(`disk must be a positive number of GB (got ${disk})`);
  const price = optNumber(body, "price");
  if (price !== undefined && price <= 0) throw invalidArgs(`price must be a positive bid in $/h (got ${price})`);
  // The document's maximum for a bid at creation (in-place changes: 32, instance-actions.ts).
  if (price !== undefined && price > 128) throw invalidArgs(`price must be at most 128 $/h (got ${price})`);
  for (const f of ["image", "args_str", "image_login", "client_id"]) optString(body, f);
  for (const f of ["vm", "cancel_unavail"]) optBool(body, f);
  checkVolumeInfo(body);
}

export function findTemplate(ctx: SimContext, body: Body): TemplateRecord | undefined {
  const hash = optString(body, "template_hash_id");
  if (hash === undefined || hash === "") return undefined;
  const t = ctx.store.data.templates.find((x) => x.hashId === hash);
  if (!t) throw invalidArgs(`template_hash_id ${show(hash)} does not name a template (it changes on every edit)`);
  return t;
}

/**
 * Whether the offer can start now. Gone: 404. Cannot start now: 410 when `cancel_unavail` is
 * true, which is the document's default for an on-demand instance started running (false for a
 * bid or a stopped one); with false the instance is made and its start queued (`success: false`).
 */
function checkOffer(ctx: SimContext, offerId: number, body: Body): "now" | "queued" {
  const state = catalogueOffer(ctx.marketOffers, offerId) ? offerState(ctx.store, offerId) : "gone";
  if (state === "available") return "now";
  const running = (optString(body, "target_state") ?? "running") === "running";
  const cancel = optBool(body, "cancel_unavail") ?? (running && optNumber(body, "price") === undefined);
  if (state === "unavailable" && running && !cancel) return "queued";
  throw apiError(state === "gone" ? 404 : 410, "no_such_ask", `No ask by id ${offerId} is available.`);
}

export function imageUuid(image: string, tag: unknown): string {
  if (/:[^/]+$/.test(image) || image.includes("@")) return image;
  return `${image}:${typeof tag === "string" && tag ? tag : "latest"}`;
}

export function templateEnvOf(fields: Record<string, unknown>): [string, string][] {
  try {
    return parseEnvFlags(String(fields.env ?? ""));
  } catch (err) {
    if (err instanceof EnvFlagError) throw invalidArgs(`template env: ${err.message}`);
    throw err;
  }
}

export interface Resolved {
  userId: number;
  offerId: number;
  body: Body;
  template: TemplateRecord | undefined;
  image: string;
  env: [string, string][];
}

/** Takes the status (and message) the next boot ends in: `running` unless `/_sim/next-boot` said otherwise. */
function takeFinalStatus(ctx: SimContext): { status: string; message?: string } {
  const next = ctx.store.data.nextBoot;
  if (!next) return { status: "running" };
  if (--next.remaining <= 0) ctx.store.data.nextBoot = null;
  return { status: next.actualStatus, message: next.statusMsg };
}

function finalOf(f: { status: string; message?: string }): Pick<InstanceRecord, "finalStatus" | "finalStatusMsg"> {
  return f.message === undefined ? { finalStatus: f.status } : { finalStatus: f.status, finalStatusMsg: f.message };
}

export function build(ctx: SimContext, r: Resolved): InstanceRecord {
  const { body, template: t } = r;
  const tf = t?.fields ?? {};
  const id = ctx.store.nextId("instance");
  const now = ctx.now();
  // Request scalars override template scalars (spec: Precedence 1).
  const str = (f: string): string | null => optString(body, f) ?? (tf[f] as string | undefined) ?? null;
  const diskSpace = optNumber(body, "disk") ?? (tf.recommended_disk_space as number | undefined) ?? 8;
  return {
    id,
    userId: r.userId,
    offerId: r.offerId,
    machineId: offerSeed(r.offerId)!.machineId,
    createdAt: now,
    bootStartedAt: now,
    ...finalOf(takeFinalStatus(ctx)),
    statusOverride: null,
    intendedStatus: optString(body, "target_state") ?? "running",
    startQueued: false,
    label: optString(body, "label") ?? null,
    imageUuid: imageUuid(r.image, optString(body, "image") ? undefined : tf.tag),
    templateHashId: t?.hashId ?? null,
    templateId: t?.id ?? null,
    env: r.env,
    onstart: str("onstart"),
    runtype: str("runtype") ?? "ssh",
    argsStr: str("args_str"),
    diskSpace,
    vm: optBool(body, "vm") ?? false,
    sshPort: 10000 + (id % 50000),
    sshKeyIds: ctx.store.data.sshKeys.filter((k) => k.userId === r.userId && !k.deletedAt).map((k) => k.id),
    // Merged by key, the request winning (spec: Precedence 3).
    extraFilters: { ...((tf.extra_filters as object | undefined) ?? {}), ...(optObject(body, "extra_filters") ?? {}) },
    volumeInfo: optObject(body, "volume_info") ?? null,
    bidPrice: optNumber(body, "price") ?? null,
    // What the service charges from now on: the offer's price at renting, with this disk.
    dphTotal: pricedWithDisk(ctx.store, offerSeed(r.offerId)!, diskSpace),
  };
}

/**
 * A bid below the machine's going price rents the instance outbid (stopped until the bid
 * wins). `POST /_sim/bids` makes the next creates ignore their price and rent on-demand.
 */
function placeBid(ctx: SimContext, inst: InstanceRecord): void {
  if (inst.bidPrice === null) return;
  const ignore = ctx.store.data.ignoreBids ?? 0;
  if (ignore > 0) {
    ctx.store.data.ignoreBids = ignore - 1;
    inst.bidPrice = null;
    return;
  }
  if (inst.bidPrice < (minBidOf(ctx.store, inst.offerId) ?? 0)) inst.outbid = true;
}

function create(ctx: SimContext, request: FastifyRequest<{ Params: { id: string } }>) {
  const acc = requirePermission(request, "instance_write");
  const offerId = idParam(request.params.id, "offer id");
  const body = bodyOf(request.body);
  checkBody(body);
  const template = findTemplate(ctx, body);
  const image = optString(body, "image") ?? (template?.fields.image as string | undefined);
  if (!image) throw invalidArgs("image is required when no template_hash_id is given");
  // Template entries stay, request entries win on conflicts (spec: Precedence 2).
  const env = mergeEnv(templateEnvOf(template?.fields ?? {}), envObject(body));
  if (optBool(body, "vm") && !ctx.store.data.sshKeys.some((k) => k.userId === acc.user.id && !k.deletedAt)) {
    throw apiError(400, "no_ssh_key_for_vm", "A VM instance needs an SSH key on the account before creation (POST /api/v0/ssh/)");
  }
  const start = checkOffer(ctx, offerId, body);
  const volume = instanceVolume(ctx, acc.user.id, body, offerSeed(offerId)!.machineId);
  const inst = build(ctx, { userId: acc.user.id, offerId, body, template, image, env });
  inst.apiKey = randomBytes(24).toString("hex");
  placeBid(ctx, inst);
  // Queued until the offer is free again (control.ts starts it then).
  if (start === "queued") inst.startQueued = true;
  if (volume) inst.volumeId = volume();
  ctx.store.data.instances.push(inst);
  if (template) {
    template.countCreated++;
    template.recentCreateDate = inst.createdAt;
  }
  ctx.store.changed();
  return {
    success: inst.intendedStatus === "running" && !inst.startQueued,
    new_contract: inst.id,
    instance_api_key: inst.apiKey,
  };
}

export function registerInstanceCreate(app: FastifyInstance, ctx: SimContext): void {
  // The overview names POST and every example uses PUT (spec: Instances): both are served.
  app.put<{ Params: { id: string } }>("/api/v0/asks/:id", (req) => create(ctx, req));
  app.post<{ Params: { id: string } }>("/api/v0/asks/:id", (req) => create(ctx, req));
}
