/**
 * Physical clusters (`/api/v0/cluster/`, `/api/v0/clusters/`, `/api/v0/cluster/remove_machine/`)
 * and overlay networks (`/api/v0/overlay/`). The vendor's OpenAPI document has none of them; the
 * shapes are the vendor client's (`vastai/api/clusters.py`, `vast.py` show clusters/overlays),
 * the scopes its `api_scopes.json` (reads `user_read`, writes `user_write`). Every write answers
 * `{success, msg}` and no id, as the vendor's client reads only `msg`.
 *
 * What the evidence does not say is kept simple and stated: a cluster's machines are machines the
 * caller hosts and a machine is in at most one cluster; an overlay's name is unique per account
 * (the service joins by name); an instance is on at most one overlay; an instance joins only an
 * overlay of the physical cluster its machine is in (the vendor's docs: overlays are "for
 * instances located in the same physical cluster"; the join of another is refused, 400
 * `incompatible_overlay`); a destroyed instance leaves its overlay; a cluster with overlays is
 * not deleted.
 */
import type { FastifyInstance } from "fastify";
import type { SimContext } from "../context";
import { servedNested } from "../domain/untrimmed";
import { requirePermission } from "../http/auth";
import { apiError, invalidArgs, notFound, show } from "../http/errors";
import { bodyOf, type Body } from "../http/validate";
import { machineById } from "../seed/machines";
import { MARKET_CLUSTERS, marketClusterOf } from "../seed/market-clusters";
import type { ClusterRecord, OverlayRecord } from "../store/network-types";

const OVERLAY_NAME_LIMIT = 64;
const CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

function intField(body: Body, field: string, required: true): number;
function intField(body: Body, field: string, required: false): number | undefined;
function intField(body: Body, field: string, required: boolean): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) throw invalidArgs(`${field} is required`);
    return undefined;
  }
  if (typeof v !== "number" || !Number.isInteger(v) || v <= 0) throw invalidArgs(`${field} must be a positive integer (got ${show(v)})`);
  return v;
}

function subnetOf(body: Body): string {
  const v = body.subnet;
  const m = typeof v === "string" ? CIDR.exec(v) : null;
  if (!m || m.slice(1, 5).some((o) => Number(o) > 255) || Number(m[5]) > 32) throw invalidArgs(`subnet must be an IPv4 subnet in CIDR form such as 10.0.0.0/24 (got ${show(v)})`);
  return v as string;
}

/** The address of the n-th node (from 0) on the cluster's subnet. */
function localIp(subnet: string, n: number): string {
  const [a, b, c, d] = subnet.split("/")[0].split(".").map(Number);
  const value = ((a << 24) >>> 0) + (b << 16) + (c << 8) + d + n + 1;
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");
}

function clusterView(c: ClusterRecord): Record<string, unknown> {
  return { subnet: c.subnet, nodes: c.machineIds.map((machineId, i) => ({ machine_id: machineId, is_cluster_manager: machineId === c.managerId, local_ip: localIp(c.subnet, i) })) };
}

function overlayView(o: OverlayRecord): Record<string, unknown> {
  return { overlay_id: o.id, name: o.name, internal_subnet: o.internalSubnet, cluster_id: o.clusterId, instances: [...o.instanceIds] };
}

function hostedMachine(field: string, id: number, userId: number): number {
  const m = machineById(id);
  if (!m || m.ownerId !== userId) throw notFound("not_found", `${field}: no machine ${id} hosted by this account`);
  return id;
}

/** An instance destroyed leaves every overlay it was on. */
export function leaveOverlays(ctx: SimContext, instanceId: number): void {
  for (const o of ctx.store.data.networks.overlays) o.instanceIds = o.instanceIds.filter((i) => i !== instanceId);
}

