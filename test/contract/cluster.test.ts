/**
 * Cluster, ClusterMember, Overlay, OverlayMember and a Fleet's `overlay` through Pulumi's own
 * dynamic-provider plugin, with the package installed from its packed tarball, against the
 * simulator (which serves the endpoints in the vendor client's shapes).
 */
import { SEED } from "pulumi-vastai/simulator";
import { dynamicUrn } from "pulumi-vastai/testing";
import { createClient, type VastClient } from "../../provider/client";
import { testSmallLoader, useContract } from "./harness";

jest.setTimeout(120_000);

type Props = Record<string, unknown>;

const fx = useContract("cluster", { simulator: { bootMs: 0 }, config: { "vastai:pollIntervalMs": "5" } });
let client: VastClient;

beforeAll(() => {
  client = createClient({ apiKey: fx.sim.apiKey, apiUrl: fx.sim.url, runUrl: fx.sim.runUrl, pacing: false });
});

const [MANAGER, WORKER, OTHER] = SEED.hostedMachineIds;

async function up(kind: string, type: string, name: string, props: Props) {
  const u = dynamicUrn("dev", "proj", type, name);
  const { inputs, failures } = await fx.plugin.check(u, {}, { __provider: fx.serialized[kind], __identity: `proj/dev/${type}/${name}`, ...props });
  expect(failures).toEqual([]);
  return { urn: u, inputs, ...(await fx.plugin.create(u, inputs)) };
}

testSmallLoader("cluster", "Cluster");

test("27.2 Cluster, ClusterMember, Overlay and OverlayMember: created, read back, drift seen, deleted in the vendor client's shapes", async () => {
  const cluster = await up("cluster", "Cluster", "rack", { subnet: "10.0.0.0/24", managerMachineId: MANAGER });
  expect(cluster.properties).toMatchObject({ clusterId: Number(cluster.id), machineIds: [MANAGER], managerLocalIp: "10.0.0.1", adopted: false });

  const member = await up("clusterMember", "ClusterMember", "node-2", { clusterId: Number(cluster.id), machineId: WORKER });
  expect(member.id).toBe(`${cluster.id}/${WORKER}`);
  expect(member.properties.localIp).toBe("10.0.0.2");
  expect((await client.clusters.list()).map((c) => [c.id, c.nodes.map((n) => n.machineId)])).toEqual([[Number(cluster.id), [MANAGER, WORKER]]]);

  const overlay = await up("overlay", "Overlay", "net", { clusterId: Number(cluster.id), name: "team-net" });
  expect(overlay.properties).toMatchObject({ overlayId: Number(overlay.id), name: "team-net", instanceIds: [], adopted: false });
  expect(overlay.properties.internalSubnet).toMatch(/^10\.200\.\d+\.0\/24$/);

  // An instance joins an overlay of the cluster its machine is in: the account's machines are
  // hosted, not rented to it, so membership is shown on an overlay of a market cluster.
  const site = SEED.marketClusters[0];
  const siteNet = await up("overlay", "Overlay", "site-net", { clusterId: site.id, name: "site-net" });
  const instance = await client.instances.create(site.offerIds[0], { image: "ubuntu:22.04" });
  await expect(up("overlayMember", "OverlayMember", "off", { overlayName: "team-net", instanceId: instance.id })).rejects.toThrow(/incompatible_overlay/);
  const joined = await up("overlayMember", "OverlayMember", "gpu-on-net", { overlayName: "site-net", instanceId: instance.id });
  expect(joined.id).toBe(`${siteNet.id}/${instance.id}`);
  expect((await client.clusters.overlays()).find((o) => o.name === "site-net")!.instanceIds).toEqual([instance.id]);

  // The overlay's read shows its instances; a destroyed instance leaves it, so its membership reads as gone.
  const read = await fx.plugin.read(siteNet.urn, siteNet.id, siteNet.properties);
  expect(read.properties.instanceIds).toEqual([instance.id]);
  await client.instances.destroy(instance.id);
  expect((await fx.plugin.read(joined.urn, joined.id, joined.properties)).id).toBe("");
  await fx.plugin.delete(joined.urn, joined.id, joined.properties);
  await fx.plugin.delete(siteNet.urn, siteNet.id, siteNet.properties);

  // Removing the machine outside Pulumi shows as the membership gone.
  await client.clusters.removeMachine(Number(cluster.id), WORKER);
  expect((await fx.plugin.read(member.urn, member.id, member.properties)).id).toBe("");
  await fx.plugin.delete(member.urn, member.id, member.properties); // already gone: fine

  // A change of subnet replaces the cluster; the delete order the engine uses (overlay first) empties the account.
  const other = { ...cluster.inputs, subnet: "10.1.0.0/24" };
  expect(await fx.plugin.diff(cluster.urn, cluster.id, cluster.properties, other)).toMatchObject({ changes: "some", replaces: ["subnet"] });
  await expect(fx.plugin.delete(cluster.urn, cluster.id, cluster.properties)).rejects.toThrow(/Cluster \d+: deleting the cluster failed: .*carries overlays team-net/);
  await fx.plugin.delete(overlay.urn, overlay.id, overlay.properties);
  await fx.plugin.delete(cluster.urn, cluster.id, cluster.properties);
  expect(await client.clusters.list()).toEqual([]);
  expect(await client.clusters.overlays()).toEqual([]);
  expect((await fx.plugin.read(cluster.urn, cluster.id, cluster.properties)).id).toBe("");
});

