/** ApiKey check and diff: permissions mapped to the service's scopes, and that every input change makes a new key. */
import { PROVIDER_KEY } from "../../provider/resources/kit";
import { provider as apiKeyImpl } from "../../provider/resources/apiKey/provider";
import { liveInputs, permissionsOfScopes, scopesOf } from "../../provider/resources/apiKey/provider";
import type { ApiKeyScope } from "../../provider/client";

const P = { [PROVIDER_KEY]: "serialized-provider" };

describe("check", () => {
  it("accepts areas with read or write, and misc", async () => {
    const news = { ...P, name: "ci", permissions: { instances: "write", user: "read", misc: true } };
    expect(await apiKeyImpl.check({}, news)).toEqual({ inputs: news, failures: [] });
  });

  it("refuses a level that is not read or write, naming the area and the value", async () => {
    const { failures } = await apiKeyImpl.check({}, { name: "ci", permissions: { billing: "no" } });
    expect(failures).toEqual([{ property: "permissions.billing", reason: 'permissions.billing: must be "read" or "write" (got "no")' }]);
  });

  it("refuses the old flat flags and unknown areas instead of making a full-access key", async () => {
    const { failures } = await apiKeyImpl.check({}, { name: "ci", permissions: { manage_instances: true } });
    expect(failures?.map((f) => f.property)).toEqual(["permissions"]);
    expect(failures?.[0].reason).toMatch(/manage_instances/);
  });

  it("refuses permissions that grant nothing, and permissions that are not an object", async () => {
    expect((await apiKeyImpl.check({}, { name: "ci", permissions: {} })).failures).toEqual([
      { property: "permissions", reason: "permissions: must grant at least one scope; leave permissions out for a full-access key (got {})" },
    ]);
    const { failures } = await apiKeyImpl.check({}, { name: "ci", permissions: ["instances"] });
    expect(failures).toEqual([
      { property: "permissions", reason: 'permissions: must be an object of areas such as { instances: "write", user: "read" } (got ["instances"])' },
    ]);
  });

  it("requires a name", async () => {
    const { failures } = await apiKeyImpl.check({}, { name: "" });
    expect(failures).toEqual([{ property: "name", reason: 'name: must not be empty (got "")' }]);
  });

  it("accepts any rotateOn value", async () => {
    for (const rotateOn of [1, "2025-06", { quarter: 2 }, [1, 2], true]) {
      expect((await apiKeyImpl.check({}, { name: "ci", rotateOn })).failures).toEqual([]);
    }
  });
});

describe("diff", () => {
  const olds = { ...P, name: "ci", permissions: { instances: "write" }, rotateOn: 1, key: "k".repeat(64), keyId: 101 };
  const news = { ...P, name: "ci", permissions: { instances: "write" }, rotateOn: 1 };

  it("ignores the outputs and the provider code", async () => {
    expect(await apiKeyImpl.diff("101", olds, { ...news, [PROVIDER_KEY]: "newer-code" })).toMatchObject({ changes: false, replaces: [] });
  });

  it.each([
    ["rotateOn", { rotateOn: 2 }],
    ["name", { name: "ci-2" }],
    ["permissions", { permissions: { instances: "read" } }],
  ])("replaces the key when %s changes", async (property, change) => {
    expect(await apiKeyImpl.diff("101", olds, { ...news, ...change })).toMatchObject({ changes: true, replaces: [property] });
  });
});

it("an update (code-only change) keeps the key value and id", async () => {
  const olds = { ...P, name: "ci", key: "k".repeat(64), keyId: 101 };
  const { outs } = await apiKeyImpl.update("101", olds, { [PROVIDER_KEY]: "newer-code", name: "ci" });
  expect(outs).toEqual({ [PROVIDER_KEY]: "newer-code", name: "ci", key: "k".repeat(64), keyId: 101 });
});

describe("the service's scopes", () => {
  it("maps each area exactly: read to _read, write to _read and _write, misc to misc", () => {
    expect(scopesOf({ instances: "write", user: "read", billing: "read", machines: "write", misc: true })).toEqual([
      "billing_read", "instance_read", "instance_write", "machine_read", "machine_write", "misc", "user_read",
    ]);
    expect(scopesOf({ user: "read" })).toEqual(["user_read"]);
    expect(permissionsOfScopes(["instance_read", "instance_write", "user_read"])).toEqual({ instances: "write", user: "read" });
  });
});

describe("what a refresh takes as the inputs", () => {
  const live = (scopes: ApiKeyScope[] | null, name = "ci") => ({ id: 101, name, permissions: null, scopes, raw: {} });

  it("keeps the stated permissions when the service lists the same scopes", () => {
    const props = { name: "ci", permissions: { instances: "write" }, rotateOn: 1 };
    expect(liveInputs(props, live(["instance_read", "instance_write"]))).toEqual(props);
    expect(liveInputs({ name: "ci" }, live(null))).toEqual({ name: "ci" });
  });

  it("takes the service's scopes when they differ (drift), full access included", () => {
    const props = { name: "ci", permissions: { instances: "write" } };
    expect(liveInputs(props, live(["instance_read"]))).toEqual({ name: "ci", permissions: { instances: "read" } });
    expect(liveInputs(props, live(null))).toEqual({ name: "ci" });
    expect(liveInputs({ name: "ci" }, live(["user_read"]))).toEqual({ name: "ci", permissions: { user: "read" } });
  });

  it("takes a name changed outside Pulumi", () => {
    expect(liveInputs({ name: "ci" }, live(null, "ci-renamed"))).toEqual({ name: "ci-renamed" });
  });
});
