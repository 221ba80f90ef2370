/** Serverless catalogue: deployments with stored versions, a worker group's logs, autoscaler templates. */
import { SEED } from "./seed";

const T0 = 1735689600; // 2025-01-01T00:00:00Z, Unix seconds

export interface DeploymentSeed {
  id: number;
  ownerId: number;
  /** Newest first, as the versions endpoint lists them. */
  versions: Record<string, unknown>[];
}

function version(id: number, n: number): Record<string, unknown> {
  return {
    id,
    file_hash: `sha256:${id.toString(16).padStart(8, "0")}${"ab".repeat(28)}`,
    version_label: `v1.${n}.0`,
    file_size: 1048576 + n * 4096,
    created_at: T0 + n * 86400,
    last_used_at: T0 + n * 86400 + 3600,
  };
}

const DEPLOYMENTS: DeploymentSeed[] = [
  {
    id: SEED.deployment.id,
    ownerId: SEED.user.id,
    versions: SEED.deployment.versionIds.map((id, i, all) => version(id, all.length - 1 - i)),
  },
  { id: SEED.foreignDeploymentId, ownerId: SEED.unapprovedUser.id, versions: [version(9101, 0)] },
];

export function deploymentById(id: number): DeploymentSeed | undefined {
  return DEPLOYMENTS.find((d) => d.id === id);
}

export interface WorkerGroupSeed {
  id: number;
  ownerId: number;
  lines: string[];
}

const WORKER_GROUP: WorkerGroupSeed = {
  id: SEED.workerGroup.id,
  ownerId: SEED.user.id,
  lines: Array.from({ length: SEED.workerGroup.logLines }, (_, i) => {
    const at = new Date((T0 + i * 30) * 1000).toISOString();
    return `${at} worker-${i % 4} request ${i + 1} handled in ${80 + ((i * 37) % 120)} ms`;
  }),
};

export function workerGroupById(id: number): WorkerGroupSeed | undefined {
  return id === WORKER_GROUP.id ? WORKER_GROUP : undefined;
}

function autoscalerTemplate(id: number, name: string, image: string, ownerId: number): Record<string, unknown> {
  return {
    id,
    hash_id: `as${id.toString(16).padStart(30, "0")}`,
    name,
    image,
    creator_id: ownerId,
    autoscaler: true,
    min_load: 1,
    target_util: 0.9,
    cold_mult: 2.5,
    test_workers: 3,
  };
}

export function autoscalerTemplatesFor(userId: number): Record<string, unknown>[] {
  if (userId !== SEED.user.id) return [];
  const [a, b] = SEED.autoscalerTemplateIds;
  return [
    autoscalerTemplate(a, "tgi-llama-endpoint", "ghcr.io/huggingface/text-generation-inference:2.3", userId),
    autoscalerTemplate(b, "comfyui-endpoint", "sim/comfyui-worker:1.0", userId),
  ];
}

export function recommendedAutoscalerTemplates(): Record<string, unknown>[] {
  const names = ["vLLM", "Text Generation Inference", "ComfyUI"];
  return SEED.recommendedAutoscalerTemplateIds.map((id, i) =>
    autoscalerTemplate(id, names[i], `sim/${names[i].toLowerCase().replace(/ /g, "-")}:latest`, SEED.marketUserId),
  );
}
