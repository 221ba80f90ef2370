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
import { SERIALIZED_PROVIDER_LIMIT, scratchProject } from "./harness";

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
