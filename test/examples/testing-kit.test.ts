/**
 * `pulumi-vastai/testing` with the package's own resources, through Pulumi's real plugin in a
 * project that has the packed package installed (as a user's project has it), against the
 * simulator: preview writes nothing, and secret outputs reach the program and the report as
 * secrets.
 */
import * as pulumi from "@pulumi/pulumi";
import { ApiKey, EnvVar, Instance, SshKey, Template } from "pulumi-vastai";
import { startTestStack, type TestStack } from "pulumi-vastai/testing";
import { scratchProject } from "../contract/harness";
import { FAST_PLUGIN_CONFIG } from "../support/plugin-timing";
import { simControl } from "../support/control";

interface Logged {
  method: string;
  path: string;
}

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ cwd: scratchProject().dir, project: "kit", stack: "dev", config: { "vastai:rateLimitScale": FAST_PLUGIN_CONFIG["vastai:rateLimitScale"] } });
}, 180_000);
afterAll(() => stack?.close());

/** What the program saw: whether each output was secret inside it. */
const seen: Record<string, boolean> = {};

function program() {
  const token = new EnvVar("hf-token", { key: "HF_TOKEN", value: "hf_kit_value" });
  const ci = new ApiKey("ci", { name: "kit-ci", permissions: { instances: "write" } });
  for (const [name, output] of Object.entries({ value: token.value, key: ci.key, envKey: token.key })) {
    void pulumi.isSecret(output).then((secret) => (seen[name] = secret));
  }
  return { tokenValue: token.value, ciKey: ci.key, tokenName: token.key };
}

test("preview runs check and diff only: the service gets no write", async () => {
  await simControl(stack.sim.url, "DELETE", "/requests");
  const planned = await stack.preview(program);
  expect(planned.outcomes.map((o) => `${o.type} ${o.name}: ${o.outcome}`).sort()).toEqual(["ApiKey ci: created", "EnvVar hf-token: created"]);
  const log = await simControl<Logged[]>(stack.sim.url, "GET", "/requests");
  expect(log.filter((r) => r.method !== "GET")).toEqual([]);
  expect(stack.sim.state().secrets).toEqual([]);
}, 60_000);

test("EnvVar value and ApiKey key are secret in the program, in the report and in the stack outputs", async () => {
  const up = await stack.up(program);
  expect(seen).toEqual({ value: true, key: true, envKey: false });
  const byName = Object.fromEntries(up.outcomes.map((o) => [o.name, o.secretOutputs]));
  expect(byName).toEqual({ "hf-token": ["value"], ci: ["key"] });
  expect(up.secretOutputs.sort()).toEqual(["ciKey", "tokenValue"]);
  expect(up.outputs).toMatchObject({ tokenName: "HF_TOKEN", tokenValue: "hf_kit_value", ciKey: expect.any(String) });

  // An unchanged resource keeps its outputs secret on the next run.
  const again = await stack.up(program);
  expect(again.outcomes.map((o) => o.outcome)).toEqual(["unchanged", "unchanged"]);
  expect(again.secretOutputs.sort()).toEqual(["ciKey", "tokenValue"]);

  await stack.destroy();
  expect(stack.sim.state().secrets).toEqual([]);
}, 60_000);

test("a second up of an unchanged program of every kind that lives on the service changes nothing", async () => {
  const edKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBDiByGF7pbRC6EslWLTI3W+yus8VMbdLZ5BgX54Hren kit@example";
  const everything = () => {
    const key = new SshKey("laptop", { publicKey: edKey });
    const template = new Template("base", { name: "kit-base", image: "pytorch/pytorch", tag: "2.4.0", env: { MODE: "train" }, ports: [8888] });
    new Instance("gpu", { offerId: 700001, templateHashId: template.hashId, label: "kit", sshKeyIds: [key.keyId] });
    new EnvVar("region", { key: "REGION", value: "eu-west" });
    new ApiKey("reader", { name: "kit-reader", permissions: { user: "read" } });
    return {};
  };
  const first = await stack.up(everything, { "vastai:pollIntervalMs": "5" });
  expect(first.outcomes.every((o) => o.outcome === "created")).toBe(true);
  const again = await stack.up(everything, { "vastai:pollIntervalMs": "5" });
  expect(again.outcomes.map((o) => `${o.type} ${o.name}: ${o.outcome}`).sort()).toEqual([
    "ApiKey reader: unchanged",
    "EnvVar region: unchanged",
    "Instance gpu: unchanged",
    "SshKey laptop: unchanged",
    "Template base: unchanged",
  ]);
  await stack.destroy();
}, 120_000);
