import * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "./kinds";
import { identityFor, stackIdentity } from "../stackIdentity";
import { IDENTITY_KEY } from "./create-once";
import { serializableProvider } from "./loader";

/**
 * The base of every resource class: registers as `pulumi-nodejs:dynamic/vastai:<type>` with
 * the serialized shim of its kind, and marks `secretOutputs` secret (Pulumi keeps outputs
 * plain unless told; a secret input keeps its secrecy only on the output of the same name).
 * It also gives the provider the resource's identity (kit/create-once.ts, IDENTITY_KEY), from
 * which a create derives the marker that lets the next run adopt what a killed run made. The
 * identity comes from the stack's nonce (resources/stackIdentity, registered by the first
 * resource of the program), so every resource depends on the stack identity.
 */
export abstract class VastResource extends pulumi.dynamic.Resource {
  constructor(
    kind: ResourceKind,
    type: string,
    name: string,
    props: pulumi.Inputs,
    opts: pulumi.CustomResourceOptions | undefined,
    secretOutputs: readonly string[] = [],
  ) {
    const options = secretOutputs.length > 0 ? pulumi.mergeOptions(opts, { additionalSecretOutputs: [...secretOutputs] }) : opts;
    // Without a nonce (mocks that return no outputs), no identity: markers are then random. A
    // damaged nonce, or an identity made for another stack, is refused (stackIdentity/rules.ts).
    const stack = stackIdentity();
    const identity = pulumi.all([stack.nonce, stack.stackName]).apply(([nonce, recorded]) => identityFor(nonce, recorded, type, name));
    super(serializableProvider(kind), name, { ...props, [IDENTITY_KEY]: identity }, options, "vastai", type);
  }
}

/**
 * The names among `names` whose value may hold a secret: an Output (which may be secret), or an
 * object or array holding one. Plain values cannot be secrets, so they stay readable; a
 * possibly secret one is kept secret on its output also after a refresh rebuilds it from the
 * live object (where the input's own secrecy no longer reaches it).
 */
export function possiblySecret(args: object, names: readonly string[]): string[] {
  const holdsOutput = (v: unknown): boolean =>
    pulumi.Output.isInstance(v) || (typeof v === "object" && v !== null && Object.values(v).some((x) => pulumi.Output.isInstance(x)));
  return names.filter((n) => holdsOutput((args as Record<string, unknown>)[n]));
}

/** The input of every resource that can take over an existing object (kit/import.ts). */
export interface ImportArgs {
  /**
   * The service's id of an existing object to take over instead of creating one: the value the
   * resource's id would have (see docs/_index.md, "Importing existing objects"). No create is sent;
   * declared inputs that can change in place are applied, and one that could change only by
   * replacement fails the create with nothing changed. Later changes are only recorded.
   */
  importId?: pulumi.Input<string>;
}
