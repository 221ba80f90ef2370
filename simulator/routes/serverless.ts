/**
 * Serverless: worker-group logs under the run URL (errors `{error_msg}`), deployment versions
 * and autoscaler templates (spec: Serverless, Accounts and keys).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { account } from "../http/auth";
import { ApiError, apiError, invalidArgs, show } from "../http/errors";
import { bodyOf } from "../http/validate";
import { storedGroupLogs, storedGroupWorkers } from "./serverless-objects";
import { autoscalerTemplatesFor, deploymentById, recommendedAutoscalerTemplates, workerGroupById } from "../seed/serverless";

/** Prefix of the serverless API on the simulator's port (`runUrl`). */
export const RUN_PREFIX = "/run";
const TAIL_DEFAULT = 100;
const TAIL_MAX = 10000;

/**
 * An unknown group (or one of another account) is answered HTTP 200 with a bare error string,
 * as the vendor document shows.
 */
function logs(ctx: SimContext, request: FastifyRequest) {
  const userId = account(request).user.id;
  const body = bodyOf(request.body);
  const id = body.id;
  if (!Number.isInteger(id)) throw new ApiError(400, { error_msg: `id must be the integer worker group id (got ${show(id)})` });
  const tail = body.tail ?? TAIL_DEFAULT;
  if (!Number.isInteger(tail) || (tail as number) < 1 || (tail as number) > TAIL_MAX) {
    throw new ApiError(400, { error_msg: `tail must be an integer from 1 to ${TAIL_MAX} (got ${show(tail)})` });
  }
  // A group made through `/api/v0/workergroups/` logs under its own id (serverless-objects.ts).
  const stored = storedGroupLogs(ctx, id as number, userId);
  if (stored) return { logs: stored.slice(-(tail as number)).join("\n") };
  const group = workerGroupById(id as number);
  if (!group || group.ownerId !== userId) return `authenticate_workergroup_apikey: invalid api_key or workergroup ${id} not found`;
  return { logs: group.lines.slice(-(tail as number)).join("\n") };
}

/** The live workers of a stored group (vendor document: get workergroup workers); an unknown group is a bare error string. */
function workers(ctx: SimContext, request: FastifyRequest) {
  const id = bodyOf(request.body).id;
  if (!Number.isInteger(id)) throw new ApiError(400, { error_msg: `id must be the integer worker group id (got ${show(id)})` });
  const found = storedGroupWorkers(ctx, id as number, account(request).user.id);
  if (!found) return `authenticate_workergroup_apikey: invalid api_key or workergroup ${id} not found`;
  return { workers: found };
}

function versions(request: FastifyRequest<{ Params: { id: string } }>) {
  const raw = request.params.id;
  if (!/^\d{1,15}$/.test(raw) || Number(raw) === 0) throw invalidArgs("Invalid deployment ID");
  const d = deploymentById(Number(raw));
  if (!d || d.ownerId !== account(request).user.id) throw apiError(404, "not_found", `Deployment ${raw} not found.`);
  return { success: true, versions: d.versions };
}

function autoscaler(request: FastifyRequest<{ Params: { user_id: string } }>) {
  const me = account(request).user.id;
  const raw = request.params.user_id;
  if (raw !== "me" && raw !== "current" && !/^\d{1,15}$/.test(raw)) {
    throw invalidArgs(`user_id must be a numeric user id (got ${show(raw)})`);
  }
  const userId = /^\d+$/.test(raw) ? Number(raw) : me;
  if (userId !== me) throw apiError(403, "forbidden", `User ${userId} is not the owner of this API key`);
  return { success: true, autoscaler: autoscalerTemplatesFor(userId), recommended: recommendedAutoscalerTemplates() };
}

export function registerServerless(app: FastifyInstance, ctx: SimContext): void {
  // The documented route, and the one the vendor's client calls: both serve the same logs.
  for (const route of ["/get_workergroup_logs", "/get_autogroup_logs/"]) {
    app.post(`${RUN_PREFIX}${route}`, { config: { auth: "bearer-or-body", errorShape: "error_msg" } }, (req, reply) => {
      const answer = logs(ctx, req);
      return typeof answer === "string" ? reply.type("application/json").send(JSON.stringify(answer)) : answer;
    });
  }
  app.post(`${RUN_PREFIX}/get_workergroup_workers`, { config: { auth: "bearer-or-body", errorShape: "error_msg" } }, (req, reply) => {
    const answer = workers(ctx, req);
    return typeof answer === "string" ? reply.type("application/json").send(JSON.stringify(answer)) : answer;
  });
  app.get<{ Params: { id: string } }>("/api/v0/deployment/:id/versions", (req) => versions(req));
  app.get<{ Params: { user_id: string } }>("/api/v0/users/:user_id/templates/autoscaler", (req) => autoscaler(req));
}
