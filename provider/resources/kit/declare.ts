/**
 * A resource declared once. Its `declare.ts` names the kind, the Pulumi type, the outputs the
 * service computes, the secret inputs and the inputs whose change replaces the object; the
 * class (`resourceClass`) and the provider's check and diff (`checkDeclared`, `diffDeclared`)
 * are made from that one declaration, so they cannot disagree. The declaration is plain data:
 * the program loads it with the class, the plugin with the provider, so it imports nothing:
 *
 *   export const CLUSTER = { kind: "cluster", type: "Cluster", computed: ["clusterId"], replaceOn: ["subnet"] } as const satisfies Declaration;
 */
import * as pulumi from "@pulumi/pulumi";
import type { Declaration } from "./declaration";
import { VastResource } from "./resource";

export type { Declaration } from "./declaration";

/** A resource's outputs from the plain shape of its state: each field the `Output` of its value. */
export type Outputs<T> = { readonly [K in keyof T]-?: pulumi.Output<T[K]> };

/** An input of a value; an array's elements may be inputs too (`[gpu.instanceId, 7]`). */
export type InputOf<V> = V extends readonly (infer E)[] ? pulumi.Input<pulumi.Input<E>[]> : pulumi.Input<V>;

/** A resource's inputs from the plain shape of its inputs: each field an `Input` of its value. */
export type Inputs<T> = { [K in keyof T]: InputOf<T[K]> };

/** The output of every resource that takes `importId` (its computed outputs extend this). */
export interface ImportedOutput {
  /** True when the resource took over an existing object (`importId`) instead of creating one. */
  imported: boolean | undefined;
}

/** The constructor of a declared resource class. */
export type DeclaredClass<Args, State> = new (name: string, args: Args, opts?: pulumi.CustomResourceOptions) => VastResource & Outputs<State>;

/**
 * The base class of a declared resource: `Args` its inputs, `State` the plain shape of every
 * output (its inputs' values and what the service computes). A kind that takes `importId` has
 * `ImportArgs` in its inputs and `ImportedOutput` in its state; the kit registers `imported`
 * unless the declaration says `importable: false`.
 *
 *   export class Cluster extends resourceClass<ClusterArgs, ClusterFields & ClusterComputed>(CLUSTER) {}
 */
export function resourceClass<Args extends object, State extends object>(declaration: Declaration<Extract<keyof State, string>>): DeclaredClass<Args, State> {
  const { kind, type, computed, secretInputs = [], secretOutputs = [], optionalInputs = [] } = declaration;
  const outputs = declaration.importable === false ? computed : [...computed, "imported"];
  class Declared extends VastResource {
    constructor(name: string, args: Args, opts?: pulumi.CustomResourceOptions) {
      const props: pulumi.Inputs = {};
      for (const key of optionalInputs) props[key] = undefined;
      Object.assign(props, args);
      for (const key of secretInputs) if (props[key] !== undefined) props[key] = pulumi.secret(props[key]);
      for (const key of outputs) props[key] = undefined;
      super(kind, type, name, props, opts, [...secretInputs, ...secretOutputs]);
    }
  }
  return Declared as unknown as DeclaredClass<Args, State>;
}
