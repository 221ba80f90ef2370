/**
 * The resource kinds: the one registry. A kind's folder under provider/resources holds its
 * provider (`provider.ts`, `export const provider`), its class and its shim; runtime.ts loads
 * `./resources/<kind>/provider` by this name, so a new kind is its folder and one line here.
 * A state entry names its kind, so a kind, once released, stays here. Kept apart from
 * runtime.ts so that resource classes, which only need the name, do not import the registry
 * that loads every provider.
 */
export const RESOURCE_KINDS = [
  "template", "instance", "sshKey", "maintenanceWindow", "machineListing", "volumeListing",
  "networkVolumeListing", "envVar", "apiKey", "subaccountKeyRotation", "rsyncCopy", "volume",
  "networkVolume", "endpoint", "workerGroup", "webhook", "fleet", "scheduledJob", "stackIdentity",
  "cluster", "clusterMember", "overlay", "overlayMember", "team", "teamRole", "teamMember", "subaccount",
] as const;

/** The name of a resource kind. */
export type ResourceKind = (typeof RESOURCE_KINDS)[number];
