/**
 * WorkerGroup: a serverless worker group (autojob, `/api/v0/workergroups/`) of an Endpoint: what
 * to run (a template hash and/or an offer search) and how many test and cold workers. The
 * service runs its workers as instances of the account; deleting the group destroys them.
 */
import * as pulumi from "@pulumi/pulumi";
import { ImportArgs, VastResource } from "../kit/resource";

/** Inputs of a `WorkerGroup` resource (a serverless worker group). */
export interface WorkerGroupArgs extends ImportArgs {
  /** The Endpoint's id (`endpoint.id`, or the number). Changes in place. */
  endpointId: pulumi.Input<string | number>;
  /** Hash of the template workers are made from (`Template.hashId`). This or `searchParams` is required. */
  templateHash?: pulumi.Input<string>;
  /** Offer search for workers, in the service's query text (`gpu_ram>=23 num_gpus=1 gpu_name=RTX_4090`). */
  searchParams?: pulumi.Input<string>;
  /** Launch arguments for the worker instances, as the service's instance creation takes them. */
  launchArgs?: pulumi.Input<string>;
  /** Estimated GPU RAM a worker needs, GB. */
  gpuRam?: pulumi.Input<number>;
  /** Workers started to estimate performance when the group is made. Service default 3. */
  testWorkers?: pulumi.Input<number>;
  /** Least workers kept cold for this group. */
  coldWorkers?: pulumi.Input<number>;
}

/** A serverless worker group; its `workerGroupId` is the id `getWorkerGroupLogs` takes. */
export class WorkerGroup extends VastResource {
  /** Numeric worker group id; also the Pulumi id. */
  declare readonly workerGroupId: pulumi.Output<number>;
  declare readonly endpointId: pulumi.Output<string | number>;
  /** The endpoint's name as the service lists it with the group. */
  declare readonly endpointName: pulumi.Output<string | undefined>;
  declare readonly createdAt: pulumi.Output<string | undefined>;

  /** True when the resource took over an existing object (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: WorkerGroupArgs, opts?: pulumi.CustomResourceOptions) {
    const props = { ...args, workerGroupId: undefined, endpointName: undefined, createdAt: undefined };
    super("workerGroup", "WorkerGroup", name, { ...props, imported: undefined }, opts);
  }
}
