/** `ClusterMember`: a machine the account hosts, joined to a `Cluster` (`PUT /api/v0/cluster/`). */
import * as pulumi from "@pulumi/pulumi";
import { ImportArgs, VastResource } from "../kit/resource";

/** Inputs of a `ClusterMember` resource. */
export interface ClusterMemberArgs extends ImportArgs {
  /** The cluster to join (`Cluster.clusterId`). A change replaces the membership. */
  clusterId: pulumi.Input<number>;
  /** The machine to join: one the account hosts, in no other cluster. A change replaces the membership. */
  machineId: pulumi.Input<number>;
}

/**
 * A machine joined to a cluster. Deleting the resource removes the machine from the cluster
 * (`DELETE /api/v0/cluster/remove_machine/`); the service refuses to remove the cluster's
 * manager this way.
 *
 *   new vastai.ClusterMember("node-2", { clusterId: cluster.clusterId, machineId: 31002 });
 */
export class ClusterMember extends VastResource {
  declare readonly clusterId: pulumi.Output<number>;
  declare readonly machineId: pulumi.Output<number>;
  /** The machine's address on the cluster's subnet, when the service shows one. */
  declare readonly localIp: pulumi.Output<string | undefined>;

  /** True when the resource took over an existing object (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: ClusterMemberArgs, opts?: pulumi.CustomResourceOptions) {
    super("clusterMember", "ClusterMember", name, { ...args, localIp: undefined, imported: undefined }, opts);
  }
}
