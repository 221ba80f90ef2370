/**
 * What each resource class tells the engine about secrecy, read under Pulumi's mocks: the
 * outputs it lists in `additionalSecretOutputs` and the inputs it wraps as secrets (an input
 * keeps its secrecy on the output of the same name), plus the serialized `__provider` text
 * the engine stores with every resource.
 */
import * as pulumi from "@pulumi/pulumi";
import { ApiKey, Cluster, ClusterMember, Endpoint, EnvVar, Fleet, Instance, MachineListing, MaintenanceWindow, NetworkVolume, NetworkVolumeListing, Overlay, OverlayMember, RsyncCopy, ScheduledJob, SshKey, Subaccount, SubaccountKeyRotation, Team, TeamMember, TeamRole, Template, Volume, VolumeListing, Webhook, WorkerGroup } from "../../../provider";
import type { ResourceKind } from "../../../provider/runtime";
import { ed25519PublicKey } from "./drive";

export interface ClassSecrecy {
  /** Output names the engine stores as secrets. */
  secretOutputs: Set<string>;
  /** The `__provider` text the engine would store. */
  serializedProvider: string;
}

type Seen = { props?: Record<string, unknown>; opts?: pulumi.CustomResourceOptions; inputs?: Record<string, unknown> };

const value = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

/** Builds one resource of every class (with the given secret values as inputs) and reads what it registered. */
export async function classSecrecy(secrets: {
  registryPassword: string;
  envVarValue: string;
  templateEnvValue: string;
}): Promise<Record<ResourceKind, ClassSecrecy>> {
  const registered = new Map<string, Record<string, unknown>>();
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.set(args.name, args.inputs);
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "reliability",
    "dev",
  );
  const seen = new Map<ResourceKind, Seen>();
  const watch = (kind: ResourceKind): pulumi.CustomResourceOptions => {
    const entry: Seen = {};
    seen.set(kind, entry);
    return {
      transformations: [
        (args) => {
          entry.props = args.props;
          entry.opts = args.opts as pulumi.CustomResourceOptions;
          return undefined;
        },
      ],
    };
  };
  const resources: [ResourceKind, pulumi.CustomResource][] = [
    // A secret among the env values, as a program passes one from `config.requireSecret`.
    ["template", new Template("template", { name: "t", image: "i", env: { MODE: "m", HF_TOKEN: pulumi.secret(secrets.templateEnvValue) }, dockerLoginPass: secrets.registryPassword }, watch("template"))],
    ["instance", new Instance("instance", { offerId: 1, image: "i", env: { HF_TOKEN: pulumi.secret(secrets.templateEnvValue) }, imageLogin: `-u me -p ${secrets.registryPassword} ghcr.io` }, watch("instance"))],
    ["sshKey", new SshKey("sshKey", { publicKey: ed25519PublicKey("c") }, watch("sshKey"))],
    ["maintenanceWindow", new MaintenanceWindow("maintenanceWindow", { machineIds: [1], startTime: "2031-01-01T00:00:00Z" }, watch("maintenanceWindow"))],
    ["envVar", new EnvVar("envVar", { key: "K", value: secrets.envVarValue }, watch("envVar"))],
    ["apiKey", new ApiKey("apiKey", { name: "n" }, watch("apiKey"))],
    ["subaccountKeyRotation", new SubaccountKeyRotation("subaccountKeyRotation", { subaccountUserId: 1 }, watch("subaccountKeyRotation"))],
    ["rsyncCopy", new RsyncCopy("rsyncCopy", { srcId: 1, dstId: 2, srcPath: "/a", dstPath: "/b" }, watch("rsyncCopy"))],
    ["volume", new Volume("volume", { offerId: 1, name: "v" }, watch("volume"))],
    ["networkVolume", new NetworkVolume("networkVolume", { offerId: 1, name: "v" }, watch("networkVolume"))],
    ["endpoint", new Endpoint("endpoint", { name: "e" }, watch("endpoint"))],
    ["workerGroup", new WorkerGroup("workerGroup", { endpointId: 1, searchParams: "gpu_ram>=23" }, watch("workerGroup"))],
    ["fleet", new Fleet("fleet", { count: 1, offer: { gpuName: "RTX 4090" }, image: "i", env: { HF_TOKEN: pulumi.secret(secrets.templateEnvValue) } }, watch("fleet"))],
    ["webhook", new Webhook("webhook", { url: "https://ops.example.com/vast", eventTypes: ["client:low_credit"] }, watch("webhook"))],
    ["team", new Team("team", { name: "t" }, watch("team"))],
    ["teamRole", new TeamRole("teamRole", { name: "dev", permissions: { instances: "read" } }, watch("teamRole"))],
    ["teamMember", new TeamMember("teamMember", { email: "ana@example.com", role: "member" }, watch("teamMember"))],
    // The password is given plainly: the class must mark it secret by itself.
    ["subaccount", new Subaccount("subaccount", { email: "bot@example.com", username: "bot", password: "plain-password" }, watch("subaccount"))],
    ["cluster", new Cluster("cluster", { subnet: "10.0.0.0/24", managerMachineId: 1 }, watch("cluster"))],
    ["clusterMember", new ClusterMember("clusterMember", { clusterId: 1, machineId: 2 }, watch("clusterMember"))],
    ["overlay", new Overlay("overlay", { clusterId: 1, name: "net" }, watch("overlay"))],
    ["overlayMember", new OverlayMember("overlayMember", { overlayName: "net", instanceId: 1 }, watch("overlayMember"))],
    ["machineListing", new MachineListing("machineListing", { machineId: 1, pricePerGpu: 0.5 }, watch("machineListing"))],
    ["volumeListing", new VolumeListing("volumeListing", { machineId: 1, sizeGb: 100, pricePerGbMonth: 0.1 }, watch("volumeListing"))],
    ["networkVolumeListing", new NetworkVolumeListing("networkVolumeListing", { diskId: 1, sizeGb: 100, pricePerGbMonth: 0.1 }, watch("networkVolumeListing"))],
    ["scheduledJob", new ScheduledJob("scheduledJob", { instanceId: 1, action: "reboot", frequency: "DAILY", hour: 3, end: "2099-01-01T00:00:00Z" }, watch("scheduledJob"))],
  ];
  const out = {} as Record<ResourceKind, ClassSecrecy>;
  for (const [kind, resource] of resources) {
    await value(resource.urn);
    const s = seen.get(kind)!;
    const secretOutputs = new Set<string>(s.opts?.additionalSecretOutputs ?? []);
    for (const [name, v] of Object.entries(s.props ?? {})) {
      if (pulumi.Output.isInstance(v) && (await pulumi.isSecret(v))) secretOutputs.add(name);
    }
    out[kind] = { secretOutputs, serializedProvider: String(registered.get(kind)?.__provider ?? "") };
  }
  return out;
}
