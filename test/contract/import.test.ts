/**
 * `importId` through Pulumi's own dynamic-provider plugin, from the package as a user installs
 * it, against the simulator: for each kind, an object made outside the program (with the
 * client) is taken over with matching inputs (no create request), the next diff is empty, an
 * in-place change works where the kind has one, a refresh then a diff shows nothing, and the
 * delete deletes it; declared inputs that could change only by replacement fail the import
 * with the object untouched; the action kinds refuse importId.
 */
import { SEED } from "pulumi-vastai/simulator";
import { createClient, type VastClient } from "../../provider/client";
import { dynamicUrn } from "pulumi-vastai/testing";
import { useContract } from "./harness";
import { planOf } from "../../provider/resources/maintenanceWindow/inputs";
import { windowId } from "../../provider/resources/maintenanceWindow/outputs";
import { planOf as jobPlanOf } from "../../provider/resources/scheduledJob/plan";

jest.setTimeout(120_000);

type Props = Record<string, unknown>;

const fx = useContract("template", { simulator: { bootMs: 0 }, config: { "vastai:pollIntervalMs": "5", "vastai:lostResponseLookups": "2" } });
let client: VastClient;

beforeAll(() => {
  client = createClient({ apiKey: fx.sim.apiKey, apiUrl: fx.sim.url, runUrl: fx.sim.runUrl, pacing: false });
});

const urn = (type: string, name: string) => dynamicUrn("dev", "proj", type, name);
const withProvider = (kind: string, type: string, name: string, props: Props): Props => ({
  __provider: fx.serialized[kind],
  __identity: `proj/dev/${type}/${name}`,
  ...props,
});

/** The requests that change something (reads and searches left out). */
async function writes(): Promise<string[]> {
  return (await fx.takeRequests()).filter((r) => r.method !== "GET" && !r.path.includes("search")).map((r) => `${r.method} ${r.path}`);
}

const NONE = { changes: "none", replaces: [], deleteBeforeReplace: false };

interface Cycle {
  kind: string;
  type: string;
  importId: string;
  /** The program's inputs, matching the object. */
  props: Props;
  /** An in-place change of the inputs and the writes it makes, where the kind has one. */
  change?: { props: Props; writes: string[] };
  /** The delete cannot remove the object (the service has no call): it stays, and the resource only leaves state. */
  deleteKeeps?: boolean;
}

/**
 * import (no create, no write) -> diff none -> refresh -> diff none -> [in-place change] ->
 * delete; returns the state after import for more checks.
 */