test("27.2 Cluster and Overlay: what this resource did not create is never taken over, except a killed run's identical object on the first create", async () => {
  // Someone else's cluster on the machine: the create fails, naming it, and changes nothing.
  await client.clusters.create("192.168.5.0/24", OTHER);
  const theirs = (await client.clusters.list())[0];
  const u = dynamicUrn("dev", "proj", "Cluster", "clash");
  const { inputs } = await fx.plugin.check(u, {}, { __provider: fx.serialized.cluster, __identity: "proj/dev/Cluster/clash", subnet: "10.9.0.0/24", managerMachineId: OTHER });
  await expect(fx.plugin.create(u, inputs)).rejects.toThrow(`machine ${OTHER} is already in cluster ${theirs.id} (subnet 192.168.5.0/24)`);

  // A run that never recorded its create: the same resource's next first create adopts the identical cluster.
  const first = await up("cluster", "Cluster", "again", { subnet: "10.0.0.0/24", managerMachineId: MANAGER });
  const second = await up("cluster", "Cluster", "again", { subnet: "10.0.0.0/24", managerMachineId: MANAGER });
  expect(second.id).toBe(first.id);
  expect(second.properties.adopted).toBe(true);

  // An overlay name in use on another cluster fails the create.
  await client.clusters.createOverlay(theirs.id, "taken");
  const ou = dynamicUrn("dev", "proj", "Overlay", "taken");
  const checked = await fx.plugin.check(ou, {}, { __provider: fx.serialized.overlay, __identity: "proj/dev/Overlay/taken", clusterId: Number(first.id), name: "taken" });
  await expect(fx.plugin.create(ou, checked.inputs)).rejects.toThrow(/the account already has an overlay of this name \(id \d+, cluster \d+\)/);
  expect((await client.clusters.overlays()).map((o) => o.name)).toEqual(["taken"]);

  for (const o of await client.clusters.overlays()) await client.clusters.deleteOverlay(o.id);
  for (const c of await client.clusters.list()) await client.clusters.delete(c.id);
});

