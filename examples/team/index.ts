/**
 * Team: what a team declares once for multi-node work. A cluster of the machines the account
 * hosts (a manager and a second node), an overlay network on it, and a Fleet whose members all
 * join that overlay once they run, so a multi-node training job is declared in one place: a
 * removed member leaves the overlay, its replacement joins.
 *
 * Clusters and overlays are not in the vendor's OpenAPI document; the package follows the
 * vendor's client (see the README, "Clusters and overlay networks").
 */
import * as pulumi from "@pulumi/pulumi";
import { Cluster, ClusterMember, Fleet, Overlay } from "pulumi-vastai";

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
// A team with a role and a member is declared here (Team, TeamRole, TeamMember).

// ---- The cluster and its overlay network ---------------------------------------------------
const cluster = new Cluster("rack", { subnet, managerMachineId });
const node2 = new ClusterMember("node-2", { clusterId: cluster.clusterId, machineId: workerMachineId });
const net = new Overlay("team-net", { clusterId: cluster.clusterId, name: overlayName }, { dependsOn: [node2] });

// ---- The training fleet on the overlay -----------------------------------------------------
const trainers = new Fleet("trainers", {
  count: members,
  offer: { numGpus: 1, gpuRamGb: 24, verified: true },
  image: "pytorch/pytorch",
  label: "team-trainer",
  spread: { by: "machine", max: 1 },
  // Every member joins the overlay once it runs.
  overlay: net.name,
  maxPricePerHour: config.getNumber("maxPricePerHour") ?? 0.7,
  // Office hours: the fleet's schedule (stop outside working hours) is declared here.
});

export const clusterId = cluster.clusterId;
export const managerIp = cluster.managerLocalIp;
export const node2Ip = node2.localIp;
export const overlayId = net.overlayId;
export const overlaySubnet = net.internalSubnet;
export const memberIds = trainers.members.apply((ms) => ms.map((m) => m.id));
export const healthy = trainers.healthy;
