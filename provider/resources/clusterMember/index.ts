/** `ClusterMember`: a machine the account hosts, joined to a `Cluster` (`PUT /api/v0/cluster/`). */
import { resourceClass, type ImportedOutput, type Inputs } from "../kit/declare";
import type { ImportArgs } from "../kit/resource";
import { CLUSTER_MEMBER } from "./declare";

/** A cluster membership's inputs, each also an output of the same name. */
interface ClusterMemberFields {
  /** The cluster to join (`Cluster.clusterId`). A change replaces the membership. */
  clusterId: number;
  /** The machine to join: one the account hosts, in no other cluster. A change replaces the membership. */
  machineId: number;
}

/** What the service shows of it. */
interface ClusterMemberComputed extends ImportedOutput {
  /** The machine's address on the cluster's subnet, when the service shows one. */
  localIp: string | undefined;
}

/** Inputs of a `ClusterMember` resource. */
export interface ClusterMemberArgs extends ImportArgs, Inputs<ClusterMemberFields> {}

/**
 * A machine joined to a cluster. Deleting the resource removes the machine from the cluster
 * (`DELETE /api/v0/cluster/remove_machine/`); the service refuses to remove the cluster's
 * manager this way.
 *
 *   new vastai.ClusterMember("node-2", { clusterId: cluster.clusterId, machineId: 31002 });
 */
export class ClusterMember extends resourceClass<ClusterMemberArgs, ClusterMemberFields & ClusterMemberComputed>(CLUSTER_MEMBER) {}
