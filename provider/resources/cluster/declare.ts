import type { Declaration } from "../kit/declaration";

/** The `Cluster` resource, declared once for its class and its provider. */
export const CLUSTER = {
  kind: "cluster",
  type: "Cluster",
  computed: ["clusterId", "machineIds", "managerLocalIp", "adopted"],
  replaceOn: ["subnet", "managerMachineId"],
} as const satisfies Declaration;
