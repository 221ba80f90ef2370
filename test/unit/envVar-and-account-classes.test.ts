/**
 * The account resource classes under Pulumi's mocks: type tokens, the serialized provider,
 * which outputs are secret, and that declared outputs carry the provider's values.
 */
import * as pulumi from "@pulumi/pulumi";
import { ApiKey, EnvVar, RsyncCopy, SubaccountKeyRotation } from "pulumi-vastai";

type Registered = { type: string; name: string; inputs: Record<string, unknown> };
const registered: Registered[] = [];

beforeAll(() =>
  pulumi.runtime.setMocks({
    newResource: (args) => {
      registered.push({ type: args.type, name: args.name, inputs: args.inputs });
      const state = args.type.endsWith(":ApiKey") ? { ...args.inputs, key: "mock-key-value", keyId: 4242 } : args.inputs;
      return { id: `${args.name}-id`, state };
    },
    call: () => ({}),
  }),
);

/** Resource options and props as the class hands them to the engine. */
function captured() {
  const seen: { props?: Record<string, unknown>; opts?: pulumi.CustomResourceOptions } = {};
  const transformations: pulumi.ResourceTransformation[] = [
    (args) => {
      seen.props = args.props;
      seen.opts = args.opts as pulumi.CustomResourceOptions;
      return undefined;
    },
  ];
  return { seen, opts: { transformations, additionalSecretOutputs: ["ownSecret"] } };
}

function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((v) => resolve(v)));
}

it("EnvVar wraps its value as a secret and lists it among the secret outputs, keeping the user's", async () => {
  const { seen, opts } = captured();
  const envVar = new EnvVar("token", { key: "hf_token", value: "plain-value" }, opts);
  expect(seen.opts?.additionalSecretOutputs).toEqual(["ownSecret", "value"]);
  expect(await pulumi.isSecret(seen.props!.value as pulumi.Output<string>)).toBe(true);
  expect(await valueOf(envVar.key)).toBe("hf_token");
  const entry = registered.find((r) => r.name === "token")!;
  expect(entry.type).toBe("pulumi-nodejs:dynamic/vastai:EnvVar");
  expect(entry.inputs.__provider).toEqual(expect.stringContaining('require("pulumi-vastai/runtime")'));
});

it("ApiKey marks the key value secret, and its declared outputs carry the provider's values", async () => {
  const { seen, opts } = captured();
  const key = new ApiKey("ci", { name: "ci", permissions: { instances: "write" }, rotateOn: 1 }, opts);
  expect(seen.opts?.additionalSecretOutputs).toEqual(["ownSecret", "key"]);
  expect(await valueOf(key.keyId)).toBe(4242);
  expect(await valueOf(key.key)).toBe("mock-key-value");
  expect(registered.find((r) => r.name === "ci")?.type).toBe("pulumi-nodejs:dynamic/vastai:ApiKey");
});

it("SubaccountKeyRotation marks the whole regeneratedKeys output secret", async () => {
  const { seen, opts } = captured();
  const rotation = new SubaccountKeyRotation("rotate", { all: true, triggers: "2025-06" }, opts);
  expect(seen.opts?.additionalSecretOutputs).toEqual(["ownSecret", "regeneratedKeys"]);
  expect(await valueOf(rotation.all)).toBe(true);
  expect(registered.find((r) => r.name === "rotate")?.type).toBe("pulumi-nodejs:dynamic/vastai:SubaccountKeyRotation");
});

it("RsyncCopy registers under its own type with the user's options unchanged", async () => {
  const { seen, opts } = captured();
  const copy = new RsyncCopy("weights", { srcId: 1, dstId: 2, srcPath: "/a/", dstPath: "/b/" }, opts);
  expect(seen.opts?.additionalSecretOutputs).toEqual(["ownSecret"]);
  expect(await valueOf(copy.srcPath)).toBe("/a/");
  expect(registered.find((r) => r.name === "weights")?.type).toBe("pulumi-nodejs:dynamic/vastai:RsyncCopy");
});
