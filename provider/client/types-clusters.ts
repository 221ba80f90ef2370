/**
 * Public (camelCase) types of physical clusters and overlay networks. Wire forms:
 * schemas-clusters.ts. The vendor's OpenAPI document does not describe these endpoints; the
 * vendor's client (`vastai/api/clusters.py`) is the evidence of their shapes.
 */

/** One machine of a cluster, as `GET /api/v0/clusters/` lists it. */
export interface ClusterNode {
  machineId: number;
  /** Whether this machine is the cluster's manager. */
  isManager: boolean;
  /** The machine's address on the cluster's subnet, when the service shows one. */
  localIp: string | undefined;
}

/** A physical cluster of machines the account hosts. */
export interface Cluster {
  id: number;
  /** The cluster's local subnet, CIDR form (`10.0.0.0/24`). */
  subnet: string;
  nodes: ClusterNode[];
  /** The manager node's machine id (undefined when the service lists none). */
  managerId: number | undefined;
}

/** An overlay network on a cluster, as `GET /api/v0/overlay/` lists it. */
export interface Overlay {
  id: number;
  name: string;
  clusterId: number;
  /** The overlay's internal subnet, when the service has assigned one. */
  internalSubnet: string | undefined;
  /** Ids of the instances joined to the overlay. */
  instanceIds: number[];
}

/** The `{msg}` a cluster or overlay write answers with. */
export interface ClusterWriteResult {
  msg: string | undefined;
}
