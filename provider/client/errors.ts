/**
 * The client's error hierarchy. Every message names the call (method and path), the HTTP
 * status, the server's error code and message, and what to do. Messages never carry the
 * request body, the Authorization header or a key: every text goes through `scrub`.
 */
import { scrub } from "./redact";

/** Base class of every error the client throws. */
export class VastError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(scrub(message), options);
    this.name = new.target.name;
  }
}

/** Where a failed call went: the concrete path (no query string) and its route pattern. */
export interface CallSite {
  /** HTTP method, upper case. */
  method: string;
  /** Concrete request path without the query string, for example `/api/v0/instances/42/`. */
  path: string;
  /** Endpoint key: method and route pattern, for example `PUT /api/v0/asks/{id}/`. */
  endpoint: string;
}

/** What the client knows of a failed API call: the call site, the status and the service's message. */
export interface ApiErrorDetails extends CallSite {
  status: number;
  /** The server's machine-readable `error` code, when it sent one. */
  code?: string;
  /** The server's human-readable message (`msg`, `error_msg`, `detail` or plain text). */
  serverMessage?: string;
  /** How many attempts were made before giving up (1 when the error was not retried). */
  attempts?: number;
  /** The client's `rateLimitScale`, named in a 429's advice; default 1. */
  rateLimitScale?: number;
  /**
   * False when the body lacks the service's error shape (JSON with `error` or `msg`), as an
   * HTML page from a proxy or from a wrong API URL does: such an answer says nothing about
   * the object. Undefined when unknown (treated as from the service).
   */
  fromService?: boolean;
  /** Host (and port) the call went to; never credentials. */
  host?: string;
  /** How long the answer asked to wait before calling again (its Retry-After), ms. */
  retryAfterMs?: number;
}

/**
 * What the retry loop (retry.ts) reads from a failure: whether it may be tried again, decided
 * once where the error is made, and where to record the attempts when it gives up.
 */
export interface RetryableFailure {
  readonly retryable: boolean;
  /** The least wait before trying again that the answer asked for (Retry-After), ms. */
  readonly retryAfterMs?: number;
  /** Records the attempts made; the message then says so. Called once, by the retry loop. */
  gaveUpAfter(attempts: number): void;
}

/** Statuses retried for every call: the request was refused before being carried out, or at a gateway. */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);

function triesPart(attempts: number | undefined): string {
  return attempts && attempts > 1 ? ` (gave up after ${attempts} attempts)` : "";
}

/** Advice appended to an API error message, by status. */
function adviceFor(status: number, rateLimitScale: number): string {
  if (status === 400) return "Check the request values the message names.";
  if (status === 401)
    return "The API key was refused for this call: it may have been deleted or reset (old values stop working at once), or it may not act on this object.";
  if (status === 403) return "The API key lacks the permission for this call, or the account may not use it.";
  if (status === 404) return "The object does not exist or is not owned by this account.";
  if (status === 410) return "The object exists but cannot be used now; choose another.";
  if (status === 429)
    return `The service limits how often this endpoint may be called; slow the requests down: raise vastai:rateLimitScale (now ${rateLimitScale}) or lower vastai:maxConcurrentRequests, or try again later.`;
  if (status >= 500) return "The service failed; try again later.";
  return "See the server message.";
}

/** The advice for an answer that did not come from the service: check where the calls go. */
export function notTheServiceAdvice(host: string | undefined): string {
  const where = host ? ` ${host}` : "";
  return `The answer from${where} does not have the service's error shape, so it may come from a proxy or a wrong API URL rather than the service; check vastai:apiUrl and any proxy.`;
}

function apiMessage(d: ApiErrorDetails): string {
  const code = d.code ? ` ${d.code}` : "";
  const server = d.serverMessage ? `: ${d.serverMessage}` : "";
  const advice = d.fromService === false && d.status === 404 ? notTheServiceAdvice(d.host) : adviceFor(d.status, d.rateLimitScale ?? 1);
  return `${d.method} ${d.path} failed: HTTP ${d.status}${code}${server}${triesPart(d.attempts)}. ${advice}`;
}

