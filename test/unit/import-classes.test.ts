/**
 * The classes under Pulumi's mocks: every importable resource passes `importId` as an input and
 * declares the `imported` output, which the state's value reaches.
 */
import * as pulumi from "@pulumi/pulumi";
import { ApiKey, Endpoint, EnvVar, MaintenanceWindow, NetworkVolume, SshKey, Template, Volume, Webhook, WorkerGroup } from "pulumi-vastai";

const registered = new Map<string, Record<string, unknown>>();

beforeAll(() =>
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.set(args.name, args.inputs);
        return { id: String(args.inputs.importId ?? `${args.name}-id`), state: { ...args.inputs, imported: args.inputs.importId !== undefined } };
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

it("every importable class takes importId and shows imported", async () => {
  const made = [
    new Template("t", { name: "t", image: "vastai/base", importId: "123" }),
    new SshKey("k", { publicKey: "ssh-ed25519 AAAA x", importId: "7" }),
    new MaintenanceWindow("w", { machineIds: [1], startTime: 2_000_000_000, importId: "mw-2000000000-0123456789ab" }),
    new EnvVar("e", { key: "TOKEN", value: "v", importId: "TOKEN" }),
    new ApiKey("a", { name: "ci", importId: "9" }),
    new Volume("v", { offerId: 1, importId: "20000001" }),
    new NetworkVolume("n", { offerId: 1, importId: "20000002" }),
    new Endpoint("p", { name: "llm", importId: "4001" }),
    new WorkerGroup("g", { endpointId: 4001, searchParams: "gpu_ram>=23", importId: "5001" }),
    new Webhook("h", { url: "https://example.com/h", eventTypes: ["client:low_credit"], importId: "6001" }),
  ];
  for (const r of made) expect(await valueOf(r.imported)).toBe(true);
  expect(await valueOf(made[0].id)).toBe("123");
  for (const name of ["t", "k", "w", "e", "a", "v", "n", "p", "g", "h"]) expect(registered.get(name)).toHaveProperty("importId");
});
