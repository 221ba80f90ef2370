/**
 * The names of the resource kinds. A state entry names its kind, so a kind, once released,
 * stays here; `KINDS` in runtime.ts maps each name to its provider folder and must list exactly
 * these (the compiler checks it). Kept apart from runtime.ts so that resource classes, which
 * only need the name, do not import the registry that loads every provider.
 */
export type ResourceKind =
  | "template" | "instance" | "sshKey" | "maintenanceWindow" | "machineListing" | "volumeListing"
  | "networkVolumeListing" | "envVar" | "apiKey" | "subaccountKeyRotation" | "rsyncCopy" | "volume"
  | "networkVolume" | "endpoint" | "workerGroup" | "webhook" | "fleet" | "scheduledJob" | "stackIdentity"
  | "cluster" | "clusterMember" | "overlay" | "overlayMember" | "team" | "teamRole" | "teamMember" | "subaccount";