/** The service answered with an HTTP error status. */
export class VastApiError extends VastError implements ApiErrorDetails, RetryableFailure {
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly endpoint: string;
  readonly code?: string;
  readonly serverMessage?: string;
  readonly retryable: boolean;
  private tries: number;
  readonly rateLimitScale?: number;
  readonly fromService: boolean;
  readonly host?: string;
  /** The answer's Retry-After, ms, when it had one. */
  readonly retryAfterMs?: number;

  constructor(details: ApiErrorDetails) {
    super(apiMessage(details));
    this.retryable = RETRY_STATUSES.has(details.status);
    this.retryAfterMs = details.retryAfterMs;
    this.rateLimitScale = details.rateLimitScale;
    this.fromService = details.fromService !== false;
    this.host = details.host;
    this.status = details.status;
    this.method = details.method;
    this.path = details.path;
    this.endpoint = details.endpoint;
    this.code = details.code === undefined ? undefined : scrub(details.code);
    this.serverMessage = details.serverMessage === undefined ? undefined : scrub(details.serverMessage);
    this.tries = details.attempts ?? 1;
  }

  /** How many attempts were made before giving up (1 when the error was not retried). */
  get attempts(): number {
    return this.tries;
  }

  gaveUpAfter(attempts: number): void {
    this.tries = attempts;
    this.message = scrub(apiMessage(this));
  }
}

/** HTTP 400: the request was refused as invalid. */
export class BadRequestError extends VastApiError {}
/** HTTP 401: the API key is missing, wrong, deleted or reset. */
export class AuthenticationError extends VastApiError {}
/** HTTP 403: the key or the account may not do this. */
export class PermissionDeniedError extends VastApiError {}
/**
 * HTTP 404: no such object (or not owned by the caller) when `fromService`; otherwise an
 * answer from something that is not the service, which proves nothing.
 */
export class NotFoundError extends VastApiError {}

/** True only for a 404 that carries the service's own error shape: the object is gone. */
export function isServiceNotFound(error: unknown): error is NotFoundError {
  return error instanceof NotFoundError && error.fromService;
}
/** HTTP 410: the object exists but cannot be used now (for example an offer that cannot start). */
export class GoneError extends VastApiError {}
/** HTTP 429: called too often (the service names no Retry-After; one that does is honoured). */
export class RateLimitError extends VastApiError {}
/** HTTP 5xx. */
export class ServerError extends VastApiError {}

/** Build the subclass that matches the status. */
export function apiErrorFor(details: ApiErrorDetails): VastApiError {
  const s = details.status;
  if (s === 400) return new BadRequestError(details);
  if (s === 401) return new AuthenticationError(details);
  if (s === 403) return new PermissionDeniedError(details);
  if (s === 404) return new NotFoundError(details);
  if (s === 410) return new GoneError(details);
  if (s === 429) return new RateLimitError(details);
  if (s >= 500) return new ServerError(details);
  return new VastApiError(details);
}

/** HTTP 200 with `{success: false, error, msg}`: the call was understood but refused. */
export class VastOperationError extends VastError implements CallSite {
  readonly method: string;
  readonly path: string;
  readonly endpoint: string;
  readonly code?: string;
  readonly serverMessage?: string;

  constructor(site: CallSite, code: string | undefined, serverMessage: string | undefined) {
    const codePart = code ? ` ${code}` : "";
    const msgPart = serverMessage ? `: ${serverMessage}` : "";
    super(`${site.method} ${site.path} failed: the service answered success=false${codePart}${msgPart}. Check the request values the message names.`);
    this.method = site.method;
    this.path = site.path;
    this.endpoint = site.endpoint;
    this.code = code === undefined ? undefined : scrub(code);
    this.serverMessage = serverMessage === undefined ? undefined : scrub(serverMessage);
  }
}

/**
 * HTTP 200 whose body is a bare error string instead of the documented object (the worker-group
 * logs endpoint answers an unknown group or a bad key this way). `serverMessage` is the text.
 */
export class VastErrorTextError extends VastError implements CallSite {
  readonly method: string;
  readonly path: string;
  readonly endpoint: string;
  readonly serverMessage: string;

