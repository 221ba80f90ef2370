/** EnvVar check and diff: the name rule, upper-casing, secrecy of the value, what replaces. */
import { PROVIDER_KEY, UNKNOWN } from "../../provider/resources/kit";
import { provider as envVarImpl } from "../../provider/resources/envVar/provider";

const P = { [PROVIDER_KEY]: "serialized-provider" };

describe("check", () => {
  it("returns the key in upper case, as the service stores it, and keeps __provider", async () => {
    const result = await envVarImpl.check({}, { ...P, key: "hf_Token", value: "s3cret-value" });
    expect(result).toEqual({ inputs: { ...P, key: "HF_TOKEN", value: "s3cret-value" }, failures: [] });
  });

  it("refuses a key that is not a variable name, naming the property, the rule and the value", async () => {
    const { failures } = await envVarImpl.check({}, { key: "1-bad", value: "x" });
    expect(failures).toEqual([
      { property: "key", reason: 'key: must be a variable name of letters, digits and _, not starting with a digit (got "1-bad")' },
    ]);
  });

  it("never shows the value in a failure", async () => {
    const { failures } = await envVarImpl.check({}, { key: "TOKEN", value: 123456789 });
    expect(failures).toEqual([{ property: "value", reason: "value: must be a string" }]);
  });

  it("requires both key and value", async () => {
    const { failures } = await envVarImpl.check({}, {});
    expect(failures?.map((f) => f.property).sort()).toEqual(["key", "value"]);
  });

  it("does not judge values unknown during preview", async () => {
    const result = await envVarImpl.check({}, { key: UNKNOWN, value: UNKNOWN });
    expect(result).toEqual({ inputs: { key: UNKNOWN, value: UNKNOWN }, failures: [] });
  });
});

describe("diff", () => {
  const olds = { ...P, key: "TOKEN", value: "a" };

  it("changes the value in place", async () => {
    expect(await envVarImpl.diff("TOKEN", olds, { ...P, key: "TOKEN", value: "b" })).toMatchObject({ changes: true, replaces: [] });
  });

  it("replaces the variable when the key changes", async () => {
    expect(await envVarImpl.diff("TOKEN", olds, { ...P, key: "OTHER", value: "a" })).toMatchObject({ changes: true, replaces: ["key"] });
  });

  it("sees no change when only the case of the key differs", async () => {
    expect(await envVarImpl.diff("TOKEN", olds, { ...P, key: "token", value: "a" })).toMatchObject({ changes: false });
  });

  it("sees no change when only the provider code changed", async () => {
    expect(await envVarImpl.diff("TOKEN", olds, { [PROVIDER_KEY]: "newer-code", key: "TOKEN", value: "a" })).toMatchObject({ changes: false });
  });
});

describe("EnvVar values as the service takes them", () => {
  it("refuses at check a value the service would refuse, naming the rule and never the value", async () => {
    const { failures } = await envVarImpl.check({}, { key: "HF_TOKEN", value: "hf secret/with+chars" });
    expect(failures).toEqual([
      { property: "value", reason: 'value: may hold only letters, digits, "_", "-" and "." (3 other characters; encode the value, for example as base64url, if it needs them)' },
    ]);
    expect(JSON.stringify(failures)).not.toMatch(/secret|with|chars/);
    expect((await envVarImpl.check({}, { key: "HF_TOKEN", value: "hf_abc-123.X" })).failures).toEqual([]);
  });
});
