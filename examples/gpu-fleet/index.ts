/**
 * GPU fleet: `workers` identical instances declared once as a Fleet, one shared template, and a
 * secret (a Hugging Face token) passed to every member through its environment.
 *
 * Run `pulumi up --refresh --yes` on a timer (reconcile.yml, or the Pulumi Kubernetes Operator
 * with operator/stack.yaml) and the fleet heals itself: a member that died (`exited`,
 * `unknown`, `offline`) is replaced on another machine within the same run, and the count
 * always matches `workers`. Offers are claimed so members never race for the same offer, at
 * most one member runs per machine, and the whole fleet never costs more than `maxHourlyCost`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Fleet, SshKey, Template } from "pulumi-vastai";

const config = new pulumi.Config();
/** How many instances to keep running (default 3). */
const workers = config.getNumber("workers") ?? 3;
const gpuName = config.get("gpuName") ?? "RTX 4090";
/** Minimum GPU memory per GPU, GB. */
const gpuRamGb = config.getNumber("gpuRamGb") ?? 24;
/** Highest price per instance, $/hour. */
const maxPricePerHour = config.getNumber("maxPricePerHour") ?? 0.7;
/** Highest price for the whole fleet, $/hour (default: workers x maxPricePerHour). */
const maxHourlyCost = config.getNumber("maxHourlyCost") ?? Math.round(workers * maxPricePerHour * 100) / 100;
/** Set with `pulumi config set --secret hfToken hf_...`: encrypted in state, never printed. */
const hfToken = config.requireSecret("hfToken");
const model = config.get("model") ?? "meta-llama/Llama-3.1-8B-Instruct";

const operator = new SshKey("operator", { publicKey: config.require("sshPublicKey") });

const vllm = new Template("vllm", {
  name: "fleet-vllm",
  image: "vllm/vllm-openai",
  tag: config.get("vllmTag") ?? "v0.6.3",
  runtype: "args",
  argsStr: `--model ${model} --port 8000`,
  env: { HF_HOME: "/workspace/.cache/huggingface" },
  ports: ["8000:8000"],
  recommendedDiskSpaceGb: 80,
});

const fleet = new Fleet("workers", {
  count: workers,
  offer: { gpuName, numGpus: 1, gpuRamGb, minReliability: 0.97, verified: true },
  templateHashId: vllm.hashId,
  sshKeyIds: [operator.keyId],
  // Secret in, secret in state: the whole env input is encrypted because hfToken is a secret.
  env: { HF_TOKEN: hfToken, MODEL: model },
  diskGb: 80,
  label: "fleet-worker",
  spread: { by: "machine", max: 1 },
  maxPricePerHour,
  maxHourlyCost,
  // A template change rolls through the fleet in place, one worker at a time, keeping all but one serving.
  minHealthy: Math.max(0, workers - 1),
});

export const instanceIds = fleet.members.apply((members) => members.map((m) => m.id));
export const sshCommands = fleet.members.apply((members) => members.map((m) => `ssh -p ${m.sshPort} root@${m.sshHost}`));
/** What the fleet costs, $/hour. */
export const hourlyCost = fleet.hourlyCost;
/** Members running; the workflow fails the job when it is below `workers`. */
export const healthy = fleet.healthy;
export const wanted = workers;
