/**
 * Quickstart: an SSH key, a template, and one GPU instance rented from offer filters using
 * both. Exports the command to log in.
 *
 *   pulumi config set sshPublicKey "$(cat ~/.ssh/id_ed25519.pub)"
 *   pulumi config set --secret vastai:apiKey <your key>
 *   pulumi up
 */
import * as pulumi from "@pulumi/pulumi";
import { Instance, SshKey, Template } from "pulumi-vastai";

const config = new pulumi.Config();
/** Your OpenSSH public key (the line in ~/.ssh/id_ed25519.pub). */
const sshPublicKey = config.require("sshPublicKey");
/** pytorch/pytorch tag; a new tag edits the template (new hashId), and the instance follows in place. */
const imageTag = config.get("imageTag") ?? "2.4.0-cuda12.4-cudnn9-runtime";
const gpuName = config.get("gpuName") ?? "RTX 4090";
/** $/hour for the whole offer. */
const maxPricePerHour = config.getNumber("maxPricePerHour") ?? 0.5;

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

const gpu = new Instance("gpu", {
  offer: { gpuName, numGpus: 1, maxPricePerHour, minReliability: 0.98 },
  templateHashId: template.hashId,
  sshKeyIds: [key.keyId],
  label: "quickstart",
});

export const instanceId = gpu.instanceId;
export const templateHashId = template.hashId;
export const pricePerHour = gpu.pricePerHour;
export const sshCommand = pulumi.interpolate`ssh -p ${gpu.sshPort} root@${gpu.sshHost}`;
