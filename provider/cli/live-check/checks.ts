/**
 * The assumptions about the live service that the package rests on and that no document settles,
 * each with the cheapest calls that settle it (`npx pulumi-vastai check-live`, run.ts). A check
 * answers `confirmed`, `refuted` (the service answered otherwise: the finding names what it saw)
 * or `not checked` (the account lacks what the check needs, or the spend cap forbids it).
 *
 * The checks that rent share one instance: the cheapest interruptible offer, rented at its
 * least winning bid for the few minutes the checks take, destroyed at the end (run.ts), its
 * destroy confirmed by a read.
 */
import { createClient, VastApiError, type Instance, type Offer, type VastClient } from "../../client";
import { callOf } from "../../resources/kit/scheduled-calls";
import { OFF_BID } from "../../resources/instance/schedule";

export type CheckResult = "confirmed" | "refuted" | "not checked" | "failed";

export interface CheckOutcome {
  id: string;
  /** The assumption, as docs/limits-and-defaults.md states it. */
  assumption: string;
  /** Where the package relies on it. */
  reliedOnBy: string;
  result: CheckResult;
  /** What was seen (redacted before it is printed). */
  detail: string;
}

/** What the checks share: the client, the clock, the spend cap and what was made (for clean-up). */
export interface CheckContext {
  client: VastClient;
  apiUrl: string;
  /** Waits `ms` (injectable: tests run on a fast clock). */
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  /** Interval between reads of an instance that is expected to change, ms (default 10 s, the vendor's advice). */
  pollMs: number;
  /** Longest wait for a boot, and for a losing bid to stop the instance, ms. */
  waitMs: number;
  /** Spend still allowed, $. */
  spendLeftUsd: number;
  /** Spend the rental is estimated at, $ (set when it rents). */
  spendEstimateUsd: number;
  /** Instances and scheduled jobs this run made: run.ts removes them and confirms each removal by a read. */
  made: { instances: number[]; jobs: number[]; overlays: number[] };
  /** An address to send one team invitation to (the invite check is not run without one). */
  inviteEmail?: string;
  /** The rented instance, once there, with its restricted key (never printed). */
  rented?: { id: number; offer: Offer; instanceKey?: string };
}

export interface Check {
  id: string;
  assumption: string;
  reliedOnBy: string;
  run(ctx: CheckContext): Promise<Omit<CheckOutcome, "id" | "assumption" | "reliedOnBy">>;
}

const confirmed = (detail: string) => ({ result: "confirmed" as const, detail });
const refuted = (detail: string) => ({ result: "refuted" as const, detail });
const notChecked = (detail: string) => ({ result: "not checked" as const, detail });

/** A `535.86.05` version as the vendor's client encodes it for the search: 535086005. */
export function driverVersionNumber(text: string): number | undefined {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * 1_000_000 + Number(m[2]) * 1000 + Number(m[3] ?? 0);
}

/** Polls instance `id` until `done` holds for its row, or the wait ends; the last row seen. */
async function waitFor(ctx: CheckContext, id: number, done: (row: Instance | null) => boolean): Promise<Instance | null> {
  const until = ctx.now() + ctx.waitMs;
  let row = await ctx.client.instances.get(id);
  while (!done(row) && ctx.now() < until) {
    await ctx.sleep(ctx.pollMs);
    row = await ctx.client.instances.get(id);
  }
  return row;
}

const statusOf = (row: Instance | null) => (row ? `actual_status ${JSON.stringify(row.actualStatus)}, intended_status ${JSON.stringify(row.intendedStatus)}, is_bid ${JSON.stringify(row.isBid)}` : "gone");

