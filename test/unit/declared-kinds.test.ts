/**
 * Issue 35 item 6: a resource declared once (kit/declare.ts). For every kind with a declare.ts,
 * the class registers what the declaration names and the provider's check and diff follow the
 * same declaration: its outputs are never refused as unknown inputs nor compared, each of its
 * replaceOn inputs replaces and any other input changes in place, its secrets are secret.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as vastai from "pulumi-vastai";
import { KINDS } from "../../provider/runtime";
import type { Declaration } from "../../provider/resources/kit/declaration";
import type { ProviderImpl } from "../../provider/resources/kit/provider-impl";

const DIR = path.join(__dirname, "../../provider/resources");
const declared: Declaration[] = fs
  .readdirSync(DIR)
  .filter((kind) => kind !== "kit" && fs.existsSync(path.join(DIR, kind, "declare.ts")))
  .map((kind) => Object.values(require(path.join(DIR, kind, "declare")) as Record<string, Declaration>)[0]);

beforeAll(() =>
  pulumi.runtime.setMocks({
    newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
    call: () => ({}),
  }),
);

/** The props and options the class hands the engine. */
function registered(declaration: Declaration, args: Record<string, unknown>) {
  const seen: { props?: Record<string, unknown>; opts?: pulumi.CustomResourceOptions } = {};
  const transformations: pulumi.ResourceTransformation[] = [
    (a) => {
      seen.props = a.props;
      seen.opts = a.opts as pulumi.CustomResourceOptions;
      return undefined;
    },
  ];
  const Class = (vastai as unknown as Record<string, new (n: string, a: object, o: object) => pulumi.CustomResource>)[declaration.type];
  const resource = new Class(`declared-${declaration.kind}`, args, { transformations });
  return { seen, registeredAt: new Promise<string>((resolve) => resource.urn.apply(resolve)) };
}

test("every plain account-style kind is declared", () => {
  expect(declared.map((d) => d.type).sort()).toEqual(
    expect.arrayContaining(["ApiKey", "Cluster", "ClusterMember", "EnvVar", "Overlay", "OverlayMember", "SshKey", "Subaccount", "Team", "TeamMember", "TeamRole", "Webhook"]),
  );
});

describe.each(declared.map((d) => [d.type, d] as const))("%s, declared once", (_type, declaration) => {
  const provider = (): ProviderImpl => (KINDS as Record<string, () => ProviderImpl>)[declaration.kind]();
  const outputs = [...declaration.computed, ...(declaration.internal ?? [])];

  test("the class registers every computed output, `imported` when it takes importId, the optional inputs, and marks the secrets", async () => {
    const secretInput = Object.fromEntries((declaration.secretInputs ?? []).map((k) => [k, "plain-value"]));
    const { seen, registeredAt } = registered(declaration, { ...secretInput });
    await registeredAt;
    const keys = Object.keys(seen.props ?? {});
    const expected = [...declaration.computed, ...(declaration.optionalInputs ?? []), ...(declaration.importable === false ? [] : ["imported"])];
    expect(keys).toEqual(expect.arrayContaining(expected));
    if (declaration.importable === false) expect(keys).not.toContain("imported");
    expect(seen.opts?.additionalSecretOutputs ?? []).toEqual([...(declaration.secretInputs ?? []), ...(declaration.secretOutputs ?? [])]);
    for (const k of declaration.secretInputs ?? []) expect({ k, secret: await pulumi.isSecret(seen.props![k] as pulumi.Output<unknown>) }).toEqual({ k, secret: true });
  });

  test("the check never refuses an output as an unknown input", async () => {
    const props = Object.fromEntries(outputs.map((k) => [k, 1]));
    const failures = (await provider().check({}, props)).failures ?? [];
    const refused = failures.filter((f) => outputs.includes(f.property) && /is not a/.test(f.reason));
    expect(refused).toEqual([]);
  });

  test("the diff ignores outputs, replaces on replaceOn inputs only, and says whether the old object goes first", async () => {
    const olds = Object.fromEntries(outputs.map((k) => [k, "before"]));
    const news = Object.fromEntries(outputs.map((k) => [k, "after"]));
    expect((await provider().diff("1", olds, news)).changes).toBe(false);
    for (const input of declaration.replaceOn ?? []) {
      const d = await provider().diff("1", { [input]: "a" }, { [input]: "b" });
      expect({ input, replaces: d.replaces, first: d.deleteBeforeReplace }).toEqual({ input, replaces: [input], first: declaration.deleteBeforeReplace });
    }
  });
});