export function registerClusters(app: FastifyInstance, ctx: SimContext): void {
  const net = () => ctx.store.data.networks;
  const ownCluster = (userId: number, id: number) => {
    const c = net().clusters.find((x) => x.id === id && x.userId === userId);
    if (!c) throw notFound("not_found", `No cluster with id ${id} on this account`);
    return c;
  };
  const clusterOf = (machineId: number) => net().clusters.find((c) => c.machineIds.includes(machineId));

  app.get("/api/v0/clusters/", (req) => {
    const userId = requirePermission(req, "user_read").user.id;
    return { clusters: Object.fromEntries(net().clusters.filter((c) => c.userId === userId).map((c) => [String(c.id), servedNested(ctx, clusterView(c))])) };
  });

  app.post("/api/v0/cluster/", (req) => {
    const userId = requirePermission(req, "user_write").user.id;
    const body = bodyOf(req.body);
    const subnet = subnetOf(body);
    const managerId = hostedMachine("manager_id", intField(body, "manager_id", true), userId);
    const taken = clusterOf(managerId);
    if (taken) throw apiError(400, "machine_in_cluster", `Machine ${managerId} is already in cluster ${taken.id}`);
    const c: ClusterRecord = { id: net().nextClusterId++, userId, subnet, machineIds: [managerId], managerId };
    net().clusters.push(c);
    ctx.store.changed();
    return { success: true, msg: `Created cluster ${c.id} with manager machine ${managerId}` };
  });

  app.put("/api/v0/cluster/", (req) => {
    const userId = requirePermission(req, "user_write").user.id;
    const body = bodyOf(req.body);
    const c = ownCluster(userId, intField(body, "cluster_id", true));
    const ids = body.machine_ids;
    if (!Array.isArray(ids) || ids.length === 0 || ids.some((m) => typeof m !== "number" || !Number.isInteger(m) || m <= 0)) {
      throw invalidArgs(`machine_ids must be a non-empty list of machine ids (got ${show(ids)})`);
    }
    for (const m of ids as number[]) {
      hostedMachine("machine_ids", m, userId);
      const other = clusterOf(m);
      if (other && other !== c) throw apiError(400, "machine_in_cluster", `Machine ${m} is already in cluster ${other.id}`);
    }
    for (const m of ids as number[]) if (!c.machineIds.includes(m)) c.machineIds.push(m);
    ctx.store.changed();
    return { success: true, msg: `Joined machines ${(ids as number[]).join(", ")} to cluster ${c.id}` };
  });

  app.delete("/api/v0/cluster/remove_machine/", (req) => {
    const userId = requirePermission(req, "user_write").user.id;
    const body = bodyOf(req.body);
    const c = ownCluster(userId, intField(body, "cluster_id", true));
    const machineId = intField(body, "machine_id", true);
    const newManager = intField(body, "new_manager_id", false);
    if (!c.machineIds.includes(machineId)) throw notFound("not_found", `Machine ${machineId} is not in cluster ${c.id}`);
    if (machineId === c.managerId) {
      if (newManager === undefined) throw invalidArgs(`machine ${machineId} is the manager of cluster ${c.id}: name new_manager_id, another machine of the cluster`);
      if (newManager === machineId || !c.machineIds.includes(newManager)) throw invalidArgs(`new_manager_id must be another machine of cluster ${c.id} (got ${newManager})`);
      c.managerId = newManager;
    }
    c.machineIds = c.machineIds.filter((m) => m !== machineId);
    ctx.store.changed();
    return { success: true, msg: `Removed machine ${machineId} from cluster ${c.id}` };
  });

  app.delete("/api/v0/cluster/", (req) => {
    const userId = requirePermission(req, "user_write").user.id;
    const c = ownCluster(userId, intField(bodyOf(req.body), "cluster_id", true));
    const on = net().overlays.filter((o) => o.clusterId === c.id);
    if (on.length > 0) throw apiError(400, "cluster_in_use", `Cluster ${c.id} carries overlays ${on.map((o) => o.name).join(", ")}: delete them first`);
    net().clusters = net().clusters.filter((x) => x !== c);
    ctx.store.changed();
    return { success: true, msg: `Deleted cluster ${c.id}` };
  });

  app.get("/api/v0/overlay/", (req) => {
    const userId = requirePermission(req, "user_read").user.id;
    return net().overlays.filter((o) => o.userId === userId).map((o) => servedNested(ctx, overlayView(o)));
  });

  app.post("/api/v0/overlay/", (req) => {
    const userId = requirePermission(req, "user_write").user.id;
    const body = bodyOf(req.body);
    const clusterId = intField(body, "cluster_id", true);
    const name = body.name;
    if (typeof name !== "string" || name.trim() === "" || name.length > OVERLAY_NAME_LIMIT) throw invalidArgs(`name must be a non-empty string of at most ${OVERLAY_NAME_LIMIT} characters (got ${show(name)})`);
    // Renters put overlays on clusters hosts made: any cluster of the service (the market's too).
    if (!net().clusters.some((c) => c.id === clusterId) && !MARKET_CLUSTERS.some((c) => c.id === clusterId)) throw notFound("not_found", `No cluster with id ${clusterId}`);
    if (net().overlays.some((o) => o.userId === userId && o.name === name)) throw apiError(400, "overlay_exists", `An overlay named ${show(name)} already exists on this account`);
    const id = net().nextOverlayId++;
    const o: OverlayRecord = { id, userId, clusterId, name, internalSubnet: `10.200.${id % 256}.0/24`, instanceIds: [] };
    net().overlays.push(o);
    ctx.store.changed();
    return { success: true, msg: `Created overlay ${name} on cluster ${clusterId}` };
  });

  app.put("/api/v0/overlay/", (req) => {
    const userId = requirePermission(req, "user_write").user.id;
    const body = bodyOf(req.body);
    const instanceId = intField(body, "instance_id", true);
    const o = net().overlays.find((x) => x.userId === userId && x.name === body.name);
    if (!o) throw notFound("not_found", `No overlay named ${show(body.name)} on this account`);
    const instance = ctx.store.data.instances.find((i) => i.id === instanceId && i.userId === userId);
    if (!instance) throw notFound("not_found", `No instance ${instanceId} on this account`);
    const onCluster = marketClusterOf(instance.machineId) === o.clusterId || net().clusters.some((c) => c.id === o.clusterId && c.machineIds.includes(instance.machineId));
    if (!onCluster) {
      throw apiError(400, "incompatible_overlay", `Instance ${instanceId} is on machine ${instance.machineId}, not on cluster ${o.clusterId} of overlay ${o.name}: it cannot join`);
    }
    const other = net().overlays.find((x) => x !== o && x.instanceIds.includes(instanceId));
    if (other) throw apiError(400, "instance_in_overlay", `Instance ${instanceId} is already on overlay ${other.name}`);
    if (!o.instanceIds.includes(instanceId)) o.instanceIds.push(instanceId);
    ctx.store.changed();
    return { success: true, msg: `Instance ${instanceId} joined overlay ${o.name}` };
  });

  app.delete("/api/v0/overlay/", (req) => {
    const userId = requirePermission(req, "user_write").user.id;
    const body = bodyOf(req.body);
    const byId = intField(body, "overlay_id", false);
    if (byId === undefined && typeof body.overlay_name !== "string") throw invalidArgs("overlay_id or overlay_name is required");
    const o = net().overlays.find((x) => x.userId === userId && (byId !== undefined ? x.id === byId : x.name === body.overlay_name));
    if (!o) throw notFound("not_found", `No overlay ${byId ?? show(body.overlay_name)} on this account`);
    net().overlays = net().overlays.filter((x) => x !== o);
    ctx.store.changed();
    return { success: true, msg: `Deleted overlay ${o.name}` };
  });
}