test("27.2 Fleet overlay: members join once they run, a healed member's replacement joins, a removed one leaves, a missing overlay rents nothing", async () => {
  // The overlay is on a cluster of the market's hosts, where members can be rented (33.7: and only there).
  const site = SEED.marketClusters[0];
  await up("overlay", "Overlay", "fleet-net", { clusterId: site.id, name: "train-net" });
  const fu = dynamicUrn("dev", "proj", "Fleet", "trainers");
  const check = async (news: Props, olds: Props = {}) => {
    const r = await fx.plugin.check(fu, olds, { __provider: fx.serialized.fleet, __identity: "proj/dev/Fleet/trainers", ...news });
    expect(r.failures).toEqual([]);
    return r.inputs;
  };
  const ids = (p: Props) => (p.members as { id: number }[]).map((m) => m.id).sort((a, b) => a - b);
  const onOverlay = async () => [...(await client.clusters.overlays()).find((o) => o.name === "train-net")!.instanceIds].sort((a, b) => a - b);
  const spec = { offer: { numGpus: 1, gpuRamGb: 24, clusterId: site.id }, image: "pytorch/pytorch", overlay: "train-net" };

  // No such overlay: refused before anything is rented.
  await expect(fx.plugin.create(fu, await check({ ...spec, overlay: "no-such-net", count: 2 }))).rejects.toThrow('overlay: the account has no overlay named "no-such-net"');
  expect(fx.sim.state().instances).toEqual([]);

  const made = await fx.plugin.create(fu, await check({ ...spec, count: 2 }));
  expect(await onOverlay()).toEqual(ids(made.properties));
  // Every member is on the overlay's cluster.
  expect(fx.sim.state().instances.map((i) => i.machine_id as number).every((m) => site.machineIds.includes(m))).toBe(true);

  // A member dies: the diff sees it, the update replaces it and the replacement joins; the dead one left when destroyed.
  const dead = (made.properties.members as { id: number }[])[0].id;
  await fx.control("POST", `/instances/${dead}/status`, { actual_status: "exited" });
  const same = await check({ ...spec, count: 2 }, made.properties);
  const healed = await fx.plugin.update(fu, made.id, made.properties, same);
  expect(ids(healed.properties)).not.toContain(dead);
  expect(await onOverlay()).toEqual(ids(healed.properties));

  // Members off the overlay (here: the overlay made anew outside Pulumi) are seen by the diff and joined by the update.
  const live = (await client.clusters.overlays()).find((o) => o.name === "train-net")!;
  await client.clusters.deleteOverlay(live.id);
  await client.clusters.createOverlay(site.id, "train-net");
  expect(await onOverlay()).toEqual([]);
  expect(await fx.plugin.diff(fu, made.id, healed.properties, same)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const rejoined = await fx.plugin.update(fu, made.id, healed.properties, same);
  expect(ids(rejoined.properties)).toEqual(ids(healed.properties));
  expect(await onOverlay()).toEqual(ids(healed.properties));

  // Scale in: the member removed is destroyed, which takes it off the overlay.
  const one = await fx.plugin.update(fu, made.id, rejoined.properties, await check({ ...spec, count: 1 }, rejoined.properties));
  expect(await onOverlay()).toEqual(ids(one.properties));
  expect(ids(one.properties)).toHaveLength(1);
  await fx.plugin.delete(fu, made.id, one.properties);
  expect(await onOverlay()).toEqual([]);
  expect(fx.sim.state().instances).toEqual([]);
});

test("33.7 Fleet overlay rents only on the overlay's cluster: check refuses an overlay without offer.clusterId, create one on another cluster", async () => {
  const [site, other] = SEED.marketClusters;
  await up("overlay", "Overlay", "site-net", { clusterId: site.id, name: "site-net" });
  const fu = dynamicUrn("dev", "proj", "Fleet", "pinned");
  const check = (news: Props) => fx.plugin.check(fu, {}, { __provider: fx.serialized.fleet, __identity: "proj/dev/Fleet/pinned", ...news });
  const base = { count: 2, image: "pytorch/pytorch", overlay: "site-net" };

  // Without a cluster the cheapest matches (offers off the cluster) would be rented and could not join.
  const bare = await check({ ...base, offer: { numGpus: 1, gpuRamGb: 24 } });
  expect(bare.failures).toEqual([{ property: "offer.clusterId", reason: expect.stringMatching(/^offer\.clusterId: is required with overlay: overlay "site-net" is local networking on one physical cluster/) }]);
  // A set of clusters is no one cluster.
  const several = await check({ ...base, offer: { numGpus: 1, clusterId: { in: [site.id, other.id] } } });
  expect(several.failures).toEqual([{ property: "offer.clusterId", reason: expect.stringMatching(/must name the overlay's one cluster \(a cluster id, or \{eq: id\}\)/) }]);

  // Another cluster than the overlay's: refused before anything is rented.
  const elsewhere = await check({ ...base, offer: { clusterId: other.id } });
  expect(elsewhere.failures).toEqual([]);
  await expect(fx.plugin.create(fu, elsewhere.inputs)).rejects.toThrow(`offer.clusterId is ${other.id}, but overlay "site-net" is on cluster ${site.id}`);
  expect(fx.sim.state().instances).toEqual([]);

  // The overlay's cluster: every member is rented there (not on the cheaper offers elsewhere) and joins.
  const pinned = await check({ ...base, offer: { numGpus: 1, gpuRamGb: 24, clusterId: { eq: site.id } } });
  expect(pinned.failures).toEqual([]);
  const made = await fx.plugin.create(fu, pinned.inputs);
  const members = (made.properties.members as { id: number }[]).map((m) => m.id).sort((a, b) => a - b);
  expect(members).toHaveLength(2);
  expect(fx.sim.state().instances.map((i) => i.machine_id as number).every((m) => site.machineIds.includes(m))).toBe(true);
  expect([...(await client.clusters.overlays()).find((o) => o.name === "site-net")!.instanceIds].sort((a, b) => a - b)).toEqual(members);
  await fx.plugin.delete(fu, made.id, made.properties);
  for (const o of await client.clusters.overlays()) await client.clusters.deleteOverlay(o.id);
  expect(fx.sim.state().instances).toEqual([]);
});
