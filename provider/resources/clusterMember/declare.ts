import type { Declaration } from "../kit/declaration";

/** The `ClusterMember` resource, declared once for its class and its provider. */
export const CLUSTER_MEMBER = {
  kind: "clusterMember",
  type: "ClusterMember",
  computed: ["localIp"],
  replaceOn: ["clusterId", "machineId"],
} as const satisfies Declaration;
