/**
 * Remote rsync between instance containers (spec: PUT /api/v0/commands/rsync). Validation
 * failures are answered with HTTP 200 and `{success: false, error: "invalid_args", msg}`.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { requirePermission } from "../http/auth";
import { bodyOf, type Body } from "../http/validate";
import { machineById } from "../seed/machines";
import type { InstanceRecord } from "../store/types";

// Characters a shell would act on, and control characters: not accepted in a copy path.
const SHELL_CHARS = /[;&|$`<>\\]/;

function hasControlChar(v: string): boolean {
  return [...v].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
}

function failed(msg: string) {
  return { success: false, error: "invalid_args", msg };
}

function validPath(v: unknown): boolean {
  return typeof v === "string" && v.trim() !== "" && v.length <= 4096 && !SHELL_CHARS.test(v) && !hasControlChar(v);
}

function idOf(body: Body, field: string): string | undefined {
  const v = body[field];
  if (v === undefined || v === null || v === "") return undefined;
  return String(v);
}

function endpoint(inst: InstanceRecord | undefined) {
  if (!inst) return { port: null, addr: null };
  return { port: inst.sshPort, addr: machineById(inst.machineId)?.publicIp ?? null };
}

function rsync(ctx: SimContext, request: FastifyRequest) {
  const userId = requirePermission(request, "manage_instances").user.id;
  const body = bodyOf(request.body);
  if (!validPath(body.src_path)) return failed("Invalid src_path.");
  if (!validPath(body.dst_path)) return failed("Invalid dst_path.");
  const srcId = idOf(body, "src_id");
  const dstId = idOf(body, "dst_id");
  if (srcId === undefined && dstId === undefined) return failed("Give src_id, dst_id or both.");
  const find = (id: string | undefined) =>
    id === undefined ? undefined : ctx.store.data.instances.find((i) => String(i.id) === id && i.userId === userId);
  const src = find(srcId);
  const dst = find(dstId);
  if (srcId !== undefined && !src) return failed(`Invalid src_id: no instance ${srcId} on this account.`);
  if (dstId !== undefined && !dst) return failed(`Invalid dst_id: no instance ${dstId} on this account.`);
  const s = endpoint(src);
  const d = endpoint(dst);
  const msg = src && dst ? "Copy between instances started." : "Connection information returned.";
  return { success: true, dst_port: d.port, dst_addr: d.addr, src_port: s.port, src_addr: s.addr, error: "", msg };
}

export function registerCopy(app: FastifyInstance, ctx: SimContext): void {
  app.put("/api/v0/commands/rsync", (req) => rsync(ctx, req));
}
