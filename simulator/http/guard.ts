/**
 * What keeps web pages out of a simulator on the user's own machine. Listening on loopback
 * is not enough: a page whose DNS name is rebound to 127.0.0.1 can read every answer (the
 * request log holds the keys and passwords clients sent, and the API answers with a key the
 * page learned), and any page can send a "simple" cross-site POST that wipes the state.
 * So every request must name a loopback Host, and control calls that change something must
 * be JSON, which a browser sends cross-site only after a CORS preflight the simulator never
 * grants.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ApiError } from "./errors";

/**
 * Whether a request is a control call (`/_sim...`), judged as the router does: by the route it
 * matched, and by its path decoded (`/%5Fsim/reset` is routed to `/_sim/reset`), never by the
 * raw text, which a page can spell otherwise to slip past the rules below.
 */
export function isControlRequest(request: FastifyRequest): boolean {
  const route = request.routeOptions?.url;
  if (typeof route === "string" && route.startsWith("/_sim")) return true;
  const raw = request.url.split("?")[0];
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    decoded = raw;
  }
  return /^\/+_sim(\/|$)/i.test(decoded) || /^\/+_sim(\/|$)/i.test(raw);
}

/** `localhost`, 127.0.0.0/8 or [::1], with or without a port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(host.trim().toLowerCase());
  if (!m) return false;
  const name = m[1];
  if (name === "localhost" || name === "[::1]") return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  return octets !== null && octets.slice(1).every((o) => Number(o) <= 255);
}

/** Methods a cross-site page can send without a preflight, and DELETE is not one of them. */
const CONTROL_WRITES = new Set(["POST", "PUT", "PATCH"]);

export function registerGuard(app: FastifyInstance): void {
  app.addHook("onRequest", async (request) => {
    const host = request.headers.host;
    if (!isLoopbackHost(host)) {
      throw new ApiError(403, {
        success: false,
        error: "forbidden_host",
        msg:
          `Host ${JSON.stringify(host ?? "")} is refused: the simulator answers only requests whose Host header is a ` +
          "loopback name (localhost, 127.0.0.0/8 or [::1], any port), which keeps pages on rebound DNS names out",
      });
    }
    if (isControlRequest(request) && CONTROL_WRITES.has(request.method)) {
      const type = request.headers["content-type"];
      const essence = (type ?? "").split(";")[0].trim().toLowerCase();
      if (essence !== "application/json") {
        throw new ApiError(415, {
          success: false,
          error: "unsupported_media_type",
          msg:
            `Content-Type ${JSON.stringify(type ?? "")} is refused: control calls that change state need ` +
            "Content-Type: application/json (an empty body is fine), so that a web page cannot send them",
        });
      }
    }
  });
}
