/**
 * `Cluster`: a physical cluster of machines the account hosts, with a local subnet and a manager
 * machine (`POST /api/v0/cluster/`). Not in the vendor's OpenAPI document: the vendor's client is
 * the evidence of the endpoints.
 */
import { resourceClass, type ImportedOutput, type Inputs } from "../kit/declare";
import type { ImportArgs } from "../kit/resource";
import { CLUSTER } from "./declare";

/** A cluster's inputs, each also an output of the same name. */
interface ClusterFields {
  /** The cluster's local subnet, IPv4 CIDR form such as `10.0.0.0/24`. A change replaces the cluster. */
  subnet: string;
  /** The machine id of the manager node: a machine the account hosts, in no other cluster. A change replaces the cluster. */
  managerMachineId: number;
}

/** What the service shows of a cluster. */
interface ClusterComputed extends ImportedOutput {
  /** The service's numeric id of the cluster (also the Pulumi id). */
  clusterId: number;
  /** Machine ids of every node as the service lists them, as of the last create or refresh. */
  machineIds: number[];
  /** The manager's address on the cluster's subnet, when the service shows one. */
  managerLocalIp: string | undefined;
  /** True when the create took over an identical cluster (same subnet and manager) a killed earlier run made. */
  adopted: boolean;
}

/** Inputs of a `Cluster` resource. */
export interface ClusterArgs extends ImportArgs, Inputs<ClusterFields> {}

/**
 * A physical cluster of the account's machines; join more machines with `ClusterMember`, and put
 * overlay networks on it with `Overlay`.
 *
 *   const cluster = new vastai.Cluster("rack", { subnet: "10.0.0.0/24", managerMachineId: 31001 });
 *
 * Deleting the resource deletes the cluster (the service refuses while overlays are on it).
 */
export class Cluster extends resourceClass<ClusterArgs, ClusterFields & ClusterComputed>(CLUSTER) {}
