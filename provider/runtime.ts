/**
 * What the serialized providers load at call time (`pulumi-vastai/runtime`). Keeping the
 * implementations here, rather than inside the serialized text, keeps `__provider` small
 * and lets every resource in a plugin process share one client and one request pacer.
 */
import type * as pulumi from "@pulumi/pulumi";
import { configureRuntime } from "./context";
import type { ProviderImpl } from "./resources/framework";
import type { ResourceKind } from "./resources/shim";

export type RuntimeProvider = ProviderImpl & {
  configure(req: pulumi.dynamic.ConfigureRequest): Promise<void>;
};

// Loaded on first use, so a plugin that serves one kind of resource loads only that module.
const loaders: Record<ResourceKind, () => ProviderImpl> = {
  template: () => require("./resources/template").templateImpl,
  instance: () => require("./resources/instance").instanceImpl,
  sshKey: () => require("./resources/sshKey").sshKeyImpl,
  maintenanceWindow: () => require("./resources/maintenanceWindow").maintenanceWindowImpl,
  envVar: () => require("./resources/envVar").envVarImpl,
  apiKey: () => require("./resources/apiKey").apiKeyImpl,
  subaccountKeyRotation: () => require("./resources/subaccountKeyRotation").subaccountKeyRotationImpl,
  rsyncCopy: () => require("./resources/rsyncCopy").rsyncCopyImpl,
};

const cache = new Map<ResourceKind, RuntimeProvider>();

export function implementation(kind: ResourceKind): RuntimeProvider {
  let provider = cache.get(kind);
  if (!provider) {
    const load = loaders[kind];
    if (!load) throw new Error(`pulumi-vastai: unknown resource kind "${kind}"; upgrade pulumi-vastai.`);
    const impl = load();
    provider = {
      configure: configureRuntime,
      check: (o, n) => impl.check(o, n),
      diff: (id, o, n) => impl.diff(id, o, n),
      create: (i) => impl.create(i),
      read: (id, p) => impl.read(id, p),
      update: (id, o, n) => impl.update(id, o, n),
      delete: (id, p) => impl.delete(id, p),
    };
    cache.set(kind, provider);
  }
  return provider;
}
