import * as pulumi from "@pulumi/pulumi";
import { serializableProvider } from "../../provider/resources/kit/shim";

test("the serialized provider captures no implementation, only a loader", async () => {
  const provider = serializableProvider("template");
  const { text } = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
  expect(text).toContain('require("pulumi-vastai/runtime")');
  expect(text).not.toContain("zod");
  expect(text.length).toBeLessThan(4000);
});