/** Rents the cheapest interruptible offer at its least winning bid, once per run. */
async function rent(ctx: CheckContext): Promise<{ id: number; offer: Offer; instanceKey?: string } | string> {
  if (ctx.rented) return ctx.rented;
  const offers = await ctx.client.offers.search({ type: "bid", order: [["minBid", "asc"]], limit: 5, allocatedStorageGb: 10 });
  const offer = offers.find((o) => typeof o.minBid === "number" && o.minBid > 0);
  if (!offer || offer.minBid === undefined) return "no interruptible offer with a min_bid was found";
  const bid = Math.max(OFF_BID, Math.round(offer.minBid * 1.1 * 1000) / 1000);
  const storagePerHour = Number(offer.raw.storage_total_cost ?? 0) || 0;
  // Two boots and two waits at most, plus the time between them: priced at the bid and the disk.
  const hours = (4 * ctx.waitMs) / 3_600_000 + 0.25;
  const estimate = Math.round((bid + storagePerHour) * hours * 1e6) / 1e6;
  if (estimate > ctx.spendLeftUsd) return `renting offer ${offer.id} at ${bid} $/h would cost up to $${estimate}, over the spend left ($${ctx.spendLeftUsd})`;
  ctx.spendLeftUsd -= estimate;
  ctx.spendEstimateUsd += estimate;
  const made = await ctx.client.instances.create(offer.id, {
    image: "ubuntu:22.04",
    disk: 10,
    runtype: "ssh_proxy",
    label: `pulumi-vastai check-live ${new Date(ctx.now()).toISOString()}`,
    price: bid,
    targetState: "running",
    cancelUnavail: false,
  });
  ctx.made.instances.push(made.id);
  ctx.rented = { id: made.id, offer, instanceKey: made.instanceApiKey };
  return ctx.rented;
}

