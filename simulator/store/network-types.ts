/** Physical clusters and overlay networks of the simulator's accounts (types.ts holds them as `SimData.networks`). */

export interface ClusterRecord {
  id: number;
  userId: number;
  subnet: string;
  /** Machine ids in join order; `managerId` is one of them. */
  machineIds: number[];
  managerId: number;
}

export interface OverlayRecord {
  id: number;
  userId: number;
  clusterId: number;
  name: string;
  /** A /24 carved from 10.200.0.0/16 by overlay id. */
  internalSubnet: string;
  instanceIds: number[];
}

export interface NetworkData {
  clusters: ClusterRecord[];
  overlays: OverlayRecord[];
  nextClusterId: number;
  nextOverlayId: number;
}

export function emptyNetworkData(): NetworkData {
  return { clusters: [], overlays: [], nextClusterId: 1, nextOverlayId: 1 };
}
