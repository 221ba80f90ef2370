/**
 * The classes under Pulumi's mocks: every importable resource passes `importId` as an input and
 * declares the `imported` output, which the state's value reaches.
 */
import * as pulumi from "@pulumi/pulumi";
import { ApiKey, Cluster, ClusterMember, Endpoint, EnvVar, MaintenanceWindow, NetworkVolume, Overlay, OverlayMember, ScheduledJob, SshKey, Subaccount, TeamMember, TeamRole, Template, Volume, Webhook, WorkerGroup } from "pulumi-vastai";

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
    // Issue 27: the account's roles, members, subaccounts, clusters, overlays and scheduled jobs.
    new TeamRole("r", { name: "dev", permissions: { instances: "read" }, importId: "31" }),
    new TeamMember("m", { email: "ana@example.com", role: "member", importId: "ana@example.com" }),
    new Subaccount("s", { email: "bot@example.com", username: "bot", password: "long-enough", importId: "30005" }),
    new Cluster("c", { subnet: "10.0.0.0/24", managerMachineId: 50006, importId: "1" }),
    new ClusterMember("cm", { clusterId: 1, machineId: 50008, importId: "1/50008" }),
    new Overlay("o", { clusterId: 1, name: "net", importId: "2" }),
    new OverlayMember("om", { overlayName: "net", instanceId: 8000001, importId: "2/8000001" }),
    new ScheduledJob("j", { instanceId: 8000001, action: "reboot", frequency: "DAILY", hour: 3, end: "2099-01-01T00:00:00Z", importId: "7" }),
  ];
  for (const r of made) expect(await valueOf(r.imported)).toBe(true);
  expect(await valueOf(made[0].id)).toBe("123");
  for (const name of ["t", "k", "w", "e", "a", "v", "n", "p", "g", "h", "r", "m", "s", "c", "cm", "o", "om", "j"]) expect(registered.get(name)).toHaveProperty("importId");
});
