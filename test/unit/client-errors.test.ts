import {
  AuthenticationError,
  BadRequestError,
  GoneError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  VastApiError,
  VastConnectionError,
  VastError,
  VastOperationError,
  apiErrorFor,
} from "../../provider/client/errors";
import { operationFailure, parseErrorBody } from "../../provider/client/error-body";
import { registerSecret, scrub } from "../../provider/client/redact";

const site = { method: "PUT", path: "/api/v0/subaccounts/regenerate_keys", endpoint: "PUT /api/v0/subaccounts/regenerate_keys" };

describe("error bodies", () => {
  it("reads every error shape of the API", () => {
    expect(parseErrorBody(JSON.stringify({ error: "invalid_args", msg: "Must specify subaccount_user_id or regenerate_all" }))).toEqual({
      code: "invalid_args",
      message: "Must specify subaccount_user_id or regenerate_all",
      fromService: true,
    });
    expect(parseErrorBody(JSON.stringify({ error_msg: "worker group not found" }))).toEqual({ code: undefined, message: "worker group not found", fromService: false });
    expect(parseErrorBody(JSON.stringify({ detail: "Not authenticated" }))).toEqual({ code: undefined, message: "Not authenticated", fromService: false });
    expect(parseErrorBody(JSON.stringify({ detail: [{ msg: "field required" }, { msg: "bad int" }] })).message).toBe("field required; bad int");
    expect(parseErrorBody("API requests too frequent: endpoint threshold=2")).toEqual({ message: "API requests too frequent: endpoint threshold=2", fromService: false });
    expect(parseErrorBody(JSON.stringify({ error: "rate_limit_exceeded" }))).toEqual({ code: "rate_limit_exceeded", message: undefined, fromService: true });
    expect(parseErrorBody("")).toEqual({ message: undefined, fromService: false });
    // A 404 is "gone" only with the service's shape: a proxy's HTML page or a framework's JSON is not it.
    expect(parseErrorBody("<html><body>404 Not Found</body></html>").fromService).toBe(false);
    expect(parseErrorBody(JSON.stringify({ detail: "Not Found" })).fromService).toBe(false);
    expect(parseErrorBody(JSON.stringify({ success: false, error: "no_such_instance", msg: "gone" })).fromService).toBe(true);
  });

  it("cuts long plain-text bodies", () => {
    expect(parseErrorBody(`<html>${"x".repeat(1000)}</html>`).message).toHaveLength(303);
  });

  it("treats success=false at HTTP 200 as a failure and everything else as not", () => {
    expect(operationFailure({ success: false, error: "invalid_args", msg: "Invalid src_path." })).toEqual({ code: "invalid_args", message: "Invalid src_path.", fromService: true });
    expect(operationFailure({ error_msg: "no such group" })).toEqual({ code: undefined, message: "no such group", fromService: false });
    expect(operationFailure({ success: true })).toBeUndefined();
    expect(operationFailure([{ success: false }])).toBeUndefined();
    expect(operationFailure({ logs: "x" })).toBeUndefined();
  });
});

describe("error classes", () => {
  it("maps statuses to subclasses", () => {
    const cls = (status: number) => apiErrorFor({ ...site, status }).constructor;
    expect([400, 401, 403, 404, 410, 429, 500, 503, 418].map(cls)).toEqual([
      BadRequestError,
      AuthenticationError,
      PermissionDeniedError,
      NotFoundError,
      GoneError,
      RateLimitError,
      ServerError,
      ServerError,
      VastApiError,
    ]);
    expect(apiErrorFor({ ...site, status: 404 })).toBeInstanceOf(VastError);
  });

  it("says method, path, status, code, message and what to do", () => {
    const e = apiErrorFor({ ...site, status: 403, code: "forbidden", serverMessage: "Only subaccount approved accounts may use this API" });
    expect(e.message).toBe(
      "PUT /api/v0/subaccounts/regenerate_keys failed: HTTP 403 forbidden: Only subaccount approved accounts may use this API. " +
        "The API key lacks the permission for this call, or the account may not use it.",
    );
    expect(e.name).toBe("PermissionDeniedError");
    expect(e).toMatchObject({ status: 403, code: "forbidden", method: "PUT", path: site.path });
  });

  it("counts attempts in the message when retried", () => {
    expect(apiErrorFor({ ...site, status: 503, attempts: 4 }).message).toContain("HTTP 503 (gave up after 4 attempts)");
  });

  it("words operation failures at HTTP 200", () => {
    const e = new VastOperationError(site, "invalid_args", "Invalid dst_path.");
    expect(e.message).toMatch(/^PUT \S+ failed: the service answered success=false invalid_args: Invalid dst_path\./);
  });
});

describe("scrubbing", () => {
  it("removes known secrets, bearer tokens and key-looking values from messages", () => {
    registerSecret("my-own-secret-key-1234");
    const hex = "ab".repeat(32);
    const text = `key my-own-secret-key-1234 Authorization: Bearer abc.def and ${hex} api_key=zzz "derived_key": "qqq"`;
    const out = scrub(text);
    expect(out).not.toContain("my-own-secret-key-1234");
    expect(out).not.toContain("abc.def");
    expect(out).not.toContain(hex);
    expect(out).not.toContain("zzz");
    expect(out).not.toContain("qqq");
  });

  it("ignores values too short to be keys", () => {
    registerSecret("abc");
    expect(scrub("abc def")).toBe("abc def");
  });

  it("scrubs every error message and server message", () => {
    registerSecret("another-secret-value-99");
    const e = apiErrorFor({ ...site, status: 401, serverMessage: "bad key another-secret-value-99" });
    expect(e.message).not.toContain("another-secret-value-99");
    expect(e.serverMessage).not.toContain("another-secret-value-99");
    const c = new VastConnectionError(site, "reset by another-secret-value-99", { requestSent: true });
    expect(c.message).not.toContain("another-secret-value-99");
    expect(c.detail).not.toContain("another-secret-value-99");
  });
});
