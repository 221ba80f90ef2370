/**
 * Team: what a team declares once for multi-node work. The team itself (a role and a member
 * invited with it), a cluster of the machines the account hosts (a manager and a second node), an overlay network on it, and a Fleet whose members all
 * join that overlay once they run, so a multi-node training job is declared in one place: a
 * removed member leaves the overlay, its replacement joins. An interruptible notebook keeps
 * office hours (`schedule`) carried out by the service's own scheduled bid changes.
 *
 * Clusters and overlays are not in the vendor's OpenAPI document; the package follows the
 * vendor's client (see docs/clusters.md in the package).
 */
import * as pulumi from "@pulumi/pulumi";
import { Cluster, ClusterMember, Fleet, Instance, Overlay, Team, TeamMember, TeamRole } from "pulumi-vastai";

const config = new pulumi.Config();
/** The manager machine of the cluster: a machine the account hosts. */
const managerMachineId = config.requireNumber("managerMachineId");
/** A second machine the account hosts, joined to the cluster. */
const workerMachineId = config.requireNumber("workerMachineId");
/** The cluster's local subnet. */
const subnet = config.get("subnet") ?? "10.10.0.0/24";
/** The overlay's name; instances join it by name. */
const overlayName = config.get("overlayName") ?? "team-net";
/** Members of the training fleet. */
const members = config.getNumber("members") ?? 2;

// ---- The team (who may change this stack) -------------------------------------------------
// The key that creates the team becomes the team's key (docs/account-and-teams.md, "Team,
// TeamRole, TeamMember and Subaccount"). A role in ApiKey's permission form, and a member invited
// with it: until the invitation is accepted the member's `pending` output is true.
const team = new Team("ml-team", { name: config.get("teamName") ?? "ml-research" });
const researcher = new TeamRole("researcher", {
  name: "researcher",
  permissions: { instances: "write", user: "read", billing: "read" },
}, { dependsOn: [team] });
const member = new TeamMember("ana", {
  email: config.get("memberEmail") ?? "ana@example.com",
  role: researcher.name,
});

// ---- The cluster and its overlay network ---------------------------------------------------
const cluster = new Cluster("rack", { subnet, managerMachineId });
const node2 = new ClusterMember("node-2", { clusterId: cluster.clusterId, machineId: workerMachineId });
// An overlay is one physical cluster's local network: the fleet's members are rented on that
// cluster's machines (offer.clusterId), since a member rented elsewhere could not join it.
// `siteClusterId`: a cluster of rentable hosts (an offer's cluster_id) to train on; default the
// cluster above.
const siteClusterId = config.getNumber("siteClusterId");
const net = new Overlay("team-net", { clusterId: siteClusterId ?? cluster.clusterId, name: overlayName }, { dependsOn: [node2] });

// ---- The training fleet on the overlay -----------------------------------------------------
const trainers = new Fleet("trainers", {
  count: members,
  offer: { numGpus: 1, gpuRamGb: 24, verified: true, clusterId: net.clusterId },
  image: "pytorch/pytorch",
  label: "team-trainer",
  spread: { by: "machine", max: 1 },
  // Every member joins the overlay once it runs.
  overlay: net.name,
  maxPricePerHour: config.getNumber("maxPricePerHour") ?? 0.7,
});

// ---- Office hours ----------------------------------------------------------------------------
// An interruptible notebook the team uses on weekdays 08:00-20:00. The provider writes the
// service's scheduled jobs (docs/costs-and-stopping-spend.md, "Office hours"): a losing bid at
// 20:00 stops it, the declared bid at 08:00 on each weekday starts it again, with nobody running
// `pulumi up` (6 jobs: one daily stop, five weekly starts). An `up` in the off-hours leaves it
// stopped.
const notebook = new Instance("notebook", {
  offer: { numGpus: 1, gpuRamGb: 24 },
  image: "pytorch/pytorch",
  label: "team-notebook",
  bidPricePerHour: config.getNumber("notebookBid") ?? 0.25,
  schedule: {
    days: ["mon", "tue", "wed", "thu", "fri"],
    start: "08:00",
    end: "20:00",
    timeZone: config.get("timeZone") ?? "Europe/Berlin",
  },
});

export const clusterId = cluster.clusterId;
export const managerIp = cluster.managerLocalIp;
export const node2Ip = node2.localIp;
export const overlayId = net.overlayId;
export const overlaySubnet = net.internalSubnet;
export const memberIds = trainers.members.apply((ms) => ms.map((m) => m.id));
export const healthy = trainers.healthy;
export const memberPending = member.pending;
export const notebookId = notebook.instanceId;
