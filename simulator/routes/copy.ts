/**
 * Remote rsync between instance containers (spec: PUT /api/v0/commands/rsync), and the direct
 * instance-to-instance copy the vendor's client uses when neither side is local
 * (`PUT /api/v0/commands/copy_direct/`; with one side "local" it answers the connection
 * information, as rsync does). Rsync validation failures are answered with HTTP 200
 * and `{success: false, error: "invalid_args", msg}`; copy_direct answers them with 400 and an
 * unknown instance with 404 `no_such_user`, as the vendor document lists.
 * `DELETE /api/v0/commands/copy_direct/` `{dst_id}` cancels the copies into an instance
 * (vendor document: cancel copy); copies finish at once here, so there is nothing to stop.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { requirePermission } from "../http/auth";
import { apiError } from "../http/errors";
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

/** An instance id, bare or in the vendor's container form `C.<id>`. */
function idOf(body: Body, field: string): string | undefined {
  const v = body[field];
  if (v === undefined || v === null || v === "" || v === "local") return undefined;
  const text = String(v);
  const m = /^C\.(\d+)$/.exec(text);
  return m ? m[1] : text;
}

function copyDirect(ctx: SimContext, request: FastifyRequest) {
  const userId = requirePermission(request, "instance_write").user.id;
  const body = bodyOf(request.body);
  const refuse = (msg: string) => apiError(400, "invalid_args", msg);
  if (!validPath(body.src_path)) throw refuse("Invalid src_path.");
  if (!validPath(body.dst_path)) throw refuse("Invalid dst_path.");
  const srcId = idOf(body, "src_id");
  const dstId = idOf(body, "dst_id");
  if (srcId === undefined && dstId === undefined) throw refuse("Give src_id, dst_id or both.");
  const find = (id: string | undefined) =>
    id === undefined ? undefined : ctx.store.data.instances.find((i) => String(i.id) === id && i.userId === userId);
  const [src, dst] = [find(srcId), find(dstId)];
  if ((srcId !== undefined && !src) || (dstId !== undefined && !dst)) throw apiError(404, "no_such_user", "No such user.");
  if (src && dst) return { success: true, msg: "Remote to Remote copy initiated - check instance status bar for progress updates (~30 seconds delayed)." };
  // One side is the caller's machine ("local", as `vastai copy local:data C.1:/workspace` sends):
  // the answer says where to rsync to or from, as the rsync route does (vendor document: copy
  // "between an instance and the local machine").
  const s = endpoint(src);
  const d = endpoint(dst);
  return { success: true, dst_port: d.port, dst_addr: d.addr, src_port: s.port, src_addr: s.addr, msg: "Connection information returned." };
}

function cancelCopy(ctx: SimContext, request: FastifyRequest) {
  const userId = requirePermission(request, "instance_write").user.id;
  const dstId = idOf(bodyOf(request.body), "dst_id");
  if (dstId === undefined) throw apiError(400, "invalid_args", "Invalid dst_id.");
  if (!ctx.store.data.instances.some((i) => String(i.id) === dstId && i.userId === userId)) {
    throw apiError(404, "no_such_instance", `No instance ${dstId} on this account.`);
  }
  return { success: true, msg: "Remote copy canceled." };
}

function endpoint(inst: InstanceRecord | undefined) {
  if (!inst) return { port: null, addr: null };
  return { port: inst.sshPort, addr: machineById(inst.machineId)?.publicIp ?? null };
}

function rsync(ctx: SimContext, request: FastifyRequest) {
  const userId = requirePermission(request, "instance_write").user.id;
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
  app.put("/api/v0/commands/copy_direct/", (req) => copyDirect(ctx, req));
  app.delete("/api/v0/commands/copy_direct/", (req) => cancelCopy(ctx, req));
}
