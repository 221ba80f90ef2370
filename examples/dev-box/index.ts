/**
 * Dev box: a personal GPU machine with SSH and Jupyter that stops spending when nobody is
 * watching. A guard started with the container stops it after `idleMinutes` of idle GPUs, and
 * destroys it when its time to live (`ttl`) runs out, both without anyone running `pulumi`.
 *
 *   pulumi config set sshPublicKey "$(cat ~/.ssh/id_ed25519.pub)"
 *   pulumi config set --secret vastai:apiKey <your key>
 *   pulumi up
 */
import * as pulumi from "@pulumi/pulumi";
import { Instance, SshKey } from "pulumi-vastai";

const config = new pulumi.Config();
/** Your OpenSSH public key (the line in ~/.ssh/id_ed25519.pub). */
const sshPublicKey = config.require("sshPublicKey");
const gpuName = config.get("gpuName") ?? "RTX 4090";
/** $/hour for the whole offer. */
const maxPricePerHour = config.getNumber("maxPricePerHour") ?? 0.5;
/** Idle minutes (every GPU below 5%) after which the box stops itself; its disk stays. */
const idleMinutes = config.getNumber("idleMinutes", { min: 1 }) ?? 30;
/** How long the box lives: fixed when it is created, it does not move on later runs. */
const ttl = config.get("ttl") ?? "2d";

const key = new SshKey("me", { publicKey: sshPublicKey });

const box = new Instance("box", {
  offer: { gpuName, numGpus: 1, maxPricePerHour, minReliability: 0.98 },
  image: "pytorch/pytorch:2.4.0-cuda12.4-cudnn9-runtime",
  jupyter: { direct: true },
  ports: ["8888:8888"],
  diskGb: 40,
  sshKeyIds: [key.keyId],
  label: "dev-box",
  env: { HF_HOME: "/workspace/.cache/huggingface" },
  // Your own start script keeps running; the guard starts beside it.
  onstart: "mkdir -p /workspace && nvidia-smi > /workspace/gpu.txt",
  autostop: { idleMinutes, gpuUtilBelowPercent: 5, action: "stop" },
  ttl,
  expireAction: "destroy",
  // Back at the desk after the box stopped itself: `pulumi config set wake "$(date +%F)"` and `pulumi up`.
  wake: config.get("wake"),
});

export const sshCommand = box.sshCommand;
export const instanceId = box.instanceId;
export const pricePerHour = box.pricePerHour;
/** When the guard destroys the box (ISO 8601 UTC). */
export const deadline = box.deadline;
/** "autostop" once it stopped itself for being idle, "ttl" once its time ran out; null while it runs. */
export const stoppedBy = box.stoppedBy;
export const expired = box.expired;
