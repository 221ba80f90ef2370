import type * as pulumi from "@pulumi/pulumi";
import { serializableProvider } from "./resources/shim";

/**
 * The provider objects behind each resource class. Drive them directly to test a stack's
 * behaviour without the engine (`await providers.template.create({...})`), or pass them
 * to `pulumi.dynamic.Resource` yourself.
 */
export const providers = {
  template: serializableProvider("template"),
  instance: serializableProvider("instance"),
  sshKey: serializableProvider("sshKey"),
  maintenanceWindow: serializableProvider("maintenanceWindow"),
  envVar: serializableProvider("envVar"),
  apiKey: serializableProvider("apiKey"),
  subaccountKeyRotation: serializableProvider("subaccountKeyRotation"),
  rsyncCopy: serializableProvider("rsyncCopy"),
} satisfies Record<string, pulumi.dynamic.ResourceProvider>;
