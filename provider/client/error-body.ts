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

/** Hides what the request sent in an answer's text (echo-mask.ts); applied before the text is cut. */
type Mask = ((text: string) => string) | undefined;

function clip(text: string, mask?: Mask): string | undefined {
  const collapsed = text.replace(/\s+/g, " ").trim();
  const t = mask ? mask(collapsed) : collapsed;
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

function fromObject(o: Record<string, unknown>, mask?: Mask): ErrorBody {
  const code = typeof o.error === "string" ? o.error : undefined;
  const candidates = [o.msg, o.error_msg, detailText(o.detail), o.message];
  const text = candidates.find((c): c is string => typeof c === "string" && c.trim() !== "");
  const fromService = typeof o.error === "string" || typeof o.msg === "string";
  return { code: code && clip(code, mask), message: text === undefined ? undefined : clip(text, mask), fromService };
}

/** Parse an error response body of any known shape; unknown shapes give their text. `mask` hides what the request sent. */
export function parseErrorBody(text: string, mask?: Mask): ErrorBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { message: clip(text, mask), fromService: false };
  }
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
    return fromObject(parsed as Record<string, unknown>, mask);
  }
  if (typeof parsed === "string") return { message: clip(parsed, mask), fromService: false };
  return { message: clip(text, mask), fromService: false };
}

/**
 * The `{success: false, error?, msg?}` shape that some endpoints send with HTTP 200, and the
 * serverless `{error_msg}` shape should it come with a 2xx status.
 */
export function operationFailure(body: unknown, mask?: Mask): ErrorBody | undefined {
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
  const o = body as Record<string, unknown>;
  if (o.success === false) return fromObject(o, mask);
  if (typeof o.error_msg === "string" && o.success === undefined) return fromObject(o, mask);
  return undefined;
}
