/** Wire schemas (snake_case) of clusters and overlay networks (vendor client: `vastai/api/clusters.py`). */
import { z } from "zod";
import { anyString, idNumber, trimmedRow } from "./schema-helpers";
import type { Cluster, ClusterWriteResult, Overlay } from "./types-clusters";

export type { Cluster, ClusterNode, ClusterWriteResult, Overlay } from "./types-clusters";

// Strings trimmed, as every row the client reads (the vendor's client strips every string of a row).
const node = trimmedRow(z.looseObject({ machine_id: idNumber, is_cluster_manager: z.boolean().nullish(), local_ip: anyString }));
const clusterBody = trimmedRow(z.looseObject({ subnet: z.string(), nodes: z.array(node).nullish() }));

/** `{clusters: {"<id>": {subnet, nodes: [{machine_id, is_cluster_manager, local_ip}]}}}`; without the key it is refused, not read as "none". */
export const clusterListResponse: z.ZodType<Cluster[]> = z.looseObject({ clusters: z.record(z.string().regex(/^\d+$/), clusterBody).nullable() }).transform((r) =>
  Object.entries(r.clusters ?? {}).map(([id, c]): Cluster => {
    const nodes = (c.nodes ?? []).map((n) => ({ machineId: n.machine_id, isManager: n.is_cluster_manager === true, localIp: n.local_ip }));
    return { id: Number(id), subnet: c.subnet, nodes, managerId: nodes.find((n) => n.isManager)?.machineId };
  }),
);

const overlay = trimmedRow(
  z.looseObject({
    overlay_id: idNumber,
    name: z.string(),
    cluster_id: idNumber,
    internal_subnet: z.string().nullish(),
    instances: z.array(idNumber).nullish(),
  }),
);

/** A JSON list of `{overlay_id, name, internal_subnet, cluster_id, instances}`. */
export const overlayListResponse: z.ZodType<Overlay[]> = z.array(overlay).transform((rows) =>
  rows.map((o): Overlay => ({ id: o.overlay_id, name: o.name, clusterId: o.cluster_id, internalSubnet: o.internal_subnet ?? undefined, instanceIds: o.instances ?? [] })),
);

/** `{success?, msg}`: every cluster and overlay write (the vendor's client prints `msg`). A `success: false` is refused. */
export const clusterWriteResponse: z.ZodType<ClusterWriteResult> = z
  .looseObject({ success: z.boolean().nullish(), msg: anyString })
  .refine((r) => r.success !== false, { message: "the service answered success: false" })
  .transform((r) => ({ msg: r.msg }));
