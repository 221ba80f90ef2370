/**
 * Physical clusters (`/api/v0/cluster/`, `/api/v0/clusters/`) and overlay networks
 * (`/api/v0/overlay/`). None of these endpoints is in the vendor's OpenAPI document: the shapes
 * are those the vendor's client sends and reads (`vastai/api/clusters.py`). A create answers
 * only `{msg}`, without the new id: callers find the object by listing.
 */
import type { RequestCore } from "../core";
import { ENDPOINTS } from "../endpoints";
import { VastValidationError } from "../errors";
import { clusterListResponse, clusterWriteResponse, overlayListResponse } from "../schemas-clusters";
import type { Cluster, ClusterWriteResult, Overlay } from "../types-clusters";
import type { DeleteResult } from "../types-templates";
import { deleteConfirmed, writeSeen } from "./confirm";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** What the vendor's client reads of every cluster and overlay write: `{msg}` (or `{success: true}`). */
const MSG_OR_SUCCESS = { shape: "{msg} or {success: true}", test: (json: unknown) => isRecord(json) && json.success !== false && (typeof json.msg === "string" || json.success === true) };

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) throw new VastValidationError(`${name} must be a positive integer (got ${JSON.stringify(value)})`);
  return value;
}

/** The clusters and overlays area of the client. */
export class ClustersApi {
  constructor(private readonly core: RequestCore) {}

  /** Clusters of the account's machines. */
  list(): Promise<Cluster[]> {
    return this.core.request({ endpoint: ENDPOINTS.clustersList, schema: clusterListResponse });
  }

  /** Create a cluster with a local subnet and a manager machine (one the account hosts). The answer holds no id: list to find it. Not resent if the response is lost. */
  async create(subnet: string, managerId: number): Promise<ClusterWriteResult> {
    const answer = await this.core.request({ endpoint: ENDPOINTS.clusterCreate, body: { subnet, manager_id: positive("managerId", managerId) }, schema: clusterWriteResponse });
    // The documented answer alone proves nothing: a cluster of this manager and subnet must be listed.
    await writeSeen(`cluster of manager machine ${managerId} (subnet ${subnet})`, "create", ENDPOINTS.clusterCreate, async () =>
      (await this.list()).some((c) => c.subnet === subnet && c.nodes.some((n) => n.machineId === managerId)) ? null : "reading the clusters back shows none with this manager and subnet",
    );
    return answer;
  }

  /** Join machines to a cluster; a machine already in it stays. */
  join(clusterId: number, machineIds: number[]): Promise<ClusterWriteResult> {
    if (machineIds.length === 0) throw new VastValidationError("machineIds must name at least one machine");
    return this.core.request({
      endpoint: ENDPOINTS.clusterJoin,
      body: { cluster_id: positive("clusterId", clusterId), machine_ids: machineIds.map((m) => positive("machineIds[]", m)) },
      schema: clusterWriteResponse,
    });
  }

  /** Remove a machine from a cluster; removing the manager needs `newManagerId`, a machine already in the cluster. A cluster or machine already gone resolves `{alreadyGone: true}`. */
  removeMachine(clusterId: number, machineId: number, newManagerId?: number): Promise<DeleteResult> {
    const body: Record<string, unknown> = { cluster_id: positive("clusterId", clusterId), machine_id: positive("machineId", machineId) };
    if (newManagerId !== undefined) body.new_manager_id = positive("newManagerId", newManagerId);
    return deleteConfirmed({
      what: `machine ${machineId} of cluster ${clusterId}`,
      // The documented answer alone proves nothing: the delete counts once a read shows it gone.
      readBack: true,
      run: () => this.core.request({ endpoint: ENDPOINTS.clusterRemoveMachine, body, schema: clusterWriteResponse, documented: MSG_OR_SUCCESS }),
      stillThere: async () => (await this.list()).some((c) => c.id === clusterId && c.nodes.some((n) => n.machineId === machineId)),
    });
  }

  /** Delete a cluster; one already gone resolves `{alreadyGone: true}`. */
  delete(clusterId: number): Promise<DeleteResult> {
    return deleteConfirmed({
      what: `cluster ${clusterId}`,
      // The documented answer alone proves nothing: the delete counts once a read shows it gone.
      readBack: true,
      run: () => this.core.request({ endpoint: ENDPOINTS.clusterDelete, body: { cluster_id: positive("clusterId", clusterId) }, schema: clusterWriteResponse, documented: MSG_OR_SUCCESS }),
      stillThere: async () => (await this.list()).some((c) => c.id === clusterId),
    });
  }

  /** Overlay networks of the account. */
  overlays(): Promise<Overlay[]> {
    return this.core.request({ endpoint: ENDPOINTS.overlaysList, schema: overlayListResponse });
  }

  /** Create an overlay network on a cluster. The answer holds no id: list to find it by name. Not resent if the response is lost. */
  createOverlay(clusterId: number, name: string): Promise<ClusterWriteResult> {
    if (name === "") throw new VastValidationError("overlay name must not be empty");
    return this.core.request({ endpoint: ENDPOINTS.overlayCreate, body: { cluster_id: positive("clusterId", clusterId), name }, schema: clusterWriteResponse });
  }

  /** Join an instance to the overlay of this name (the service joins by name). Joining again leaves it joined. */
  joinOverlay(name: string, instanceId: number): Promise<ClusterWriteResult> {
    return this.core.request({ endpoint: ENDPOINTS.overlayJoin, body: { name, instance_id: positive("instanceId", instanceId) }, schema: clusterWriteResponse });
  }

  /** Delete an overlay (its instances leave it); one already gone resolves `{alreadyGone: true}`. */
  deleteOverlay(overlayId: number): Promise<DeleteResult> {
    return deleteConfirmed({
      what: `overlay ${overlayId}`,
      // The documented answer alone proves nothing: the delete counts once a read shows it gone.
      readBack: true,
      run: () => this.core.request({ endpoint: ENDPOINTS.overlayDelete, body: { overlay_id: positive("overlayId", overlayId) }, schema: clusterWriteResponse, documented: MSG_OR_SUCCESS }),
      stillThere: async () => (await this.overlays()).some((o) => o.id === overlayId),
    });
  }
}