  constructor(site: CallSite, serverMessage: string) {
    const text = scrub(serverMessage);
    super(`${site.method} ${site.path} failed: the service answered HTTP 200 with an error message instead of a result: ${text}`);
    this.method = site.method;
    this.path = site.path;
    this.endpoint = site.endpoint;
    this.serverMessage = text;
  }
}

/** The arguments given to a client method are not valid; nothing was sent. */
export class VastValidationError extends VastError {}

/** No HTTP response: the connection could not be made or broke. `cause` holds a scrubbed copy of the transport error. */
export class VastConnectionError extends VastError implements CallSite, RetryableFailure {
  readonly method: string;
  readonly path: string;
  readonly endpoint: string;
  /** Transport error code such as `ECONNREFUSED` or `ECONNRESET`. */
  readonly code?: string;
  /** False only when the request certainly never reached the server (connection refused, name not resolved). */
  readonly requestSent: boolean;
  /** False for the total deadline running out: another attempt could only time out too. */
  readonly retryable: boolean;
  /** What went wrong, without the call site (for example `no response within 500 ms`). */
  readonly detail: string;
  private tries: number;

  constructor(
    site: CallSite,
    detail: string,
    opts: { code?: string; requestSent: boolean; attempts?: number; retryable?: boolean; cause?: unknown },
  ) {
    super(connectionMessage(site, detail, opts.attempts), { cause: opts.cause });
    this.method = site.method;
    this.path = site.path;
    this.endpoint = site.endpoint;
    this.code = opts.code;
    this.requestSent = opts.requestSent;
    this.retryable = opts.retryable ?? true;
    this.tries = opts.attempts ?? 1;
    this.detail = scrub(detail);
  }

  /** How many attempts were made before giving up (1 when the error was not retried). */
  get attempts(): number {
    return this.tries;
  }

  gaveUpAfter(attempts: number): void {
    this.tries = attempts;
    this.message = scrub(connectionMessage(this, this.detail, attempts));
  }
}

function connectionMessage(site: CallSite, detail: string, attempts: number | undefined): string {
  return `${site.method} ${site.path} failed: ${detail}${triesPart(attempts)}. Check the API URL and the network, then try again.`;
}

/** No response within the per-request timeout, or the total deadline ran out. */
export class VastTimeoutError extends VastConnectionError {}

/** A 2xx response whose body does not have the shape the client reads. */
export class ResponseSchemaError extends VastError implements CallSite {
  readonly method: string;
  readonly path: string;
  readonly endpoint: string;
  /** Dotted path of the first field that failed, for example `instances.0.id` (empty for the whole body). */
  readonly fieldPath: string;

  constructor(site: CallSite, fieldPath: string, problem: string, notJson?: { host: string; status: number; contentType: string }) {
    const where = fieldPath ? `at \`${fieldPath}\`` : "at the top level";
    super(
      notJson
        ? `${site.method} ${site.path} at ${notJson.host} answered HTTP ${notJson.status} with ${notJson.contentType ? `a ${notJson.contentType.split(";")[0]} body` : "a body"} that is not JSON, ` +
            `so it is not the service's API: check vastai:apiUrl (the calls go to ${notJson.host}) and any proxy between here and the service.`
        : `${site.method} ${site.path} returned a response the client cannot read: ${where}: ${problem}. The API may have changed; report this with the path above.`,
    );
    this.method = site.method;
    this.path = site.path;
    this.endpoint = site.endpoint;
    this.fieldPath = fieldPath;
  }
}

/**
 * A 2xx answer to a call whose success the service documents with a shape (a delete's
 * `{success: true}`, an API key delete's string) that does not have that shape: `200 {}`, a
 * `204` with no body. It proves nothing: a proxy or another server may have answered.
 */
export class UndocumentedSuccessError extends VastError implements CallSite {
  readonly method: string;
  readonly path: string;
  readonly endpoint: string;
  /** `answered HTTP 200 with {} instead of ...`, for the messages that wrap this one. */
  readonly answered: string;
  readonly host?: string;

  constructor(site: CallSite & { host?: string; status: number }, documented: string, got: string) {
    const where = site.host ? ` at ${site.host}` : "";
    const answered = `answered HTTP ${site.status} with ${got} instead of the documented success (${documented})`;
    super(`${site.method} ${site.path}${where} ${answered}: the client cannot tell whether it was carried out.`);
    this.method = site.method;
    this.path = site.path;
    this.endpoint = site.endpoint;
    this.answered = answered;
    this.host = site.host;
  }
}