async function importCycle(c: Cycle): Promise<Props> {
  const u = urn(c.type, "adopted");
  await fx.takeRequests();
  const checked = await fx.plugin.check(u, {}, withProvider(c.kind, c.type, "adopted", { ...c.props, importId: c.importId }));
  expect(checked.failures).toEqual([]);
  const created = await fx.plugin.create(u, checked.inputs);
  expect(created.id).toBe(c.importId);
  expect(created.properties).toMatchObject({ importId: c.importId, imported: true });
  expect(await writes()).toEqual([]);
  expect(await fx.plugin.diff(u, created.id, created.properties, checked.inputs)).toEqual(NONE);

  // A refresh rebuilds the inputs the service shows; the next up (check against them) shows no change.
  const read = await fx.plugin.read(u, created.id, created.properties, checked.inputs);
  expect(read.id).toBe(created.id);
  expect(read.inputs).toMatchObject({ importId: c.importId });
  const next = await fx.plugin.check(u, read.inputs, withProvider(c.kind, c.type, "adopted", { ...c.props, importId: c.importId }));
  expect(next.failures).toEqual([]);
  expect(await fx.plugin.diff(u, created.id, read.properties, next.inputs)).toEqual(NONE);
  expect(await writes()).toEqual([]);

  let state = read.properties;
  if (c.change) {
    const changed = await fx.plugin.check(u, read.inputs, withProvider(c.kind, c.type, "adopted", { ...c.props, ...c.change.props, importId: c.importId }));
    expect(await fx.plugin.diff(u, created.id, state, changed.inputs)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
    const updated = await fx.plugin.update(u, created.id, state, changed.inputs);
    expect(updated.properties).toMatchObject({ ...c.change.props, imported: true });
    expect(await writes()).toEqual(c.change.writes);
    state = updated.properties;
  }
  // A later change of importId is recorded only: no replacement, nothing sent.
  const renamed = await fx.plugin.check(u, state, withProvider(c.kind, c.type, "adopted", { ...c.props, ...c.change?.props, importId: "999999" }));
  const recorded = await fx.plugin.diff(u, created.id, state, renamed.inputs);
  expect(recorded).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const kept = await fx.plugin.update(u, created.id, state, renamed.inputs);
  expect(kept.properties).toMatchObject({ importId: "999999", imported: true });
  expect(await writes()).toEqual([]);

  await fx.plugin.delete(u, created.id, kept.properties);
  expect((await fx.plugin.read(u, created.id, kept.properties)).id).toBe(c.deleteKeeps ? created.id : "");
  return created.properties;
}

/** The create's error message (fails the test when the create succeeds). */
async function importFails(kind: string, type: string, props: Props): Promise<string> {
  const u = urn(type, "mismatch");
  const checked = await fx.plugin.check(u, {}, withProvider(kind, type, "mismatch", props));
  expect(checked.failures).toEqual([]);
  await fx.takeRequests();
  const message = await fx.plugin.create(u, checked.inputs).then(
    () => "",
    (e: Error) => e.message,
  );
  expect(message).not.toBe("");
  expect(await writes()).toEqual([]);
  return message;
}

test("Template: taken over by its numeric id; fields left out keep the template's; an edit is in place", async () => {
  const { template } = await client.templates.create({ name: "outside", image: "vastai/base", tag: "cuda-12", onstart: "echo hi", env: { A: "1" }, ports: [] });
  const id = String(template.id);
  const state = await importCycle({
    kind: "template",
    type: "Template",
    importId: id,
    props: { name: "outside", image: "vastai/base" },
    change: { props: { name: "renamed" }, writes: [`PUT /api/v0/template/`] },
  });
  expect(state).toMatchObject({ templateId: Number(id), tag: "cuda-12", onstart: "echo hi", env: { A: "1" }, adopted: false });
  const missing = await importFails("template", "Template", { name: "x", image: "vastai/base", importId: "424242" });
  expect(missing).toContain('Template importId "424242": no such template exists on the account');
});

test("SshKey: taken over by its key id; a new key text is written in place", async () => {
  const key = await client.sshKeys.create("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOutsideOutsideOutsideOutsideOutsideOut0 me@host");
  await importCycle({
    kind: "sshKey",
    type: "SshKey",
    importId: String(key.id),
    props: { publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOutsideOutsideOutsideOutsideOutsideOut0 me@host" },
    change: { props: { publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIChangedChangedChangedChangedChangedCha0 me@host" }, writes: [`PUT /api/v0/ssh/${key.id}/`] },
  });
});

test("Volume and NetworkVolume: taken over keeping name and size; a different size fails with the volume untouched", async () => {
  const local = await client.volumes.create("local", { offerId: 900001, sizeGb: 40, name: "outside-data" });
  const before = JSON.stringify(fx.sim.state().volumes);
  const mismatch = await importFails("volume", "Volume", { importId: String(local.id), sizeGb: 80 });
  expect(mismatch).toContain(`Volume importId "${local.id}"`);
  expect(mismatch).toContain("sizeGb: declared 80, the service shows 40");
  expect(JSON.stringify(fx.sim.state().volumes)).toBe(before);
  const state = await importCycle({ kind: "volume", type: "Volume", importId: String(local.id), props: {} });
  expect(state).toMatchObject({ name: "outside-data", sizeGb: 40, volumeId: local.id });
  expect(state).not.toHaveProperty("nameMarker");

  const shared = await client.volumes.create("network", { offerId: 950002, sizeGb: 100, name: "outside-shared" });
  await importCycle({ kind: "networkVolume", type: "NetworkVolume", importId: String(shared.id), props: { sizeGb: 100, name: "outside-shared" } });

  // A replacement of an imported volume (a later run) rents a new one; it never takes the old one over again.
  const again = await client.volumes.create("local", { offerId: 900001, sizeGb: 40, name: "again" });
  const u = urn("Volume", "again");
  const first = await fx.plugin.check(u, {}, withProvider("volume", "Volume", "again", { importId: String(again.id) }));
  const taken = await fx.plugin.create(u, first.inputs);
  const bigger = await fx.plugin.check(u, first.inputs, withProvider("volume", "Volume", "again", { importId: String(again.id), offerId: 900001, sizeGb: 60 }));
  expect(await fx.plugin.diff(u, taken.id, taken.properties, bigger.inputs)).toEqual({ changes: "some", replaces: ["offerId", "sizeGb"], deleteBeforeReplace: false });
  await fx.takeRequests();
  const replacement = await fx.plugin.create(u, bigger.inputs);
  expect(replacement.id).not.toBe(taken.id);
  expect(replacement.properties).toMatchObject({ sizeGb: 60, importId: String(again.id) });
  expect(replacement.properties).not.toHaveProperty("imported");
  expect(await writes()).toEqual(["PUT /api/v0/volumes/"]);
  await fx.plugin.delete(u, taken.id, taken.properties);
  await fx.plugin.delete(u, replacement.id, replacement.properties);
});

test("Endpoint and WorkerGroup: taken over by id; settings change in place", async () => {
  const endpointId = await client.endpointGroups.create({ name: "outside-llm", maxWorkers: 3 });
  const groupId = await client.workerGroups.create({ endpointId, searchParams: "gpu_ram>=23", testWorkers: 1 });
  await importCycle({
    kind: "workerGroup",
    type: "WorkerGroup",
    importId: String(groupId),
    props: { searchParams: "gpu_ram>=23" },
    change: { props: { searchParams: "gpu_ram>=40" }, writes: [`PUT /api/v0/workergroups/${groupId}/`] },
  });
  await importCycle({
    kind: "endpoint",
    type: "Endpoint",
    importId: String(endpointId),
    props: { name: "outside-llm", maxWorkers: 3 },
    change: { props: { maxWorkers: 5 }, writes: [`PUT /api/v0/endptjobs/${endpointId}/`] },
  });
});

test("Webhook: taken over keeping its name; no secret until a rotation", async () => {
  const hook = await client.webhooks.create({ name: "outside-ops", url: "https://ops.example.com/hook", eventTypes: ["client:low_credit"] });
  const state = await importCycle({
    kind: "webhook",
    type: "Webhook",
    importId: String(hook.id),
    props: { url: "https://ops.example.com/hook", eventTypes: ["client:low_credit"] },
    change: { props: { url: "https://ops.example.com/new" }, writes: [`PUT /api/v0/webhooks/${hook.id}/`] },
  });
  expect(state).toMatchObject({ name: "outside-ops", webhookId: hook.id });
  expect(state).not.toHaveProperty("secret");
});

test("EnvVar: taken over by name; the declared value is set (the service never shows it)", async () => {
  await client.secrets.add("OUTSIDE_TOKEN", "old-value-123");
  const u = urn("EnvVar", "adopted");
  const checked = await fx.plugin.check(u, {}, withProvider("envVar", "EnvVar", "adopted", { value: "new-value-456", importId: "outside_token" }));
  expect(checked.failures).toEqual([]);
  await fx.takeRequests();
  const created = await fx.plugin.create(u, checked.inputs);
  expect(created).toMatchObject({ id: "OUTSIDE_TOKEN", properties: { key: "OUTSIDE_TOKEN", imported: true } });
  expect(await writes()).toEqual(["PUT /api/v0/secrets/"]);
  const read = await fx.plugin.read(u, created.id, created.properties, checked.inputs);
  const next = await fx.plugin.check(u, read.inputs, withProvider("envVar", "EnvVar", "adopted", { value: "new-value-456", importId: "outside_token" }));
  expect(await fx.plugin.diff(u, created.id, read.properties, next.inputs)).toEqual(NONE);
  await fx.plugin.delete(u, created.id, read.properties);
  expect(await client.secrets.list()).not.toHaveProperty("OUTSIDE_TOKEN");
});

test("ApiKey: taken over keeping name and scopes, no key value; another name fails with the key untouched", async () => {
  const made = await client.apiKeys.create({ name: "outside-ci", scopes: ["instance_read"] });
  const mismatch = await importFails("apiKey", "ApiKey", { name: "other", importId: String(made.id) });
  expect(mismatch).toContain('name: declared "other", the service shows "outside-ci"');
  expect(mismatch).not.toContain(made.key);
  const state = await importCycle({ kind: "apiKey", type: "ApiKey", importId: String(made.id), props: {} });
  expect(state).toMatchObject({ name: "outside-ci", permissions: { instances: "read" }, keyId: made.id });
  expect(state).not.toHaveProperty("key");
});

test("MaintenanceWindow: taken over when the declared plan makes the id; another plan fails", async () => {
  const start = Math.floor(Date.now() / 1000) + 7 * 86400;
  const machineIds = SEED.hostedMachineIds.slice(0, 2);
  await client.machines.scheduleMaintenance({ machineIds, startTime: start, durationHours: 2, category: "gpu" });
  const props = { machineIds, startTime: new Date(start * 1000).toISOString(), durationHours: 2, category: "gpu" };
  // The id a MaintenanceWindow of this plan has (what `pulumi stack export` shows for one).
  const importId = windowId(planOf(props));
  const wrong = await importFails("maintenanceWindow", "MaintenanceWindow", { ...props, durationHours: 3, importId });
  expect(wrong).toContain("make the id");
  const state = await importCycle({ kind: "maintenanceWindow", type: "MaintenanceWindow", importId, props, change: { props: { allowPartial: true }, writes: [] } });
  expect((state.maintenanceIds as number[]).length).toBe(2);
  expect(state).toMatchObject({ startTimeUnix: start, endTimeUnix: start + 7200, scheduledMachineIds: machineIds, status: "scheduled" });
});

test("RsyncCopy and SubaccountKeyRotation refuse importId: they are actions, not objects", async () => {
  const copy = await fx.plugin.check(urn("RsyncCopy", "c"), {}, withProvider("rsyncCopy", "RsyncCopy", "c", { srcId: 1, dstId: 2, srcPath: "/a", dstPath: "/b", importId: "1" }));
  expect(copy.failures).toEqual([{ property: "importId", reason: expect.stringContaining("importId: RsyncCopy cannot be imported") }]);
  const rotation = await fx.plugin.check(urn("SubaccountKeyRotation", "r"), {}, withProvider("subaccountKeyRotation", "SubaccountKeyRotation", "r", { all: true, importId: "1" }));
  expect(rotation.failures).toEqual([{ property: "importId", reason: expect.stringContaining("importId: SubaccountKeyRotation cannot be imported") }]);
});

describe("issue 27: importId on the account's teams, subaccounts, clusters, overlays and scheduled jobs", () => {
  test("27.1 TeamRole and TeamMember: a role by its id (permissions changed in place), a member who accepted by address; a pending invitation cannot be imported", async () => {
    await client.teams.create({ name: "outside-team" });
    await client.teams.createRole({ name: "outside-dev", scopes: ["instance_read"] });
    const role = await client.teams.role("outside-dev");
    const state = await importCycle({
      kind: "teamRole",
      type: "TeamRole",
      importId: String(role?.id),
      props: { name: "outside-dev", permissions: { instances: "read" } },
      change: { props: { permissions: { instances: "write" } }, writes: [`PUT /api/v0/team/roles/${role?.id}/`] },
    });
    expect(state).toMatchObject({ roleId: role?.id, scopes: ["instance_read"] });

    await client.teams.invite("ana@example.com", "member");
    await fx.control("POST", "/team/invitations/accept", { email: "ana@example.com" });
    const member = await importCycle({ kind: "teamMember", type: "TeamMember", importId: "ana@example.com", props: { email: "ana@example.com", role: "member" } });
    expect(member).toMatchObject({ status: "member", pending: false, memberId: expect.any(Number) });
    expect((await client.teams.members()).map((m) => m.email)).not.toContain("ana@example.com");

    await client.teams.invite("bo@example.com", "member");
    const pending = await importFails("teamMember", "TeamMember", { email: "bo@example.com", role: "member", importId: "bo@example.com" });
    expect(pending).toContain('TeamMember importId "bo@example.com": no such team member');
    const otherAddress = await importFails("teamMember", "TeamMember", { email: "cy@example.com", role: "member", importId: "bo@example.com" });
    expect(otherAddress).toContain("the declared email is");
    await client.teams.destroy();
  });

  test("27.1 Subaccount: taken over by its user id with the password recorded only; delete leaves it (the service has no call)", async () => {
    const made = await client.subaccountAccounts.create({ email: "outside-bot@example.com", username: "outside-bot", password: "outside-Passw0rd", hostOnly: false });
    const state = await importCycle({
      kind: "subaccount",
      type: "Subaccount",
      importId: String(made.id),
      props: { email: "outside-bot@example.com", username: "outside-bot", password: "declared-Passw0rd" },
      deleteKeeps: true,
    });
    expect(state).toMatchObject({ userId: made.id, keyId: made.keyId });
    const other = await importFails("subaccount", "Subaccount", { email: "someone@example.com", username: "outside-bot", password: "declared-Passw0rd", importId: String(made.id) });
    expect(other).toContain('email: declared "someone@example.com", the service shows "outside-bot@example.com"');
    expect(other).not.toContain("Passw0rd");
  });

  test("27.2 Cluster, ClusterMember, Overlay and OverlayMember: each taken over by its id; a wrong cluster or instance fails with nothing changed", async () => {
    const [manager, node] = [SEED.hostedMachineIds[5], SEED.hostedMachineIds[7]];
    await client.clusters.create("10.91.0.0/24", manager);
    const cluster = (await client.clusters.list()).find((c) => c.managerId === manager)!;
    await client.clusters.join(cluster.id, [node]);
    // An instance joins an overlay of its machine's cluster: the overlay is on a market cluster.
    const site = SEED.marketClusters[0];
    await client.clusters.createOverlay(site.id, "outside-net");
    const overlay = (await client.clusters.overlays()).find((o) => o.name === "outside-net")!;
    const instance = await client.instances.create(site.offerIds[1], { image: "alpine" });
    await client.clusters.joinOverlay("outside-net", instance.id);
    const before = JSON.stringify([fx.sim.state().clusters, fx.sim.state().overlays]);

    const wrongNet = await importFails("overlayMember", "OverlayMember", { overlayName: "other-net", instanceId: instance.id, importId: `${overlay.id}/${instance.id}` });
    expect(wrongNet).toContain('overlayName: declared "other-net", the service shows "outside-net"');
    const wrongMachine = await importFails("clusterMember", "ClusterMember", { clusterId: cluster.id, machineId: manager, importId: `${cluster.id}/${node}` });
    expect(wrongMachine).toContain(`make the id "${cluster.id}/${manager}"`);
    expect(JSON.stringify([fx.sim.state().clusters, fx.sim.state().overlays])).toBe(before);

    // The membership stays after the resource's delete (no call leaves an overlay).
    await importCycle({ kind: "overlayMember", type: "OverlayMember", importId: `${overlay.id}/${instance.id}`, props: { overlayName: "outside-net", instanceId: instance.id }, deleteKeeps: true });
    await importCycle({ kind: "overlay", type: "Overlay", importId: String(overlay.id), props: { clusterId: site.id, name: "outside-net" } });
    await importCycle({ kind: "clusterMember", type: "ClusterMember", importId: `${cluster.id}/${node}`, props: { clusterId: cluster.id, machineId: node } });
    const state = await importCycle({ kind: "cluster", type: "Cluster", importId: String(cluster.id), props: { subnet: "10.91.0.0/24", managerMachineId: manager } });
    expect(state).toMatchObject({ clusterId: cluster.id, adopted: false });
    await client.instances.destroy(instance.id);
  });

  test("27.3 ScheduledJob: taken over by its id; a new hour is written in place", async () => {
    const instance = await client.instances.create(SEED.offerIds[4], { image: "alpine" });
    const props = { instanceId: instance.id, action: "reboot", frequency: "DAILY", hour: 3, timeZone: "UTC", end: "2099-01-01T00:00:00Z" };
    const { job } = await client.scheduledJobs.create(jobPlanOf(props, new Date().toISOString()));
    const state = await importCycle({
      kind: "scheduledJob",
      type: "ScheduledJob",
      importId: String(job.id),
      props,
      change: { props: { hour: 4 }, writes: [`PUT /api/v0/commands/schedule_job/${job.id}/`] },
    });
    expect(state).toMatchObject({ jobId: job.id, hourUtc: 3 });
    await client.instances.destroy(instance.id);
  });

  test("27.1 Team refuses importId: the service cannot read a team back", async () => {
    const team = await fx.plugin.check(urn("Team", "t"), {}, withProvider("team", "Team", "t", { name: "ml", importId: "ml" }));
    expect(team.failures).toEqual([{ property: "importId", reason: expect.stringContaining("importId: Team cannot be imported: the service has no call that reads a team") }]);
  });
});
