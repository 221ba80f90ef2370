/**
 * The Cluster provider. A create answers only `{msg}`, without the id: the cluster is found in
 * the list by its manager machine (a machine is in one cluster at most). A cluster holds no
 * marker: an identical cluster (same subnet and manager) is taken for what a killed run left,
 * on the resource's first create only; any other cluster holding the manager fails the create.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { Cluster as LiveCluster, VastClient } from "../../client";
import { getClient } from "../../context";
import { createAtMostOnce, isFirstCreate, jsonClean, lookUp, numericImport, recordedUpdate, type ImportableImpl, type Props, checkAndDiff } from "../kit";
import { idRule, numericId, subnetRule } from "./check";
import { CLUSTER } from "./declare";

const schema = z.object({ subnet: subnetRule, managerMachineId: idRule("a machine id the account hosts") });

export function clusterOutputs(c: LiveCluster, adopted: boolean): Props {
  return jsonClean({ clusterId: c.id, machineIds: c.nodes.map((n) => n.machineId), managerLocalIp: c.nodes.find((n) => n.isManager)?.localIp, adopted }) as Props;
}

const holding = (clusters: LiveCluster[], machineId: number) => clusters.find((c) => c.nodes.some((n) => n.machineId === machineId));

async function createCluster(client: VastClient, subnet: string, managerId: number, first: boolean): Promise<{ cluster: LiveCluster; adopted: boolean }> {
  const label = `Cluster (manager machine ${managerId})`;
  const before = holding(await client.clusters.list(), managerId);
  if (before) {
    if (first && before.subnet === subnet && before.managerId === managerId) return { cluster: before, adopted: true };
    throw new Error(`${label}: machine ${managerId} is already in cluster ${before.id} (subnet ${before.subnet}); a machine is in one cluster at most`);
  }
  const find = async () => {
    const c = holding(await client.clusters.list(), managerId);
    return c && c.subnet === subnet ? c : undefined;
  };
  const cluster = await createAtMostOnce<LiveCluster>({
    send: async () => {
      await client.clusters.create(subnet, managerId);
      const made = await find();
      if (!made) throw new Error(`${label}: the service answered the create but lists no cluster with this manager`);
      return made;
    },
    recover: async () => lookUp(find),
  });
  return { cluster, adopted: false };
}

export const provider: ImportableImpl = {
  // importId: the cluster's id (`getClusters`); subnet and manager left out keep the service's.
  importing: numericImport("Cluster", "cluster", { keepShown: ["subnet", "managerMachineId"], optionalOnImport: ["subnet", "managerMachineId"] }),

  ...checkAndDiff(CLUSTER, schema),

  async create(inputs) {
    const { cluster, adopted } = await createCluster(getClient(), String(inputs.subnet), Number(inputs.managerMachineId), isFirstCreate(inputs));
    return { id: String(cluster.id), outs: jsonClean({ ...inputs, ...clusterOutputs(cluster, adopted) }) as Props };
  },

  async read(id, props): Promise<pulumi.dynamic.ReadResult> {
    const n = numericId("Cluster", id);
    const live = (await getClient().clusters.list()).find((c) => c.id === n);
    if (!live) return { id: "" };
    const inputs = { subnet: live.subnet, managerMachineId: live.managerId ?? props.managerMachineId };
    return { id, props: jsonClean({ ...props, ...inputs, ...clusterOutputs(live, props.adopted === true) }) as Props, inputs };
  },

  async update(_id, olds, news) {
    return { outs: recordedUpdate(CLUSTER, olds, news) };
  },

  async delete(id) {
    try {
      await getClient().clusters.delete(numericId("Cluster", id));
    } catch (error) {
      throw new Error(`Cluster ${id}: deleting the cluster failed: ${(error as Error).message}`, { cause: error });
    }
  },
};
