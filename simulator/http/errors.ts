/**
 * Errors a route throws to answer with a given status and body. Most endpoints use
 * `{success: false, error, msg}`; the worker-group logs use `{error_msg}` and the earnings
 * chart has a `{detail}` form too (spec: Errors).
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.msg ?? body.error_msg ?? body.detail ?? `HTTP ${status}`));
    this.name = "ApiError";
  }
}

export function apiError(status: number, error: string, msg: string, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError(status, { success: false, error, msg, ...extra });
}

export function invalidArgs(msg: string): ApiError {
  return apiError(400, "invalid_args", msg);
}

export function notFound(error: string, msg: string): ApiError {
  return apiError(404, error, msg);
}

/** Shows a received value in a message without letting a huge body flood it. */
export function show(value: unknown): string {
  const text = value === undefined ? "nothing" : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
