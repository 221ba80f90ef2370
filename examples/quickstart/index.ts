/**
 * Quickstart: an SSH key, a template, and one GPU instance rented from offer filters using
 * both. Exports the command to log in. With `fleetSize` above 0, also a Fleet of that many
 * cheap single-GPU instances, one per machine, that each `pulumi up` heals.
 *
 *   pulumi config set sshPublicKey "$(cat ~/.ssh/id_ed25519.pub)"
 *   pulumi config set --secret vastai:apiKey <your key>
 *   pulumi up
 */
import * as pulumi from "@pulumi/pulumi";
import { Fleet, Instance, SshKey, Template } from "pulumi-vastai";

const config = new pulumi.Config();
/** Your OpenSSH public key (the line in ~/.ssh/id_ed25519.pub). */
const sshPublicKey = config.require("sshPublicKey");
/** pytorch/pytorch tag; a new tag edits the template (new hashId), and the instance follows in place. */
const imageTag = config.get("imageTag") ?? "2.4.0-cuda12.4-cudnn9-runtime";
const gpuName = config.get("gpuName") ?? "RTX 4090";
/** $/hour for the whole offer. */
const maxPricePerHour = config.getNumber("maxPricePerHour") ?? 0.5;
/** Members of the optional fleet; 0 (the default) rents none. */
const fleetSize = config.getNumber("fleetSize", { min: 0 }) ?? 0;
/** Most a fleet member may cost, $/hour (disk included); the cheapest matching offers are rented. */
const FLEET_MEMBER_MAX_PRICE = 0.3;

const key = new SshKey("laptop", { publicKey: sshPublicKey });

const template = new Template("pytorch", {
  name: "quickstart-pytorch",
  image: "pytorch/pytorch",
  tag: imageTag,
  runtype: "ssh",
  useSsh: true,
  sshDirect: true,
  env: { HF_HOME: "/workspace/.cache/huggingface" },
  ports: ["8888:8888"],
  onstart: "nvidia-smi > /workspace/gpu.txt",
  recommendedDiskSpaceGb: 32,
});

/** Minutes of idle GPUs after which the instance stops itself (its disk stays; `wake` starts it). */
const idleMinutes = config.getNumber("idleMinutes", { min: 1 }) ?? 30;

const gpu = new Instance("gpu", {
  offer: { gpuName, numGpus: 1, maxPricePerHour, minReliability: 0.98 },
  templateHashId: template.hashId,
  sshKeyIds: [key.keyId],
  label: "quickstart",
  // Forgotten over a weekend, it stops itself: a guard in the container watches the GPUs and
  // stops the instance after idleMinutes below 5% (docs/costs-and-stopping-spend.md).
  autostop: { idleMinutes, gpuUtilBelowPercent: 5, action: "stop" },
  // Change it (any value) to start the instance again after its autostop stopped it.
  wake: config.get("wake"),
});

// Its own image, not the template: a new imageTag leaves the fleet as it is.
const fleet =
  fleetSize > 0
    ? new Fleet("workers", {
        count: fleetSize,
        offer: { numGpus: 1, maxPricePerHour: FLEET_MEMBER_MAX_PRICE, minReliability: 0.95 },
        image: "nvidia/cuda:12.4.1-base-ubuntu22.04",
        runtype: "ssh",
        sshKeyIds: [key.keyId],
        diskGb: 16,
        label: "quickstart-fleet",
        // At most one member per machine: one host going down takes one member with it.
        spread: { by: "machine", max: 1 },
        maxPricePerHour: FLEET_MEMBER_MAX_PRICE,
        maxHourlyCost: Math.round(fleetSize * FLEET_MEMBER_MAX_PRICE * 100) / 100,
      })
    : undefined;

export const instanceId = gpu.instanceId;
export const templateHashId = template.hashId;
export const pricePerHour = gpu.pricePerHour;
/** "autostop" once the guard stopped it for being idle; null while it runs. */
export const stoppedBy = gpu.stoppedBy;
export const sshCommand = pulumi.interpolate`ssh -p ${gpu.sshPort} root@${gpu.sshHost}`;
/** The fleet's instance ids (only with fleetSize > 0). */
export const fleetMembers = fleet?.members.apply((members) => members.map((m) => m.id));
/** Fleet members running (only with fleetSize > 0). */
export const fleetHealthy = fleet?.healthy;
