/**
 * `Cluster`: a physical cluster of machines the account hosts, with a local subnet and a manager
 * machine (`POST /api/v0/cluster/`). Not in the vendor's OpenAPI document: the vendor's client is
 * the evidence of the endpoints.
 */
import * as pulumi from "@pulumi/pulumi";
import { ImportArgs, VastResource } from "../kit/resource";

/** Inputs of a `Cluster` resource. */
export interface ClusterArgs extends ImportArgs {
  /** The cluster's local subnet, IPv4 CIDR form such as `10.0.0.0/24`. A change replaces the cluster. */
  subnet: pulumi.Input<string>;
  /** The machine id of the manager node: a machine the account hosts, in no other cluster. A change replaces the cluster. */
  managerMachineId: pulumi.Input<number>;
}

/**
 * A physical cluster of the account's machines; join more machines with `ClusterMember`, and put
 * overlay networks on it with `Overlay`.
 *
 *   const cluster = new vastai.Cluster("rack", { subnet: "10.0.0.0/24", managerMachineId: 31001 });
 *
 * Deleting the resource deletes the cluster (the service refuses while overlays are on it).
 */
export class Cluster extends VastResource {
  declare readonly subnet: pulumi.Output<string>;
  declare readonly managerMachineId: pulumi.Output<number>;
  /** The service's numeric id of the cluster (also the Pulumi id). */
  declare readonly clusterId: pulumi.Output<number>;
  /** Machine ids of every node as the service lists them, as of the last create or refresh. */
  declare readonly machineIds: pulumi.Output<number[]>;
  /** The manager's address on the cluster's subnet, when the service shows one. */
  declare readonly managerLocalIp: pulumi.Output<string | undefined>;
  /** True when the create took over an identical cluster (same subnet and manager) a killed earlier run made. */
  declare readonly adopted: pulumi.Output<boolean>;

  /** True when the resource took over an existing object (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: ClusterArgs, opts?: pulumi.CustomResourceOptions) {
    super("cluster", "Cluster", name, { ...args, clusterId: undefined, machineIds: undefined, managerLocalIp: undefined, adopted: undefined, imported: undefined }, opts);
  }
}
