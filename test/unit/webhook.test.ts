/** Webhook check and diff, and the name that carries the create's marker. */
import { PROVIDER_KEY, UNKNOWN } from "../../provider/resources/kit";
import { liveInputs, provider as webhookImpl, serviceName, userName } from "../../provider/resources/webhook/provider";
import type { Webhook as LiveWebhook } from "../../provider/client";

const P = { [PROVIDER_KEY]: "serialized-provider" };
const base = { url: "https://ops.example.com/vast", eventTypes: ["client:low_credit"] };

describe("check", () => {
  it("accepts http and https URLs, a name and any trigger", async () => {
    for (const url of ["https://ops.example.com/vast", "http://127.0.0.1:8080/hook?x=1", "https://[::1]:9/x"]) {
      expect((await webhookImpl.check({}, { ...P, ...base, url })).failures).toEqual([]);
    }
    for (const rotateSecretTrigger of [1, "2026-01", { q: 1 }]) {
      expect((await webhookImpl.check({}, { ...base, name: "ops", rotateSecretTrigger })).failures).toEqual([]);
    }
  });

  it.each([
    ["ftp://example.com/x", "must use http or https (got the scheme ftp)"],
    ["javascript:alert(1)", "must use http or https (got the scheme javascript)"],
    ["/relative/path", "must be an absolute http:// or https:// URL"],
    ["", "must be an http:// or https:// URL"],
    ["https://example.com/a b", "must not contain spaces"],
    [`https://example.com/${"x".repeat(2040)}`, "must be at most 2048 characters"],
  ])("refuses the url %j", async (url, rule) => {
    const { failures } = await webhookImpl.check({}, { ...base, url });
    expect(failures).toHaveLength(1);
    expect(failures?.[0].property).toBe("url");
    expect(failures?.[0].reason).toContain(`url: ${rule}`);
  });

  it("never echoes credentials written into the url's rule, only the value as given", async () => {
    const { failures } = await webhookImpl.check({}, { ...base, url: "https://bob:pw@example.com/" });
    expect(failures?.[0].reason).toMatch(/^url: must not carry a user name or password/);
  });

  it("requires url and eventTypes", async () => {
    const { failures } = await webhookImpl.check({}, { name: "x" });
    expect(failures?.map((f) => f.property).sort()).toEqual(["eventTypes", "url"]);
  });

  it("does not judge values unknown in preview", async () => {
    expect((await webhookImpl.check({}, { url: UNKNOWN, eventTypes: UNKNOWN })).failures).toEqual([]);
  });
});

describe("diff", () => {
  const olds = { ...P, ...base, name: "ops", rotateSecretTrigger: 1, secret: "whsec_x", webhookId: 7, adopted: false, nameMarker: "0123456789abcdef" };
  const news = { ...P, ...base, name: "ops", rotateSecretTrigger: 1 };

  it("ignores the outputs and the provider code", async () => {
    expect(await webhookImpl.diff("7", olds, { ...news, [PROVIDER_KEY]: "newer" })).toMatchObject({ changes: false, replaces: [] });
  });

  it.each([
    ["url", { url: "https://other.example.com/" }],
    ["eventTypes", { eventTypes: ["client:outbid"] }],
    ["name", { name: "ops-2" }],
    ["rotateSecretTrigger", { rotateSecretTrigger: 2 }],
  ])("changes %s in place", async (_p, change) => {
    expect(await webhookImpl.diff("7", olds, { ...news, ...change })).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("the name on the service", () => {
  it("carries the marker after the user's name, or alone", () => {
    expect(serviceName("ops", "0123456789abcdef")).toBe("ops [0123456789abcdef]");
    expect(serviceName(undefined, "0123456789abcdef")).toBe("[0123456789abcdef]");
    expect(serviceName("ops", undefined)).toBe("ops");
    expect(userName("ops [0123456789abcdef]", "0123456789abcdef")).toBe("ops");
    expect(userName("[0123456789abcdef]", "0123456789abcdef")).toBeUndefined();
    expect(userName("renamed", "0123456789abcdef")).toBe("renamed");
  });

  it("a refresh reads the user's name back without the marker, and event types as a set", () => {
    const live: LiveWebhook = { id: 7, name: "ops [0123456789abcdef]", url: base.url, eventTypes: ["b:y", "a:x"], createdAt: 1, updatedAt: 1, raw: {} };
    const props = { ...base, eventTypes: ["a:x", "b:y"], name: "ops", nameMarker: "0123456789abcdef" };
    expect(liveInputs(props, live)).toEqual({ url: base.url, eventTypes: ["a:x", "b:y"], name: "ops" });
  });
});
