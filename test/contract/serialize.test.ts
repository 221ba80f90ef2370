/**
 * The serialized provider (`__provider`, in every state entry twice) as a checkout writes it:
 * the package is not under node_modules, so the loader is written by value. It captures no
 * implementation and no path of this machine, so state made from two checkouts is the same
 * (issue 35 items 5 and 7). The installed form, one `require`, is checked on the packed package
 * (harness.ts testSmallLoader, and every kind below).
 */
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { serializableProvider } from "../../provider/resources/kit/loader";
import { KINDS, type ResourceKind } from "../../provider/runtime";
import { dynamicUrn } from "pulumi-vastai/testing";
import { SERIALIZED_PROVIDER_LIMIT, scratchProject, useContract } from "./harness";

test("from a checkout, the serialized provider is a loader by package name with no machine path", async () => {
  const provider = serializableProvider("template");
  const { text } = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
  expect(text).toContain('require("pulumi-vastai/runtime")');
  expect(text).not.toContain("zod");
  for (const local of [path.resolve(__dirname, "..", ".."), os.homedir(), os.tmpdir()]) expect(text).not.toContain(local);
  expect(text.length).toBeLessThan(4000);
});

test("installed, every kind's serialized provider is one require of its shim, at most 800 bytes", () => {
  const { serialized, sizes } = scratchProject();
  for (const kind of Object.keys(KINDS) as ResourceKind[]) {
    expect({ kind, text: serialized[kind] }).toEqual({ kind, text: expect.stringContaining(`require("pulumi-vastai/shims/${kind}")`) });
    expect({ kind, size: sizes[kind] }).toEqual({ kind, size: expect.any(Number) });
    expect(sizes[kind]).toBeLessThanOrEqual(SERIALIZED_PROVIDER_LIMIT);
  }
  console.log(`serialized providers: ${Math.min(...Object.values(sizes))}-${Math.max(...Object.values(sizes))} bytes`);
});

describe("a state entry made through the plugin", () => {
  // An Instance: the entry with the most outputs (its provider loaded from the scratch project's node_modules).
  const fx = useContract("instance", { simulator: { bootMs: 0 }, config: { "vastai:pollIntervalMs": "5" } });

  test("holds no path of the machine that made it (inputs or outputs), so another checkout or machine sees no diff", async () => {
    const urn = dynamicUrn("dev", "proj", "Instance", "gpu");
    const { inputs } = await fx.plugin.check(urn, {}, { __provider: fx.provider, offerId: 700002, image: "pytorch/pytorch" });
    const created = await fx.plugin.create(urn, inputs);
    const entry = JSON.stringify({ inputs, outputs: created.properties });
    for (const local of [scratchProject().dir, path.resolve(__dirname, "..", ".."), os.homedir(), os.tmpdir(), "node_modules"]) {
      expect({ local, found: entry.includes(local) }).toEqual({ local, found: false });
    }
    await fx.plugin.delete(urn, created.id, created.properties);
  });
});
