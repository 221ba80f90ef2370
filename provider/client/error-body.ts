/**
 * Reading the error shapes of the API (spec: Errors; api-facts: Rate limits):
 * `{error, msg}`, `{error_msg}`, `{detail}` (a string, or a list of validation entries),
 * `{success: false, error, msg}` and plain text such as `API requests too frequent`.
 */

export interface ErrorBody {
  /** Machine-readable code (`error`), when present. */
  code?: string;
  /** Human-readable message. */
  message?: string;
  /**
   * True when the body has the service's own error shape (a JSON object with a string `error`
   * or `msg`). A 404 without it (an HTML page from a proxy, a wrong API URL) says nothing
   * about the object asked for.
   */
  fromService: boolean;
}

/** Long bodies (an HTML error page) are cut so a message stays readable. */
const MAX_MESSAGE = 300;

function clip(text: string): string | undefined {
  const t = text.replace(/\s+/g, " ").trim();
  if (!t) return undefined;
  return t.length > MAX_MESSAGE ? `${t.slice(0, MAX_MESSAGE)}...` : t;
}

function detailText(detail: unknown): string | undefined {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    const parts = detail.map((d) => (d && typeof d === "object" && "msg" in d ? String((d as { msg: unknown }).msg) : JSON.stringify(d)));
    return parts.join("; ");
  }
  return undefined;
}

function fromObject(o: Record<string, unknown>): ErrorBody {
  const code = typeof o.error === "string" ? o.error : undefined;
  const candidates = [o.msg, o.error_msg, detailText(o.detail), o.message];
  const text = candidates.find((c): c is string => typeof c === "string" && c.trim() !== "");
  const fromService = typeof o.error === "string" || typeof o.msg === "string";
  return { code: code && clip(code), message: text === undefined ? undefined : clip(text), fromService };
}

/** Parse an error response body of any known shape; unknown shapes give their text. */
export function parseErrorBody(text: string): ErrorBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { message: clip(text), fromService: false };
  }
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
    return fromObject(parsed as Record<string, unknown>);
  }
  if (typeof parsed === "string") return { message: clip(parsed), fromService: false };
  return { message: clip(text), fromService: false };
}

/**
 * The `{success: false, error?, msg?}` shape that some endpoints send with HTTP 200, and the
 * serverless `{error_msg}` shape should it come with a 2xx status.
 */
export function operationFailure(body: unknown): ErrorBody | undefined {
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
  const o = body as Record<string, unknown>;
  if (o.success === false) return fromObject(o);
  if (typeof o.error_msg === "string" && o.success === undefined) return fromObject(o);
  return undefined;
}
