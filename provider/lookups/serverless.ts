/** Lookups of serverless endpoints: endpoints, worker groups, autoscaler templates, deployment versions, worker-group logs. */
import * as pulumi from "@pulumi/pulumi";
import type { AutoscalerTemplates, DeploymentVersion } from "../client/types-account";
import type { ServerlessEndpoint, WorkerGroup } from "../client/types-serverless";
import { InputsOf, LookupOptions, clientOf, knownArgs, outputVariant, positiveInt } from "./common";

/** The user's autoscaler-enabled templates and the globally recommended ones. */
export function getAutoscalerTemplates(userId: number, options?: LookupOptions): Promise<AutoscalerTemplates> {
  return clientOf(options).autoscaler.templates(positiveInt("getAutoscalerTemplates", "userId", userId));
}
/** `getAutoscalerTemplates` with Pulumi inputs, as an Output. */
export const getAutoscalerTemplatesOutput = outputVariant(getAutoscalerTemplates);

/** Stored file versions of a deployment, newest first (`createdAt` in Unix seconds). */
export async function getDeploymentVersions(deploymentId: number, options?: LookupOptions): Promise<DeploymentVersion[]> {
  const versions = await clientOf(options).deployments.versions(positiveInt("getDeploymentVersions", "deploymentId", deploymentId));
  // The service lists newest first; sorting keeps that promise whatever it sends.
  return [...versions].sort((a, b) => b.createdAt - a.createdAt);
}
/** `getDeploymentVersions` with Pulumi inputs, as an Output. */
export const getDeploymentVersionsOutput = outputVariant(getDeploymentVersions);

/** Arguments of `getWorkerGroupLogs`: the worker group and how many lines from the end. */
export interface WorkerGroupLogsArgs {
  /** The worker group's id. */
  workerGroupId: number;
  /** Number of trailing log lines; default: the service's. */
  tail?: number;
}

/** What `getWorkerGroupLogs` returns: the log text and its lines. */
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
/** `getWorkerGroupLogs` with Pulumi inputs, as an Output. */
export const getWorkerGroupLogsOutput = outputVariant(getWorkerGroupLogs);

/** A serverless endpoint group as `getEndpoints` lists it: without its API key. */
export type EndpointInfo = Omit<ServerlessEndpoint, "apiKey">;

/** Arguments of `getEndpoints`: an optional endpoint name to match. */
export interface EndpointsArgs {
  /** Only the endpoint of this name. */
  name?: string;
}

/** The account's serverless endpoint groups, by id. Their API keys are left out (see `getEndpointsOutput`). */
export async function getEndpoints(args: EndpointsArgs = {}, options?: LookupOptions): Promise<EndpointInfo[]> {
  knownArgs("getEndpoints", args, ["name"]);
  const all = await clientOf(options).endpointGroups.list();
  return all
    .filter((e) => args.name === undefined || e.name === args.name)
    .map(({ apiKey: _key, ...rest }) => rest)
    .sort((a, b) => a.id - b.id);
}

/** Arguments of `getEndpointsOutput`: those of `getEndpoints`, plus `includeApiKey` to add each endpoint's key (the Output is then secret). */
export interface EndpointsOutputArgs extends EndpointsArgs {
  /** Include each endpoint's `apiKey`: the whole result is then a secret Output. */
  includeApiKey?: boolean;
}

/**
 * `getEndpoints` for Pulumi inputs. With `includeApiKey`, each endpoint carries its `apiKey` and
 * the Output is secret, so the keys stay encrypted in state and masked in the CLI.
 */
export function getEndpointsOutput(args: pulumi.Input<EndpointsOutputArgs> | InputsOf<EndpointsOutputArgs> = {}, options?: LookupOptions): pulumi.Output<ServerlessEndpoint[]> {
  const resolved = pulumi.output(args) as pulumi.Output<EndpointsOutputArgs | undefined>;
  return resolved.apply((a) => {
    const { includeApiKey, ...rest } = a ?? {};
    knownArgs("getEndpointsOutput", a, ["name", "includeApiKey"]);
    if (!includeApiKey) return pulumi.output(getEndpoints(rest, options) as Promise<ServerlessEndpoint[]>);
    const keyed = clientOf(options)
      .endpointGroups.list()
      .then((all) => all.filter((e) => rest.name === undefined || e.name === rest.name).sort((a, b) => a.id - b.id));
    return pulumi.secret(keyed);
  }) as unknown as pulumi.Output<ServerlessEndpoint[]>;
}

/** A worker group as `getWorkerGroups` lists it: without its API key. */
export type WorkerGroupInfo = Omit<WorkerGroup, "apiKey">;

/** Arguments of `getWorkerGroups`: an optional endpoint to list the groups of. */
export interface WorkerGroupsArgs {
  /** Only the groups of this endpoint. */
  endpointId?: number;
}

/** The account's serverless worker groups (autojobs), by id; `id` is the id `getWorkerGroupLogs` takes. */
export async function getWorkerGroups(args: WorkerGroupsArgs = {}, options?: LookupOptions): Promise<WorkerGroupInfo[]> {
  knownArgs("getWorkerGroups", args, ["endpointId"]);
  const endpointId = args.endpointId === undefined ? undefined : positiveInt("getWorkerGroups", "endpointId", args.endpointId);
  const all = await clientOf(options).workerGroups.list();
  return all
    .filter((g) => endpointId === undefined || g.endpointId === endpointId)
    .map(({ apiKey: _key, ...rest }) => rest)
    .sort((a, b) => a.id - b.id);
}
/** `getWorkerGroups` with Pulumi inputs, as an Output. */
export const getWorkerGroupsOutput = outputVariant(getWorkerGroups);
