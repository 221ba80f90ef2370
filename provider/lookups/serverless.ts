/** Lookups of serverless endpoints: autoscaler templates, deployment versions, worker-group logs. */
import type { AutoscalerTemplates, DeploymentVersion } from "../client/types-account";
import { LookupOptions, clientOf, knownArgs, outputVariant, positiveInt } from "./common";

/** The user's autoscaler-enabled templates and the globally recommended ones. */
export function getAutoscalerTemplates(userId: number, options?: LookupOptions): Promise<AutoscalerTemplates> {
  return clientOf(options).autoscaler.templates(positiveInt("getAutoscalerTemplates", "userId", userId));
}
export const getAutoscalerTemplatesOutput = outputVariant(getAutoscalerTemplates);

/** Stored file versions of a deployment, newest first (`createdAt` in Unix seconds). */
export async function getDeploymentVersions(deploymentId: number, options?: LookupOptions): Promise<DeploymentVersion[]> {
  const versions = await clientOf(options).deployments.versions(positiveInt("getDeploymentVersions", "deploymentId", deploymentId));
  // The service lists newest first; sorting keeps that promise whatever it sends.
  return [...versions].sort((a, b) => b.createdAt - a.createdAt);
}
export const getDeploymentVersionsOutput = outputVariant(getDeploymentVersions);

export interface WorkerGroupLogsArgs {
  /** The worker group's id. */
  workerGroupId: number;
  /** Number of trailing log lines; default: the service's. */
  tail?: number;
}

export interface WorkerGroupLogs {
  /** The log text as the service sends it. */
  logs: string;
  /** The same, one entry per line. */
  lines: string[];
}

/** Recent log output of a serverless worker group (served from the run URL, `vastai:runUrl`). */
export async function getWorkerGroupLogs(args: WorkerGroupLogsArgs, options?: LookupOptions): Promise<WorkerGroupLogs> {
  knownArgs("getWorkerGroupLogs", args, ["workerGroupId", "tail"]);
  const workerGroupId = positiveInt("getWorkerGroupLogs", "workerGroupId", args.workerGroupId);
  const tail = args.tail === undefined ? undefined : positiveInt("getWorkerGroupLogs", "tail", args.tail);
  const { logs } = await clientOf(options).serverless.workerGroupLogs({ workerGroupId, tail });
  return { logs, lines: logs === "" ? [] : logs.split("\n") };
}
export const getWorkerGroupLogsOutput = outputVariant(getWorkerGroupLogs);
