/**
 * WorkerGroup: a serverless worker group (autojob, `/api/v0/workergroups/`) of an Endpoint: what
 * to run (a template hash and/or an offer search) and how many test and cold workers. The
 * service runs its workers as instances of the account; deleting the group destroys them.
 */
import { resourceClass, type ImportedOutput, type Inputs } from "../kit/declare";
import type { ImportArgs } from "../kit/resource";
import { WORKER_GROUP } from "./declare";

/** A WorkerGroup's inputs, each also an output of the same name. */
interface WorkerGroupFields {
  /** The Endpoint's id (`endpoint.id`, or the number). Changes in place. */
  endpointId: string | number;
  /** Hash of the template workers are made from (`Template.hashId`). This or `searchParams` is required. */
  templateHash?: string;
  /** Offer search for workers, in the service's query text (`gpu_ram>=23 num_gpus=1 gpu_name=RTX_4090`). */
  searchParams?: string;
  /** Launch arguments for the worker instances, as the service's instance creation takes them. */
  launchArgs?: string;
  /** Estimated GPU RAM a worker needs, GB. */
  gpuRam?: number;
  /** Workers started to estimate performance when the group is made. Service default 3. */
  testWorkers?: number;
  /** Least workers kept cold for this group. */
  coldWorkers?: number;
}

/** What the service shows of it. */
interface WorkerGroupComputed extends ImportedOutput {
  /** Numeric worker group id; also the Pulumi id. */
  workerGroupId: number;
  /** The endpoint's name as the service lists it with the group. */
  endpointName: string | undefined;
  createdAt: string | undefined;
}

/** Inputs of a `WorkerGroup` resource (a serverless worker group). */
export interface WorkerGroupArgs extends ImportArgs, Inputs<WorkerGroupFields> {}

/** A serverless worker group; its `workerGroupId` is the id `getWorkerGroupLogs` takes. */
export class WorkerGroup extends resourceClass<WorkerGroupArgs, WorkerGroupFields & WorkerGroupComputed>(WORKER_GROUP) {}