/**
 * A delete was answered by something that is not the service (a 404 without the service's
 * error shape, or a 2xx without the documented success shape) and reading the object back
 * could not show that it is gone: it may still exist.
 */
export class DeleteNotConfirmedError extends VastError implements CallSite {
  readonly method: string;
  readonly path: string;
  readonly endpoint: string;

  constructor(site: CallSite & { host?: string; answered?: string }, what: string, why: string, cause: unknown) {
    const where = site.host ? ` at ${site.host}` : "";
    const answered = site.answered ?? "answered HTTP 404 without the service's error shape";
    super(
      `${site.method} ${site.path}${where} ${answered}, and ${why}: ${what} may still exist. ` +
        "Check vastai:apiUrl and any proxy between here and the service, then try again.",
      { cause },
    );
    this.method = site.method;
    this.path = site.path;
    this.endpoint = site.endpoint;
  }
}

/**
 * A delete the service answered as done, while reading the object back still finds it (or cannot
 * tell): a wrong server's `{success: true}`, or a delete the service did not carry out. Used for
 * kinds whose documented success answer alone proves nothing (issue 33 item 3).
 */
export class DeleteNotSeenError extends VastError {
  constructor(what: string, why: string, cause?: unknown) {
    super(
      `${what}: the delete was answered as done, but ${why}: it may still exist. Check vastai:apiUrl and any proxy between here and the service, then try again.`,
      { cause },
    );
  }
}

/**
 * A call that may have created something (instance creation, key creation, ...) was sent, but
 * its response was lost (connection reset, timeout, 502/504). It is not resent, because a
 * second request could create a second object: look the object up (for example list the
 * instances and match the label) and decide.
 */
export class ResponseLostError extends VastError implements CallSite {
  /** Never resent: a second request could create a second object. */
  readonly retryable = false;
  readonly method: string;
  readonly path: string;
  readonly endpoint: string;

  constructor(site: CallSite, what: string, cause: unknown) {
    super(`${site.method} ${site.path} was sent but its response was lost (${what}); it may or may not have taken effect, so it was not resent. Look the object up before trying again.`, { cause });
    this.method = site.method;
    this.path = site.path;
    this.endpoint = site.endpoint;
  }
}

/** A response body larger than the client's cap (`ClientOptions.maxResponseMB`); it was not read. */
export class ResponseTooLargeError extends VastError implements CallSite {
  readonly method: string;
  readonly path: string;
  readonly endpoint: string;
  readonly capBytes: number;

  constructor(site: CallSite, capBytes: number) {
    const mb = Math.round((capBytes / (1024 * 1024)) * 100) / 100;
    super(
      `${site.method} ${site.path} (${site.endpoint}) answered with more than ${mb} MB, the client's cap (maxResponseMB); ` +
        `the answer was not read. Raise maxResponseMB if an answer this large is expected.`,
    );
    this.method = site.method;
    this.path = site.path;
    this.endpoint = site.endpoint;
    this.capBytes = capBytes;
  }
}

/** A paged list whose `next_token` came back a second time: paging on would never end. */
export class PagingLoopError extends VastError {
  readonly endpoint: string;

  constructor(endpoint: string, pages: number) {
    super(`${endpoint}: the service sent a next_token it had sent before (after ${pages} pages); paging stopped, as it would never end.`);
    this.endpoint = endpoint;
  }
}

/**
 * A create or update answered with its documented success (`{success: true}`, `{msg}`), which
 * any server can give, while reading the object back shows the effect absent: a wrong server
 * or a proxy answered, and nothing was made or changed.
 */
export class WriteNotSeenError extends VastError {
  constructor(what: string, write: "create" | "update" | "listing", call: { method: string; route: string }, why: string) {
    super(
      `${what}: the ${write} (${call.method} ${call.route}) was answered as done, but ${why}: it was not carried out. ` +
        "Check vastai:apiUrl and any proxy between here and the service, then try again.",
    );
  }
}
