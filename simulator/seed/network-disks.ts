/**
 * Network disks the default account hosts (the vendor's client: `add network-disk`, `show
 * network-disks`), each serving one of its physical clusters: what `list network volume` names
 * by `disk_id`. Fixed values so tests can name a disk by id. Sizes are GB.
 */
export interface NetworkDiskSeed {
  readonly id: number;
  readonly clusterId: number;
  /** GB the disk holds: the most its listings can offer together. */
  readonly sizeGb: number;
}

export const HOST_NETWORK_DISKS: readonly NetworkDiskSeed[] = [
  { id: 8101, clusterId: 71, sizeGb: 4000 },
  { id: 8102, clusterId: 72, sizeGb: 1000 },
];

export function networkDiskById(id: number): NetworkDiskSeed | undefined {
  return HOST_NETWORK_DISKS.find((d) => d.id === id);
}
