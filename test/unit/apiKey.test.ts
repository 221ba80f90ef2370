/** ApiKey check and diff: permission flags, and that every input change makes a new key. */
import { PROVIDER_KEY } from "../../provider/resources/kit";
import { provider as apiKeyImpl } from "../../provider/resources/apiKey/provider";
import { liveInputs } from "../../provider/resources/apiKey/provider";

const P = { [PROVIDER_KEY]: "serialized-provider" };

describe("check", () => {
  it("accepts the known flags as booleans and passes other flags through", async () => {
    const news = { ...P, name: "ci", permissions: { manage_instances: true, user_read: false, team_admin: "maybe" } };
    expect(await apiKeyImpl.check({}, news)).toEqual({ inputs: news, failures: [] });
  });

  it("refuses a known flag that is not a boolean, naming the flag and the value", async () => {
    const { failures } = await apiKeyImpl.check({}, { name: "ci", permissions: { manage_billing: "no" } });
    expect(failures).toEqual([{ property: "permissions.manage_billing", reason: 'permissions.manage_billing: must be true or false (got "no")' }]);
  });

  it("refuses permissions that are not an object", async () => {
    const { failures } = await apiKeyImpl.check({}, { name: "ci", permissions: ["manage_instances"] });
    expect(failures).toEqual([
      { property: "permissions", reason: 'permissions: must be an object of permission flags (got ["manage_instances"])' },
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
  const olds = { ...P, name: "ci", permissions: { manage_instances: true }, rotateOn: 1, key: "k".repeat(64), keyId: 101 };
  const news = { ...P, name: "ci", permissions: { manage_instances: true }, rotateOn: 1 };

  it("ignores the outputs and the provider code", async () => {
    expect(await apiKeyImpl.diff("101", olds, { ...news, [PROVIDER_KEY]: "newer-code" })).toMatchObject({ changes: false, replaces: [] });
  });

  it.each([
    ["rotateOn", { rotateOn: 2 }],
    ["name", { name: "ci-2" }],
    ["permissions", { permissions: { manage_instances: false } }],
  ])("replaces the key when %s changes", async (property, change) => {
    expect(await apiKeyImpl.diff("101", olds, { ...news, ...change })).toMatchObject({ changes: true, replaces: [property] });
  });
});

it("an update (code-only change) keeps the key value and id", async () => {
  const olds = { ...P, name: "ci", key: "k".repeat(64), keyId: 101 };
  const { outs } = await apiKeyImpl.update("101", olds, { [PROVIDER_KEY]: "newer-code", name: "ci" });
  expect(outs).toEqual({ [PROVIDER_KEY]: "newer-code", name: "ci", key: "k".repeat(64), keyId: 101 });
});

describe("what a refresh takes as the inputs", () => {
  const live = (permissions: Record<string, unknown> | null, name = "ci") => ({ id: 101, name, permissions, raw: {} });

  it("keeps the stated permissions when the service lists more flags, or none", () => {
    const props = { name: "ci", permissions: { manage_instances: true }, rotateOn: 1 };
    expect(liveInputs(props, live({ manage_instances: true, manage_billing: false }))).toEqual(props);
    expect(liveInputs(props, live(null))).toEqual(props);
    expect(liveInputs({ name: "ci" }, live({ manage_instances: true }))).toEqual({ name: "ci" });
  });

  it("takes the service's permissions when a stated flag differs (drift)", () => {
    const props = { name: "ci", permissions: { manage_instances: true } };
    expect(liveInputs(props, live({ manage_instances: false }))).toEqual({ name: "ci", permissions: { manage_instances: false } });
  });

  it("takes a name changed outside Pulumi", () => {
    expect(liveInputs({ name: "ci" }, live(null, "ci-renamed"))).toEqual({ name: "ci-renamed" });
  });
});
