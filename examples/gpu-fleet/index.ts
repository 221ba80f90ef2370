/**
 * GPU fleet: N identical instances rented from offer filters, one shared template, and a
 * secret (a Hugging Face token) passed to every instance through its environment.
 *
 * Run `pulumi up --refresh --yes` on a timer (see reconcile.yml) and the fleet heals itself:
 * an instance that died (`exited`, `unknown`, `offline`) is replaced by a fresh one on the
 * next run, and the count always matches `workers`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Instance, SshKey, Template } from "pulumi-vastai";

const config = new pulumi.Config();
/** How many instances to keep running (default 3). */
const workers = config.getNumber("workers") ?? 3;
const gpuName = config.get("gpuName") ?? "RTX 4090";
/** Minimum GPU memory per GPU, GB. */
const gpuRamGb = config.getNumber("gpuRamGb") ?? 24;
/** Highest price per instance, $/hour. */
const maxPricePerHour = config.getNumber("maxPricePerHour") ?? 0.7;
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

const fleet: Instance[] = [];
for (let i = 0; i < workers; i++) {
  fleet.push(
    new Instance(`worker-${i}`, {
      offer: { gpuName, numGpus: 1, gpuRamGb, maxPricePerHour, minReliability: 0.97, verified: true },
      templateHashId: vllm.hashId,
      sshKeyIds: [operator.keyId],
      // Secret in, secret in state: the whole env input is encrypted because hfToken is a secret.
      env: { HF_TOKEN: hfToken, MODEL: model },
      diskGb: 80,
      label: `fleet-worker-${i}`,
    }),
  );
}

export const instanceIds = fleet.map((w) => w.instanceId);
export const sshCommands = fleet.map((w) => pulumi.interpolate`ssh -p ${w.sshPort} root@${w.sshHost}`);
/** What the fleet costs, $/hour. */
export const hourlyCost = pulumi.all(fleet.map((w) => w.pricePerHour)).apply((prices) =>
  Math.round(prices.reduce<number>((sum, p) => sum + (p ?? 0), 0) * 1000) / 1000,
);
