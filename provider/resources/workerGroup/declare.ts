import type { Declaration } from "../kit/declaration";

/** The `WorkerGroup` resource, declared once for its class and its provider. */
export const WORKER_GROUP = {
  kind: "workerGroup",
  type: "WorkerGroup",
  computed: ["workerGroupId", "endpointName", "createdAt"],
} as const satisfies Declaration;
