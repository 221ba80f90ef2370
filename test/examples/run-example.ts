/**
 * Runs an example program under `pulumi.runtime.setMocks` and records what it registers.
 * The mocks answer each resource with its inputs plus plausible outputs of its type (ids,
 * hashes), so dependent resources see values flow as they would under `pulumi up`.
 */
import * as pulumi from "@pulumi/pulumi";

type Props = Record<string, unknown>;

export interface Registration {
  /** Type without the package prefix, e.g. `Template`. */
  type: string;
  name: string;
  /** Inputs with secrets unwrapped (`__provider` left out). */
  inputs: Props;
  /** Top-level inputs that were registered as secrets. */
  secretInputs: string[];
  /** The outputs the mocks answered with (inputs plus the type's fake outputs). */
  outputs: Props;
}

export interface ExampleRun {
  registrations: Registration[];
  outputs: Props;
  /** The one registration of this type and name; fails the test when missing. */
  get(type: string, name: string): Registration;
  ofType(type: string): Registration[];
}

let counter = 0;

/** The nonce the mocks give the stack's identity (the package registers it; every identity derives from it). */
export const FAKE_NONCE = "fake-nonce";

/** Outputs the real providers would add, by type. */
function fakeOutputs(type: string, name: string, inputs: Props): Props {
  const n = ++counter;
  switch (type) {
    case "SshKey":
      return { keyId: 900 + n, fingerprint: `SHA256:fake${n}` };
    case "Template":
      return { templateId: 500 + n, hashId: `hash-of-${name}` };
    case "Instance":
      return { instanceId: 8_000_000 + n, actualStatus: "running", sshHost: "203.0.113.7", sshPort: 20_000 + n, publicIp: "203.0.113.7", pricePerHour: 0.25 };
    case "Fleet": {
      const count = Number(inputs.count ?? 0);
      const members = Array.from({ length: count }, (_, i) => ({ id: 8_100_000 + n * 100 + i, status: "running", sshHost: "203.0.113.8", sshPort: 21_000 + i, pricePerHour: 0.25 }));
      return { fleetKey: `fleet-${n}`, members, hourlyCost: 0.25 * count, healthy: count, badHosts: {} };
    }
    case "MaintenanceWindow":
      return { scheduledMachineIds: inputs.machineIds, failedMachineIds: [], notificationsSent: 3, endTime: "2030-07-01T06:00:00.000Z" };
    case "ApiKey":
      return { key: `fake-key-${n}`, keyId: 700 + n };
    case "Cluster":
      return { clusterId: 60 + n, machineIds: [inputs.managerMachineId], managerLocalIp: "10.10.0.1", adopted: false };
    case "ClusterMember":
      return { localIp: "10.10.0.2" };
    case "Overlay":
      return { overlayId: 80 + n, internalSubnet: "10.200.1.0/24", instanceIds: [], adopted: false };
    case "StackIdentity":
      return { nonce: FAKE_NONCE, tag: "fake-tag" };
    case "SubaccountKeyRotation":
      return { regeneratedKeys: [{ userId: inputs.subaccountUserId, email: "sub@example.com", derivedKey: "fake" }], rotatedAt: "2030-01-01T00:00:00.000Z" };
    default:
      return {};
  }
}

function isSecret(v: unknown): v is { value: unknown } {
  return !!v && typeof v === "object" && (v as Props)[pulumi.runtime.specialSigKey] === pulumi.runtime.specialSecretSig;
}

function unwrap(v: unknown): unknown {
  if (isSecret(v)) return unwrap(v.value);
  if (Array.isArray(v)) return v.map(unwrap);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrap(x)]));
  return v;
}

export async function runExample(options: { project: string; config: Record<string, string>; load: () => unknown }): Promise<ExampleRun> {
  const registrations: Registration[] = [];
  pulumi.runtime.setAllConfig(options.config);
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        const type = args.type.slice(args.type.lastIndexOf(":") + 1);
        const raw = { ...(args.inputs as Props) };
        delete raw.__provider;
        const inputs = unwrap(raw) as Props;
        const secretInputs = Object.keys(raw).filter((k) => JSON.stringify(raw[k] ?? null).includes(pulumi.runtime.specialSecretSig));
        const outputs = { ...inputs, ...fakeOutputs(type, args.name, inputs) };
        // The program's registrations: the stack identity is the package's own, one per stack.
        if (type !== "StackIdentity") registrations.push({ type, name: args.name, inputs, secretInputs, outputs });
        return { id: `${args.name}-id`, state: outputs };
      },
      call: (args) => {
        throw new Error(`unexpected provider function call ${args.token}`);
      },
    },
    options.project,
    "test",
    false,
  );
  const exported = (await options.load()) as Props;
  await pulumi.runtime.disconnect();
  const outputs: Props = {};
  for (const [k, v] of Object.entries(exported ?? {})) {
    const value: pulumi.Output<unknown> = pulumi.output(v as pulumi.Input<Props>);
    outputs[k] = await new Promise((resolve) => value.apply(resolve));
  }
  const ofType = (type: string) => registrations.filter((r) => r.type === type);
  const get = (type: string, name: string) => {
    const found = registrations.find((r) => r.type === type && r.name === name);
    if (!found) throw new Error(`no ${type} named ${name} was registered (got ${registrations.map((r) => `${r.type} ${r.name}`).join(", ")})`);
    return found;
  };
  return { registrations, outputs, get, ofType };
}
