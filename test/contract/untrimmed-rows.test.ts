/**
 * Issue 33 item 7: cluster, overlay and charges rows trimmed like every other row. The live
 * service serves strings with trailing whitespace (api-facts: Live quirks) and the vendor's
 * client strips every string of a row; the simulator does the same with `untrimmedStrings`.
 * Cluster and Overlay through Pulumi's own dynamic-provider plugin: a refresh shows no drift.
 */
import { SEED } from "pulumi-vastai/simulator";
import { dynamicUrn } from "pulumi-vastai/testing";
import { createClient, type VastClient } from "../../provider/client";
import { useContract } from "./harness";

jest.setTimeout(120_000);

type Props = Record<string, unknown>;

const fx = useContract("cluster", { simulator: { bootMs: 0, untrimmedStrings: true }, config: { "vastai:pollIntervalMs": "5" } });
let client: VastClient;
beforeAll(() => {
  client = createClient({ apiKey: fx.sim.apiKey, apiUrl: fx.sim.url, runUrl: fx.sim.runUrl, pacing: false });
});

const [MANAGER] = SEED.hostedMachineIds;

async function up(kind: string, type: string, name: string, props: Props) {
  const u = dynamicUrn("dev", "proj", type, name);
  const { inputs, failures } = await fx.plugin.check(u, {}, { __provider: fx.serialized[kind], __identity: `proj/dev/${type}/${name}`, ...props });
  expect(failures).toEqual([]);
  return { urn: u, inputs, ...(await fx.plugin.create(u, inputs)) };
}

const rawGet = async (path: string) => (await fetch(`${fx.sim.url}${path}`, { headers: { authorization: `Bearer ${fx.sim.apiKey}` } })).json();

test("33.7 untrimmed cluster, overlay and charges rows: read trimmed; Cluster and Overlay refreshed through the plugin show no drift", async () => {
  const cluster = await up("cluster", "Cluster", "rack", { subnet: "10.0.0.0/24", managerMachineId: MANAGER });
  const overlay = await up("overlay", "Overlay", "net", { clusterId: Number(cluster.id), name: "team-net" });

  // As served: every string with a newline after it.
  const rawClusters = (await rawGet("/api/v0/clusters/")) as { clusters: Record<string, { subnet: string; nodes: { local_ip: string }[] }> };
  expect(rawClusters.clusters[cluster.id].subnet).toBe("10.0.0.0/24\n");
  expect(rawClusters.clusters[cluster.id].nodes[0].local_ip).toBe("10.0.0.1\n");
  expect(((await rawGet("/api/v0/overlay/")) as { name: string }[])[0].name).toBe("team-net\n");

  // As read: trimmed.
  expect(await client.clusters.list()).toEqual([expect.objectContaining({ subnet: "10.0.0.0/24", nodes: [expect.objectContaining({ localIp: "10.0.0.1" })] })]);
  expect(await client.clusters.overlays()).toEqual([expect.objectContaining({ name: "team-net" })]);
  const charges = await client.billing.charges({ start: Math.floor(Date.now() / 1000) - 30 * 86_400 });
  expect(charges.length).toBeGreaterThan(0);
  for (const c of charges) {
    for (const v of [c.type, c.source, c.description, ...c.items.flatMap((i) => [i.type, i.description])]) if (typeof v === "string") expect(v).toBe(v.trim());
  }

  // A refresh through the plugin: the inputs read back are the declared ones (no drift, no replacement).
  const readCluster = await fx.plugin.read(cluster.urn, cluster.id, cluster.properties, cluster.inputs);
  expect(readCluster.inputs).toMatchObject({ subnet: "10.0.0.0/24" });
  expect(readCluster.properties).toMatchObject({ managerLocalIp: "10.0.0.1" });
  expect(await fx.plugin.diff(cluster.urn, cluster.id, readCluster.properties, cluster.inputs)).toMatchObject({ changes: "none" });
  const readOverlay = await fx.plugin.read(overlay.urn, overlay.id, overlay.properties, overlay.inputs);
  expect(readOverlay.properties).toMatchObject({ name: "team-net" });
  expect(await fx.plugin.diff(overlay.urn, overlay.id, readOverlay.properties, overlay.inputs)).toMatchObject({ changes: "none" });

  await fx.plugin.delete(overlay.urn, overlay.id, readOverlay.properties);
  await fx.plugin.delete(cluster.urn, cluster.id, readCluster.properties);
});