export const CHECKS: readonly Check[] = [
  {
    id: "offer-rows",
    assumption: "offer rows carry id, dph_total and min_bid; interruptible offers are searched with type \"bid\"",
    reliedOnBy: "Instance and Fleet offer selection, bids (docs/templates-and-instances.md: Interruptible instances)",
    async run(ctx) {
      const offers = await ctx.client.offers.search({ type: "bid", limit: 5 });
      if (offers.length === 0) return notChecked("the search answered no interruptible offer");
      const missing = offers.filter((o) => typeof o.dphTotal !== "number" || typeof o.minBid !== "number").map((o) => o.id);
      return missing.length === 0 ? confirmed(`${offers.length} rows, each with dph_total and min_bid`) : refuted(`rows without dph_total or min_bid: ${missing.join(", ")}`);
    },
  },
  {
    id: "driver-version-filter",
    assumption: "the offer search filters driver_version by the vendor client's number (535.86.05 as 535086005)",
    reliedOnBy: "the offer filter driverVersion (docs/limits-and-defaults.md: Defaults this package sends)",
    async run(ctx) {
      const all = await ctx.client.offers.search({ limit: 64 });
      const versions = all.map((o) => String(o.raw.driver_version ?? "")).filter((v) => driverVersionNumber(v) !== undefined);
      if (versions.length === 0) return notChecked("no offer row shows a driver_version");
      const sorted = [...new Set(versions)].sort((a, b) => driverVersionNumber(a)! - driverVersionNumber(b)!);
      const floor = sorted[Math.floor(sorted.length / 2)];
      const filtered = await ctx.client.offers.search({ limit: 64, filters: { driverVersion: { gte: floor } } });
      const below = filtered.filter((o) => (driverVersionNumber(String(o.raw.driver_version ?? "")) ?? -1) < driverVersionNumber(floor)!);
      if (filtered.length === 0) return refuted(`a filter driver_version >= ${floor} answered no offer, though ${versions.length} rows show a version at or above it`);
      if (below.length > 0) return refuted(`a filter driver_version >= ${floor} answered offers below it: ${below.map((o) => `${o.id} (${String(o.raw.driver_version)})`).join(", ")}`);
      return confirmed(`driver_version >= ${floor} answered ${filtered.length} offers, none below it`);
    },
  },
  {
    id: "machine-listing-state",
    assumption: "hosted machine rows show a listing by a numeric listed_gpu_cost, null when not listed (a listed flag, where a row has one, is read first)",
    reliedOnBy: "MachineListing (finding a hand-made listing, seeing an unlisting done outside)",
    async run(ctx) {
      const rows = await ctx.client.machines.list();
      if (rows.length === 0) return notChecked("the account hosts no machine");
      const row = rows[0].raw;
      if (!("listed_gpu_cost" in row)) return refuted(`machine ${rows[0].id}'s row has no listed_gpu_cost (fields: ${Object.keys(row).sort().join(", ")})`);
      const cost = row.listed_gpu_cost;
      if (cost !== null && typeof cost !== "number") return refuted(`listed_gpu_cost is ${JSON.stringify(cost)}, neither a number nor null`);
      const flag = "listed" in row ? `, listed flag ${JSON.stringify(row.listed)}` : ", no listed flag";
      return confirmed(`machine ${rows[0].id}: listed_gpu_cost ${JSON.stringify(cost)}${flag}`);
    },
  },
  {
    id: "team-invite",
    assumption: "a team invitation is sent as the vendor's client sends it, and the service takes it",
    reliedOnBy: "TeamMember (docs/account-and-teams.md: Team, TeamRole, TeamMember and Subaccount)",
    async run(ctx) {
      if (!ctx.inviteEmail) return notChecked("give --invite-email to send one invitation (to an address of your own: the service offers no call that withdraws an invitation, so it stays pending until it is accepted or expires)");
      if (!(await ctx.client.teams.isTeam())) return notChecked("the key's account is not a team");
      await ctx.client.teams.invite(ctx.inviteEmail, "member");
      return confirmed("the invitation to the given address was taken (it stays pending: no call withdraws it)");
    },
  },
  {
    id: "instance-api-key",
    assumption: "the create answer carries instance_api_key, a key the service takes only for that instance's start, stop and destroy",
    reliedOnBy: "Instance autostop and ttl (the in-machine guard calls the service with CONTAINER_API_KEY)",
    async run(ctx) {
      const rented = await rent(ctx);
      if (typeof rented === "string") return notChecked(rented);
      if (!rented.instanceKey) return refuted("the create answer carried no instance_api_key");
      const running = await waitFor(ctx, rented.id, (r) => r?.actualStatus === "running");
      if (running?.actualStatus !== "running") return notChecked(`instance ${rented.id} did not run within the wait (${statusOf(running)})`);
      const own = createClient({ apiKey: rented.instanceKey, apiUrl: ctx.apiUrl, maxAttempts: 1 });
      let listing: string;
      try {
        await own.instances.listPage({ limit: 1 });
        listing = "answered";
      } catch (error) {
        listing = error instanceof VastApiError ? String(error.status) : (error as Error).name;
      }
      if (listing !== "401" && listing !== "403") return refuted(`the instance's key could list the account's instances (${listing})`);
      await own.instances.stop(rented.id);
      const stopped = await waitFor(ctx, rented.id, (r) => r?.intendedStatus === "stopped" || r?.actualStatus === "stopped");
      if (!(stopped?.intendedStatus === "stopped" || stopped?.actualStatus === "stopped")) return refuted(`a stop with the instance's key was answered but the instance shows ${statusOf(stopped)}`);
      return confirmed(`the instance's key was refused a listing (${listing}) and stopped its own instance`);
    },
  },
  {
    id: "gpu-util-field",
    assumption: "instance rows carry gpu_util (the GPUs' utilization, percent)",
    reliedOnBy: "autostop's idle rule is read inside the machine; the row's field is shown in the simulator",
    async run(ctx) {
      if (!ctx.rented) return notChecked("no instance was rented");
      const row = await ctx.client.instances.get(ctx.rented.id);
      if (!row) return notChecked("the rented instance is gone");
      return "gpu_util" in row.raw ? confirmed(`gpu_util is ${JSON.stringify(row.raw.gpu_util)}`) : refuted(`the row has no gpu_util (fields: ${Object.keys(row.raw).sort().join(", ")})`);
    },
  },
  {
    id: "losing-bid-stops",
    assumption: "an interruptible instance whose bid falls below the going price is stopped and kept: actual_status stopped, intended_status running, is_bid true",
    reliedOnBy: "Instance schedule (office hours stop with a 0.001 $/h bid) and onOutbid (docs/limits-and-defaults.md: outbid instances)",
    async run(ctx) {
      if (!ctx.rented) return notChecked("no instance was rented");
      const id = ctx.rented.id;
      await ctx.client.instances.start(id);
      const running = await waitFor(ctx, id, (r) => r?.actualStatus === "running");
      if (running?.actualStatus !== "running") return notChecked(`instance ${id} did not run again within the wait (${statusOf(running)})`);
      await ctx.client.instanceActions.changeBid(id, OFF_BID);
      const after = await waitFor(ctx, id, (r) => r?.actualStatus === "stopped");
      if (after?.actualStatus !== "stopped") return refuted(`after a bid of ${OFF_BID} $/h the instance still shows ${statusOf(after)} at the end of the wait`);
      const record = after.intendedStatus === "running" && after.isBid === true;
      return record ? confirmed(`stopped by a bid of ${OFF_BID} $/h: ${statusOf(after)}`) : refuted(`stopped, but the record reads ${statusOf(after)}`);
    },
  },
  {
    id: "overlay-join-off-cluster",
    assumption: "an instance joins only an overlay of the physical cluster its machine is in: a join from off the cluster is refused",
    reliedOnBy: "Fleet overlay (members are rented only on offer.clusterId, the overlay's cluster; docs/clusters.md)",
    async run(ctx) {
      if (!ctx.rented) return notChecked("no instance was rented");
      const row = await ctx.client.instances.get(ctx.rented.id);
      if (!row || row.machineId === null || row.machineId === undefined) return notChecked("the rented instance's machine is not known");
      const machine = row.machineId;
      const cluster = (await ctx.client.clusters.list()).find((c) => !c.nodes.some((n) => n.machineId === machine));
      if (!cluster) return notChecked("the account has no cluster the rented instance is off (overlays are made on clusters the account hosts)");
      const name = `pulumi-vastai-check-${ctx.now()}`;
      await ctx.client.clusters.createOverlay(cluster.id, name);
      const overlay = (await ctx.client.clusters.overlays()).find((o) => o.name === name);
      if (!overlay) return notChecked(`overlay ${name} was accepted but is not listed`);
      ctx.made.overlays.push(overlay.id);
      try {
        await ctx.client.clusters.joinOverlay(name, ctx.rented.id);
      } catch (error) {
        if (error instanceof VastApiError && error.status >= 400 && error.status < 500) {
          return confirmed(`instance ${ctx.rented.id} on machine ${machine} was refused overlay ${overlay.id} of cluster ${cluster.id} (HTTP ${error.status})`);
        }
        throw error;
      }
      const joined = (await ctx.client.clusters.overlays()).find((o) => o.id === overlay.id)?.instanceIds.includes(ctx.rented.id) ?? false;
      return refuted(`instance ${ctx.rented.id} on machine ${machine}, off cluster ${cluster.id}, ${joined ? "joined" : "was answered as joining"} its overlay ${overlay.id}`);
    },
  },
  {
    id: "scheduled-bid-job",
    assumption: "the service takes a daily scheduled bid change in the vendor client's form and lists it back as sent",
    reliedOnBy: "Instance schedule and ScheduledJob",
    async run(ctx) {
      if (!ctx.rented) return notChecked("no instance was rented");
      const id = ctx.rented.id;
      const start = new Date(ctx.now() + 24 * 3600_000);
      const input = { instanceId: id, ...callOf("changeBid", id, OFF_BID), frequency: "DAILY" as const, hourUtc: start.getUTCHours(), start: start.toISOString(), end: new Date(start.getTime() + 3600_000).toISOString() };
      const { job } = await ctx.client.scheduledJobs.create(input);
      ctx.made.jobs.push(job.id);
      const same = job.instanceId === id && job.requestMethod === "PUT" && job.hourUtc === input.hourUtc && job.frequency === "DAILY";
      return same ? confirmed(`job ${job.id} listed with the instance, method, frequency and hour sent`) : refuted(`job ${job.id} is listed as ${JSON.stringify({ instanceId: job.instanceId, method: job.requestMethod, frequency: job.frequency, hour: job.hourUtc })}`);
    },
  },
];
