/**
 * The Volume and NetworkVolume classes under Pulumi's mocks: type tokens, the identity the
 * provider derives its marker from, declared outputs, and an Instance that takes a Volume's id.
 */
import * as pulumi from "@pulumi/pulumi";
import { Instance, NetworkVolume, Volume } from "pulumi-vastai";

type Registered = { type: string; name: string; inputs: Record<string, unknown> };
const registered: Registered[] = [];

beforeAll(() =>
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        const state = args.type.endsWith("StackIdentity")
          ? { nonce: "n0" }
          : args.type.endsWith("Volume") ? { ...args.inputs, volumeId: 20000001, machineId: 30001 } : args.inputs;
        return { id: args.type.endsWith("Volume") ? "20000001" : `${args.name}-id`, state };
      },
      call: () => ({}),
    },
    "proj",
    "dev",
  ),
);

function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((v) => resolve(v)));
}

it("Volume and NetworkVolume register under their own types with their identity", async () => {
  const vol = new Volume("data", { offer: { machineId: 30001, maxPricePerGbMonth: 0.15 }, sizeGb: 100 });
  const net = new NetworkVolume("shared", { offerId: 950001 });
  expect(await valueOf(vol.volumeId)).toBe(20000001);
  expect(await valueOf(vol.machineId)).toBe(30001);
  expect(await valueOf(net.id)).toBe("20000001");
  const v = registered.find((r) => r.name === "data");
  expect(v?.type).toBe("pulumi-nodejs:dynamic/vastai:Volume");
  expect(v?.inputs).toMatchObject({ __identity: "stack:n0/Volume/data", sizeGb: 100, offer: { machineId: 30001, maxPricePerGbMonth: 0.15 } });
  expect(registered.find((r) => r.name === "shared")?.type).toBe("pulumi-nodejs:dynamic/vastai:NetworkVolume");
  // One stack identity for the stack, whatever the number of resources.
  expect(registered.filter((r) => r.type === "pulumi-nodejs:dynamic/vastai:StackIdentity")).toHaveLength(1);
});

it("an Instance takes a Volume's id (string) or volumeId (number) as the linked volume", async () => {
  const vol = new Volume("linked", { offerId: 900001 });
  const byId = new Instance("by-id", { offerId: 700001, image: "ubuntu", volume: { createNew: false, volumeId: vol.id, mountPath: "/data" } });
  const byNumber = new Instance("by-number", { offerId: 700001, image: "ubuntu", volume: { createNew: false, volumeId: vol.volumeId, mountPath: "/data" } });
  await valueOf(byId.urn);
  await valueOf(byNumber.urn);
  expect(registered.find((r) => r.name === "by-id")?.inputs.volume).toEqual({ createNew: false, volumeId: "20000001", mountPath: "/data" });
  expect(registered.find((r) => r.name === "by-number")?.inputs.volume).toEqual({ createNew: false, volumeId: 20000001, mountPath: "/data" });
});
