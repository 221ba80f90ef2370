/** The Instance class under Pulumi mocks: type token, inputs as registered, typed and secret outputs. */
import * as pulumi from "@pulumi/pulumi";
import { Instance } from "pulumi-vastai";

const registered: pulumi.runtime.MockResourceArgs[] = [];

beforeAll(() =>
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push(args);
        return {
          id: "8000001",
          state: { ...args.inputs, instanceId: 8000001, offerId: args.inputs.offerId ?? 700001, actualStatus: "running", sshPort: 10001, instanceApiKey: "k-123" },
        };
      },
      call: (args) => args.inputs,
    },
    "proj",
    "dev",
  ),
);

const value = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

describe("Instance class", () => {
  it("registers the dynamic type token with the user's inputs, offerId included", async () => {
    const gpu = new Instance("direct", { offerId: 700008, image: "pytorch/pytorch", label: "l" });
    await value(gpu.urn);
    const args = registered.find((r) => r.name === "direct")!;
    expect(args.type).toBe("pulumi-nodejs:dynamic/vastai:Instance");
    expect(typeof args.inputs.__provider).toBe("string");
    expect(args.inputs).toMatchObject({ offerId: 700008, image: "pytorch/pytorch", label: "l" });
    expect(await value(gpu.offerId)).toBe(700008);
  });

  it("exposes the rented offer and the live outputs when filters are used", async () => {
    const gpu = new Instance("filtered", { offer: { gpuName: "RTX 4090" }, image: "x" });
    expect(await value(gpu.offerId)).toBe(700001);
    expect(await value(gpu.instanceId)).toBe(8000001);
    expect(await value(gpu.actualStatus)).toBe("running");
    expect(await value(gpu.sshPort)).toBe(10001);
    expect(await value(gpu.id)).toBe("8000001");
  });

  it("lists the instance's API key among the secret outputs, keeping the user's", async () => {
    let seen: pulumi.CustomResourceOptions | undefined;
    const capture: pulumi.ResourceTransformation = (args) => {
      seen = args.opts as pulumi.CustomResourceOptions;
      return undefined;
    };
    const gpu = new Instance("secret", { offerId: 700001, image: "x" }, { transformations: [capture], additionalSecretOutputs: ["label"] });
    await value(gpu.urn);
    expect(seen?.additionalSecretOutputs).toEqual(["label", "instanceApiKey", "imageLogin"]);
  });
});
