import type { ResourceKind } from "./kinds";

/** What a resource is, said once. */
export interface Declaration<Name extends string = string> {
  readonly kind: ResourceKind;
  /** The Pulumi type name (`Cluster`): the registered type `vastai:Cluster` and the word messages use. */
  readonly type: string;
  /** The outputs the service computes (not inputs): registered so Pulumi keeps them, ignored by the diff. */
  readonly computed: readonly Name[];
  /** Outputs the provider keeps in state for its own use: not on the class, ignored by the diff, kept by an update. */
  readonly internal?: readonly string[];
  /** Inputs that are secrets: wrapped as secrets on the way in, their outputs kept secret. */
  readonly secretInputs?: readonly Name[];
  /** Computed outputs that are secrets. */
  readonly secretOutputs?: readonly Name[];
  /** Inputs a program may leave out whose output must exist all the same (registered as unset). */
  readonly optionalInputs?: readonly Name[];
  /** Inputs whose change replaces the object; every other input changes in place. */
  readonly replaceOn?: readonly Name[];
  /** A replacement deletes the old object before creating the new one (a name the service holds unique). */
  readonly deleteBeforeReplace?: boolean;
  /** False for a kind that takes no `importId` (it then has no `imported` output). */
  readonly importable?: false;
}
