/** Builds the fastify server: body parsing, error shapes, the request pipeline and all routes. */
import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import type { SimContext } from "./context";
import { ApiError } from "./http/errors";
import { registerGuard } from "./http/guard";
import { registerPipeline, type PipelineOptions } from "./http/pipeline";
import { pathOf } from "./http/request-log";
import { registerRoutes } from "./routes";

// The service answers malformed JSON like any bad input; an empty body counts as no body.
function registerParsers(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, text, done) => {
    const s = String(text);
    if (s.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(s));
    } catch {
      done(new ApiError(400, { success: false, error: "invalid_args", msg: "Request body is not valid JSON" }), undefined);
    }
  });
  app.addContentTypeParser("*", { parseAs: "string" }, (_req, text, done) => done(null, text));
}

function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | ApiError, request, reply) => {
    if (err instanceof ApiError) return reply.code(err.status).send(err.body);
    const status = (err as FastifyError).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return reply.code(status).send({ success: false, error: "invalid_args", msg: err.message });
    }
    // The path only: a query string may carry an api_key.
    process.stderr.write(`simulator: ${request.method} ${pathOf(request.url)} failed: ${err.message}\n`);
    return reply.code(500).send({ success: false, error: "internal_error", msg: "The simulator failed to handle this request" });
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ success: false, error: "not_found", msg: `No such endpoint: ${request.method} ${request.url}` });
  });
}

// The service labels JSON `application/json` with no charset, and the vendor's client compares
// the header with that text exactly (search offers prints "invalid return Content-Type" for
// anything else). JSON is UTF-8 by definition (RFC 8259), so nothing is lost.
function registerJsonType(app: FastifyInstance): void {
  app.addHook("onSend", async (_request, reply, payload) => {
    const type = reply.getHeader("content-type");
    if (typeof type === "string" && /^application\/json\s*;/i.test(type)) reply.header("content-type", "application/json");
    return payload;
  });
}

export interface ServerTimeouts {
  /** Ms to receive a whole request, headers and body. */
  requestTimeoutMs: number;
  /** Ms an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /** Ms of socket inactivity before the connection is closed; 0 = never. */
  idleTimeoutMs: number;
}

export function buildServer(ctx: SimContext, opts: PipelineOptions & ServerTimeouts): FastifyInstance {
  const app = Fastify({
    routerOptions: { ignoreTrailingSlash: true },
    // close() must not wait for clients that keep connections open.
    forceCloseConnections: true,
    logger: false,
    requestTimeout: opts.requestTimeoutMs,
    keepAliveTimeout: opts.keepAliveTimeoutMs,
    connectionTimeout: opts.idleTimeoutMs,
    http: {
      // Node refuses a headers timeout longer than the request timeout.
      headersTimeout: Math.min(opts.requestTimeoutMs, 60_000),
      // Node looks for overdue requests only this often (30 s by default), so a short
      // request timeout would otherwise be met up to 30 s late.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(opts.requestTimeoutMs / 4))),
    },
  });
  registerParsers(app);
  registerErrorHandlers(app);
  registerJsonType(app);
  registerGuard(app);
  registerPipeline(app, ctx, opts);
  registerRoutes(app, ctx);
  return app;
}
