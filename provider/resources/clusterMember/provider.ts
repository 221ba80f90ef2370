/**
 * The ClusterMember provider; the Pulumi id is `<clusterId>/<machineId>`. A membership holds no
 * marker: a machine already in the cluster is taken for what a killed run joined on the
 * resource's first create only, and fails any later create (a replacement would otherwise take
 * over the membership its old resource then removes).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { Cluster as LiveCluster } from "../../client";
import { getClient } from "../../context";
import { isFirstCreate, jsonClean, type ImportableImpl, type Props, recordedUpdate, checkAndDiff } from "../kit";
import { CLUSTER_MEMBER } from "./declare";
import { idRule } from "../cluster/check";

const schema = z.object({ clusterId: idRule("a cluster id, Cluster.clusterId"), machineId: idRule("a machine id the account hosts") });

function parseId(id: string): { clusterId: number; machineId: number } {
  const m = /^(\d+)\/(\d+)$/.exec(id);
  if (!m) throw new Error(`ClusterMember id "${id}" is not <clusterId>/<machineId>`);
  return { clusterId: Number(m[1]), machineId: Number(m[2]) };
}

const nodeOf = (clusters: LiveCluster[], clusterId: number, machineId: number) => clusters.find((c) => c.id === clusterId)?.nodes.find((n) => n.machineId === machineId);

export const provider: ImportableImpl = {
  // importId: "<clusterId>/<machineId>" of a machine in the cluster (not its manager).
  importing: {
    type: "ClusterMember",
    noun: "cluster membership",
    idRule: 'must be "<clusterId>/<machineId>" (what the resource\'s id would be), such as "3/50008"',
    validId: (id) => /^[1-9]\d{0,11}\/[1-9]\d{0,11}$/.test(id),
    verify: (id, declared) => {
      const made = `${String(declared.clusterId)}/${String(declared.machineId)}`;
      return made === id ? undefined : `the declared clusterId and machineId make the id "${made}", not this one`;
    },
  },

  ...checkAndDiff(CLUSTER_MEMBER, schema),

  async create(inputs) {
    const client = getClient();
    const clusterId = Number(inputs.clusterId);
    const machineId = Number(inputs.machineId);
    const label = `ClusterMember (machine ${machineId}, cluster ${clusterId})`;
    let node = nodeOf(await client.clusters.list(), clusterId, machineId);
    if (node && !isFirstCreate(inputs)) throw new Error(`${label}: the machine is already in the cluster, joined by something else than this resource`);
    try {
      // Joining is idempotent on the service: a lost answer is resent by the client.
      if (!node) await client.clusters.join(clusterId, [machineId]);
    } catch (error) {
      throw new Error(`${label}: joining the cluster failed: ${(error as Error).message}`, { cause: error });
    }
    node ??= nodeOf(await client.clusters.list(), clusterId, machineId);
    if (!node) throw new Error(`${label}: the service answered the join but does not list the machine in the cluster`);
    return { id: `${clusterId}/${machineId}`, outs: jsonClean({ ...inputs, localIp: node.localIp }) as Props };
  },

  async read(id, props): Promise<pulumi.dynamic.ReadResult> {
    const { clusterId, machineId } = parseId(id);
    const node = nodeOf(await getClient().clusters.list(), clusterId, machineId);
    if (!node) return { id: "" };
    const inputs = { clusterId, machineId };
    return { id, props: jsonClean({ ...props, ...inputs, localIp: node.localIp }) as Props, inputs };
  },

  async update(_id, olds, news) {
    return { outs: recordedUpdate(CLUSTER_MEMBER, olds, news) };
  },

  async delete(id) {
    const { clusterId, machineId } = parseId(id);
    try {
      await getClient().clusters.removeMachine(clusterId, machineId);
    } catch (error) {
      throw new Error(`ClusterMember ${id}: removing machine ${machineId} from cluster ${clusterId} failed: ${(error as Error).message}`, { cause: error });
    }
  },
};
