/**
 * The Template class under Pulumi mocks: what it registers (type token, inputs, the password
 * as a secret, output names) and that env and ports as registered survive the trip through
 * the flag string the service stores.
 */
import * as pulumi from "@pulumi/pulumi";
import { Template } from "pulumi-vastai";
import type { Template as LiveTemplate } from "../../provider/client";
import { templateSchema, templateToWire } from "../../provider/client/schemas";
import { inputsFromLive, toClientTemplate } from "../../provider/resources/template/convert";
import { provider as templateImpl } from "../../provider/resources/template/provider";

const registered: pulumi.runtime.MockResourceArgs[] = [];

beforeAll(() =>
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push(args);
        return { id: "41", state: { ...args.inputs, templateId: 41, hashId: "hash-1" } };
      },
      call: (args) => args.inputs,
    },
    "proj",
    "dev",
  ),
);

const value = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));
/** Mocks hand inputs over with secrets as `{<sig>: ..., value}`. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const unwrap = (v: unknown) => (v && typeof v === "object" && SECRET_SIG in v ? (v as unknown as { value: unknown }).value : v);

describe("Template class", () => {
  const env = { GREETING: "hello 'world'", PATH_EXTRA: "/opt/bin:$PATH", EMPTY: "" };
  const ports = [22, "8080:8080", "5000:5001/udp"];
  let template: Template;

  beforeAll(async () => {
    template = new Template("trainer", { name: "trainer", image: "pytorch/pytorch", env, ports, dockerLoginUser: "me", dockerLoginPass: "registry-token-xyz" });
    await value(template.urn);
  });

  it("registers the dynamic type token and the serialized provider", () => {
    const args = registered.find((r) => r.name === "trainer")!;
    expect(args.type).toBe("pulumi-nodejs:dynamic/vastai:Template");
    expect(typeof args.inputs.__provider).toBe("string");
  });

  it("passes the registry password as a secret and exposes it as a secret output", async () => {
    const args = registered.find((r) => r.name === "trainer")!;
    expect(args.inputs.dockerLoginPass).toEqual({ [SECRET_SIG]: expect.any(String), value: "registry-token-xyz" });
    expect(await pulumi.isSecret(template.dockerLoginPass)).toBe(true);
  });

  it("declares outputs that keep the values the provider returns", async () => {
    expect(await value(template.templateId)).toBe(41);
    expect(await value(template.hashId)).toBe("hash-1");
    expect(await value(template.id)).toBe("41");
  });

  it("round-trips env and ports as registered through the service's flag string", async () => {
    const args = registered.find((r) => r.name === "trainer")!;
    const inputs = Object.fromEntries(Object.entries(args.inputs).map(([k, v]) => [k, unwrap(v)]));
    const checked = await templateImpl.check({}, inputs);
    expect(checked.failures).toEqual([]);
    const flags = templateToWire(toClientTemplate(checked.inputs)).env as string;
    expect(flags).toBe(`-e EMPTY= -e GREETING="hello 'world'" -e PATH_EXTRA='/opt/bin:$PATH' -p 22:22 -p 8080:8080 -p 5000:5001/udp`);
    const liveTemplate: LiveTemplate = templateSchema.parse({ id: 41, hash_id: "hash-1", name: "trainer", image: "pytorch/pytorch", env: flags });
    const back = inputsFromLive(liveTemplate, checked.inputs);
    expect(back.env).toEqual(env);
    expect(back.ports).toEqual(["22:22", "8080:8080", "5000:5001/udp"]);
  });
});
