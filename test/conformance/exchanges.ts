/**
 * Drives every endpoint the client calls against the simulator, recording each exchange as it
 * crossed the wire (a transport hook around the real got transport).
 */
import { SEED, startSimulator, type Simulator } from "pulumi-vastai/simulator";
import { createClient, type VastClient } from "../../provider/client";
import { gotTransport, type Exchange, type ExchangeResult, type Transport } from "../../provider/client/transport";

export interface Recorded {
  method: string;
  /** Path on its base URL (the run URL's prefix removed), without the query. */
  path: string;
  query: Record<string, string>;
  requestBody: unknown;
  status: number;
  responseBody: unknown;
  /** Which client call made it, for messages. */
  step: string;
}

const KEY_A = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIConformanceKeyA conformance@test";
const KEY_B = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIConformanceKeyB conformance@test";

function parseJson(text: string | undefined): unknown {
  if (text === undefined || text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function recordExchanges(): Promise<{ sim: Simulator; recorded: Recorded[] }> {
  const sim = await startSimulator({ port: 0, bootMs: 0 });
  const recorded: Recorded[] = [];
  let step = "";
  const transport: Transport = async (exchange: Exchange): Promise<ExchangeResult> => {
    const result = await gotTransport(exchange);
    const url = new URL(exchange.url);
    const runPath = new URL(sim.runUrl).pathname.replace(/\/+$/, "");
    const onRun = exchange.url.startsWith(sim.runUrl);
    recorded.push({
      method: exchange.method,
      path: onRun ? url.pathname.slice(runPath.length) || "/" : url.pathname,
      query: Object.fromEntries(url.searchParams.entries()),
      requestBody: parseJson(exchange.body),
      status: result.status,
      responseBody: parseJson(result.body),
      step,
    });
    return result;
  };
  transport.ready = gotTransport.ready;
  const client: VastClient = createClient({ apiKey: sim.apiKey, apiUrl: sim.url, runUrl: sim.runUrl, pacing: false, transport, maxAttempts: 1 });
  const run = async <T>(name: string, call: () => Promise<T>): Promise<T> => {
    step = name;
    return call();
  };
  const fails = async (name: string, call: () => Promise<unknown>) => {
    step = name;
    await call().then(
      () => {
        throw new Error(`${name}: expected the service to refuse`);
      },
      () => undefined,
    );
  };

  try {
    await run("users.current", () => client.users.current());

    await run("sshKeys.list (none)", () => client.sshKeys.list());
    await fails("sshKeys.create (not a key)", () => client.sshKeys.create("not a key"));
    const key = await run("sshKeys.create", () => client.sshKeys.create(KEY_A));
    await run("sshKeys.list", () => client.sshKeys.list());
    await run("sshKeys.update", () => client.sshKeys.update(key.id, KEY_B));

    await run("secrets.add", () => client.secrets.add("HF_TOKEN", "hf_abc.123-x"));
    await run("secrets.list", () => client.secrets.list());
    await run("secrets.update", () => client.secrets.update("HF_TOKEN", "hf_def.456"));
    await run("secrets.delete", () => client.secrets.delete("HF_TOKEN"));
    await run("secrets.delete (unknown)", () => client.secrets.delete("HF_TOKEN"));
    await run("secrets.add", () => client.secrets.add("HF_TOKEN", "again"));
    await fails("secrets.add (existing)", () => client.secrets.add("HF_TOKEN", "again"));

    const apiKey = await run("apiKeys.create", () => client.apiKeys.create({ name: "reader", permissions: { api: { instance_read: {}, user_read: {} } } }));
    await fails("apiKeys.create (unknown scope)", () => client.apiKeys.create({ name: "bad", permissions: JSON.parse('{"api": {"instance_admin": {}}}') }));
    await run("apiKeys.list", () => client.apiKeys.list());
    await run("apiKeys.delete", () => client.apiKeys.delete(apiKey.id));
    await run("apiKeys.delete (gone)", () => client.apiKeys.delete(apiKey.id));

    await run("subaccounts.regenerateKeys", () => client.subaccounts.regenerateKeys({ subaccountUserId: SEED.subaccounts[0].userId }));

    await run("templates.search", () => client.templates.search({ name: "Ubuntu SSH" }));
    await run("templates.search (none)", () => client.templates.search({ name: "no such template" }));
    await fails("templates.create (no image)", () => client.templates.create({ name: "broken", image: "" }));
    const created = await run("templates.create", () =>
      client.templates.create({ name: "conformance", image: "ubuntu", tag: "22.04", env: { MODE: "fast" }, ports: ["8000:8000"], runtype: "ssh", private: true }),
    );
    const edited = await run("templates.edit", () => client.templates.edit(created.template.hashId, { desc: "edited" }));
    await run("templates.delete", () => client.templates.delete(edited.id as number));

    const offers = await run("offers.search", () => client.offers.search({ filters: { gpuName: "RTX 4090" }, allocatedStorageGb: 40, limit: 5 }));
    await run("bundles.accept", () => client.bundles.accept(offers[0].id, { price: 0.5, maxStart: 10, minDuration: 3600 }));

    const a = await run("instances.create", () =>
      client.instances.create(offers[0].id, { image: "ubuntu:22.04", label: "conf-a", env: { MODE: "fast" }, ports: ["8000:8000"], disk: 40 }),
    );
    // A rented offer is taken until its instance goes: each create rents an offer of its own.
    const b = await run("instances.create", () => client.instances.create(offers[1].id, { image: "ubuntu:22.04", label: "conf-b" }));
    await fails("instances.create (no such offer)", () => client.instances.create(1, { image: "ubuntu:22.04" }));
    await fails("instances.setLabel (no such instance)", () => client.instances.setLabel(999_999, "x"));
    await run("instances.list", () => client.instances.list());
    await run("instances.listPage", () => client.instances.listPage({ limit: 5 }));
    await run("instances.get", () => client.instances.get(a.id));
    await run("instances.setLabel", () => client.instances.setLabel(a.id, "conf-a2"));
    await run("instances.stop", () => client.instances.stop(a.id));
    await run("instances.start", () => client.instances.start(a.id));
    await run("instances.attachSshKey", () => client.instances.attachSshKey(a.id, KEY_A));
    await run("instances.detachSshKey", () => client.instances.detachSshKey(a.id, key.id));
    await fails("instances.detachSshKey (not attached)", () => client.instances.detachSshKey(a.id, key.id));
    const bid = await run("instances.create (bid)", () => client.instances.create(offers[2].id, { image: "ubuntu:22.04", price: 0.5, cancelUnavail: true }));
    await run("instanceActions.changeBid", () => client.instanceActions.changeBid(bid.id, 0.6));
    const nightly = { instanceId: bid.id, apiEndpoint: `/api/v0/instances/bid_price/${bid.id}/`, requestMethod: "PUT" as const, requestBody: { client_id: "me", price: 0.6, instance_id: bid.id }, frequency: "DAILY" as const, hourUtc: 20, start: "2030-01-01T00:00:00Z", end: "2030-02-01T00:00:00Z" };
    const job = await run("scheduledJobs.create", () => client.scheduledJobs.create(nightly));
    await run("scheduledJobs.create (exists: 422)", () => client.scheduledJobs.create(nightly));
    await run("scheduledJobs.list", () => client.scheduledJobs.list());
    await run("scheduledJobs.update", () => client.scheduledJobs.update(job.job.id, { ...nightly, hourUtc: 21 }));
    await run("scheduledJobs.delete", () => client.scheduledJobs.delete(job.job.id));
    await fails("instanceActions.changeBid (on-demand)", () => client.instanceActions.changeBid(b.id, 0.6));
    await fails("instanceActions.changeBid (no such instance)", () => client.instanceActions.changeBid(999_999, 0.6));
    await run("instanceActions.reboot", () => client.instanceActions.reboot(a.id));
    await run("instanceActions.recycle", () => client.instanceActions.recycle(a.id));
    await run("instanceActions.prepay", () => client.instanceActions.prepay(a.id, 25));
    await fails("instanceActions.prepay (no such instance)", () => client.instanceActions.prepay(999_999, 25));
    await run("instanceActions.balance", () => client.instanceActions.balance(a.id));
    await run("instanceActions.updateTemplate", () => client.instanceActions.updateTemplate(a.id, { image: "ubuntu:24.04", env: { MODE: "slow" }, onstart: "echo hi", argsStr: "--x" }));
    await fails("instanceActions.updateTemplate (stopped)", async () => {
      await client.instances.stop(b.id);
      await client.instanceActions.updateTemplate(b.id, { image: "ubuntu:24.04" });
    });
    await fails("instanceActions.updateTemplate (no such instance)", () => client.instanceActions.updateTemplate(999_999, { image: "x" }));
    await run("copy.rsync", () => client.copy.rsync({ srcId: a.id, dstId: b.id, srcPath: "/workspace/", dstPath: "/data/" }));
    await run("copy.copyDirect", () => client.copy.copyDirect({ srcId: `C.${a.id}`, dstId: b.id, srcPath: "/workspace/", dstPath: "/data/" }));
    await run("instances.destroy", () => client.instances.destroy(a.id));
    await run("instances.destroy (gone)", () => client.instances.destroy(a.id));

    await run("sshKeys.delete", () => client.sshKeys.delete(key.id));
    await run("sshKeys.delete (gone)", () => client.sshKeys.delete(key.id));

    const machineId = SEED.hostedMachineIds[0];
    await run("machines.list", () => client.machines.list());
    await run("machines.get", () => client.machines.get(machineId));
    await run("machines.listMachine", () =>
      client.machines.listMachine(machineId, { pricePerGpu: 0.45, storagePricePerGbMonth: 0.12, minBidPerGpu: 0.25, minGpus: 1, discountRate: 0.3, endDate: Math.floor(Date.now() / 1000) + 30 * 86_400 }),
    );
    await run("machines.setMinBid", () => client.machines.setMinBid(machineId, 0.2));
    await run("machines.setDefaultJob", () => client.machines.setDefaultJob(machineId, { pricePerGpu: 0.1, uploadPricePerGb: 0.01, downloadPricePerGb: 0.01, image: "vastai/base:latest", args: ["--x"] }));
    await run("machines.removeDefaultJob", () => client.machines.removeDefaultJob(machineId));
    await run("machines.unlistMachine", () => client.machines.unlistMachine(machineId));
    await run("machines.scheduleMaintenance", () =>
      client.machines.scheduleMaintenance({ machineIds: [machineId], startTime: Math.floor(Date.now() / 1000) + 86_400, durationHours: 2, category: "gpu" }),
    );
    const windows = await run("machines.listMaintenances", () => client.machines.listMaintenances([machineId]));
    await run("machines.cancelMaintenances", () => client.machines.cancelMaintenances(windows.map((w) => w.id)));

    await run("serverless.workerGroupLogs", () => client.serverless.workerGroupLogs({ workerGroupId: SEED.workerGroup.id, tail: 5 }));
    await fails("serverless.workerGroupLogs (unknown group)", () => client.serverless.workerGroupLogs({ workerGroupId: 999_999 }));
    await run("deployments.versions", () => client.deployments.versions(SEED.deployment.id));
    await run("autoscaler.templates", () => client.autoscaler.templates(SEED.user.id));
    await run("earnings.chart", () => client.earnings.chart());

    // Volumes: both searches, a local and a network volume, a link at instance creation, the
    // refusal to delete a volume in use, and the deletes.
    const volumeOffers = await run("volumes.searchOffers", () => client.volumes.searchOffers("local", { filters: { storageCost: { lte: 0.2 } }, limit: 3 }));
    await run("volumes.searchOffers (network)", () => client.volumes.searchOffers("network", { limit: 2 }));
    const local = await run("volumes.create", () => client.volumes.create("local", { offerId: volumeOffers[0].id, sizeGb: 20, name: "conf" }));
    await fails("volumes.create (too large)", () => client.volumes.create("local", { offerId: volumeOffers[0].id, sizeGb: 1_000_000 }));
    const network = await run("volumes.create (network)", () => client.volumes.create("network", { offerId: 950001, sizeGb: 20 }));
    const beside = (await client.offers.search({ filters: { machineId: volumeOffers[0].machineId ?? 0 }, noDefaults: true }))[0];
    const user = await run("instances.create (volume link)", () =>
      client.instances.create(beside.id, { image: "ubuntu:22.04", volumeInfo: { createNew: false, volumeId: local.id ?? 0, mountPath: "/data" } }),
    );
    await run("volumes.list", () => client.volumes.list("local"));
    await fails("volumes.delete (in use)", () => client.volumes.delete(local.id ?? 0));
    await run("instances.destroy", () => client.instances.destroy(user.id));
    await run("volumes.delete", () => client.volumes.delete(local.id ?? 0));
    await run("volumes.delete (network)", () => client.volumes.delete(network.id ?? 0));
    await run("volumes.delete (gone)", () => client.volumes.delete(network.id ?? 0));
    await run("volumes.list (all)", () => client.volumes.list());
    // A host's volume listings: list disk on a machine and on a network disk, unlist both, and
    // the documented refusals of unlist (a listing renters hold volumes on; one that is gone).
    const machineListing = await run("volumeListings.listOnMachine", () => client.volumeListings.listOnMachine(SEED.hostedMachineIds[0], { sizeGb: 100, pricePerGbMonth: 0.08 }));
    const rentedFromListing = await client.volumes.create("local", { offerId: machineListing.listing?.id ?? 0, sizeGb: 10 });
    await fails("volumeListings.unlist (active)", () => client.volumeListings.unlist("local", machineListing.listing?.id ?? 0));
    await client.volumes.delete(rentedFromListing.id ?? 0);
    await run("volumeListings.unlist", () => client.volumeListings.unlist("local", machineListing.listing?.id ?? 0));
    await run("volumeListings.unlist (gone)", () => client.volumeListings.unlist("local", machineListing.listing?.id ?? 0));
    const diskListing = await run("volumeListings.listOnNetworkDisk", () => client.volumeListings.listOnNetworkDisk(SEED.hostNetworkDisks[0].id, { sizeGb: 100, pricePerGbMonth: 0.12 }));
    await run("volumeListings.unlist (network)", () => client.volumeListings.unlist("network", diskListing.listing?.id ?? 0));
    const endpoint = await run("endpointGroups.create", () => client.endpointGroups.create({ name: "conformance", maxWorkers: 4, minLoad: 1, minColdLoad: 0, maxQueueTime: 30, targetQueueTime: 10, inactivityTimeout: 600 }));
    await run("endpointGroups.list", () => client.endpointGroups.list());
    await run("endpointGroups.update", () => client.endpointGroups.update(endpoint, { name: "conformance", maxWorkers: 8 }));
    await fails("workerGroups.create (no endpoint)", () => client.workerGroups.create({ endpointId: 999_999, searchParams: "gpu_ram>=23" }));
    const group = await run("workerGroups.create", () => client.workerGroups.create({ endpointId: endpoint, searchParams: "gpu_ram>=23", testWorkers: 1 }));
    await run("workerGroups.list", () => client.workerGroups.list());
    await run("workerGroups.update", () => client.workerGroups.update(group, { endpointId: endpoint, searchParams: "gpu_ram>=23", coldWorkers: 2 }));
    await run("workerGroups.workers", () => client.workerGroups.workers(group));
    await run("workerGroups.delete", () => client.workerGroups.delete(group));
    await run("workerGroups.delete (gone)", () => client.workerGroups.delete(group));
    await run("endpointGroups.delete", () => client.endpointGroups.delete(endpoint));
    await run("endpointGroups.delete (gone)", () => client.endpointGroups.delete(endpoint));
    const since = Math.floor(Date.now() / 1000) - 100 * 86_400;
    await run("billing.chargesPage", () => client.billing.chargesPage({ start: since, limit: 5, types: ["instance"] }));
    await run("billing.charges", () => client.billing.charges({ start: since, limit: 5 }));
    await fails("billing.chargesPage (bad token)", () => client.billing.chargesPage({ start: since, afterToken: "not-a-token" }));
    await run("billing.invoices", () => client.billing.invoices({ start: since, limit: 4, services: ["stripe_payments"] }));
    await fails("billing.invoicesPage (bad token)", () => client.billing.invoicesPage({ start: since, afterToken: "not-a-token" }));

    await run("webhooks.notificationTypes", () => client.webhooks.notificationTypes());
    await run("webhooks.list (none)", () => client.webhooks.list());
    const hook = await run("webhooks.create", () => client.webhooks.create({ name: "Ops notifications", url: "https://example.com/vast/webhooks", eventTypes: ["client:low_credit", "host:machine_offline"] }));
    await fails("webhooks.create (unknown type)", () => client.webhooks.create({ url: "https://example.com/vast/webhooks", eventTypes: ["client:no_such_type"] }));
    await run("webhooks.list", () => client.webhooks.list());
    await run("webhooks.update", () => client.webhooks.update(hook.id, { name: "Primary ops notifications", eventTypes: ["client:low_credit", "client:outbid"] }));
    await run("webhooks.rotateSecret", () => client.webhooks.rotateSecret(hook.id));
    // The simulator delivers to loopback addresses only: this delivery is refused with the service's error shape.
    await fails("webhooks.test (not loopback)", () => client.webhooks.test(hook.id));
    await run("webhooks.delete", () => client.webhooks.delete(hook.id));
    await run("webhooks.delete (gone)", () => client.webhooks.delete(hook.id));

    // Clusters and overlays (not in the document: every exchange is a listed "undocumented").
    const [managerId, workerId] = SEED.hostedMachineIds;
    await run("clusters.list (none)", () => client.clusters.list());
    await run("clusters.create", () => client.clusters.create("10.0.0.0/24", managerId));
    const cluster = (await run("clusters.list", () => client.clusters.list()))[0];
    await run("clusters.join", () => client.clusters.join(cluster.id, [workerId]));
    // An instance joins an overlay of its machine's cluster: the overlay is on a market cluster.
    const site = SEED.marketClusters[0];
    await run("clusters.createOverlay", () => client.clusters.createOverlay(site.id, "conformance-net"));
    const member = await client.instances.create(site.offerIds[0], { image: "ubuntu:22.04" });
    await run("clusters.joinOverlay", () => client.clusters.joinOverlay("conformance-net", member.id));
    const overlay = (await run("clusters.overlays", () => client.clusters.overlays()))[0];
    await client.instances.destroy(member.id);
    await run("clusters.deleteOverlay", () => client.clusters.deleteOverlay(overlay.id));
    await run("clusters.removeMachine", () => client.clusters.removeMachine(cluster.id, managerId, workerId));
    await run("clusters.delete", () => client.clusters.delete(cluster.id));
    await run("clusters.delete (gone)", () => client.clusters.delete(cluster.id));
    // Teams (issue 27 item 1): the key becomes the team's key; roles, an invitation accepted
    // through the control API, the member removed, the team removed.
    await run("teams.create", () => client.teams.create({ name: "conformance-team", transferCredit: 0 }));
    await run("teams.createRole", () => client.teams.createRole({ name: "developer", scopes: ["instance_read", "instance_write", "user_read"] }));
    await run("teams.roles", () => client.teams.roles());
    const teamRole = await run("teams.role", () => client.teams.role("developer"));
    await run("teams.updateRole", () => client.teams.updateRole(teamRole!.id, { name: "developer", scopes: ["instance_read"] }));
    await run("teams.invite", () => client.teams.invite("ana@example.com", "developer"));
    await fetch(`${sim.url}/_sim/team/invitations/accept`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "ana@example.com" }) });
    const teamMembers = await run("teams.members", () => client.teams.members());
    await run("teams.removeMember", () => client.teams.removeMember(teamMembers.find((m) => m.email === "ana@example.com")!.id));
    await run("teams.deleteRole", () => client.teams.deleteRole("developer"));
    await run("teams.role (gone)", () => client.teams.role("developer"));
    await run("teams.destroy", () => client.teams.destroy());
    await run("subaccounts.create", () => client.subaccountAccounts.create({ email: "bot@example.com", username: "conf-bot", password: "conformance-pass", hostOnly: true }));
    await run("subaccounts.list", () => client.subaccountAccounts.list());
    await run("auditLogs.list", () => client.auditLogs.list());
  } catch (error) {
    await sim.close();
    throw new Error(`the conformance scenario broke at ${step}: ${(error as Error).message}`, { cause: error });
  }
  return { sim, recorded };
}
