/**
 * Endpoint: a serverless endpoint group (`/api/v0/endptjobs/`), the name clients call and the
 * scaling policy its worker groups share. Every setting changes in place.
 */
import * as pulumi from "@pulumi/pulumi";
import { ImportArgs, VastResource } from "../kit/resource";

/** Inputs of an `Endpoint` resource (a serverless endpoint). */
export interface EndpointArgs extends ImportArgs {
  /** The endpoint's name (`endpoint_name`): letters, digits, `.`, `_`, `-`, at most 64. Changes in place. */
  name: pulumi.Input<string>;
  /** Minimum floor load in performance units a second (tokens/s for LLMs). Service default 0. */
  minLoad?: pulumi.Input<number>;
  /** Minimum floor load that cold workers may serve. Service default 0. */
  minColdLoad?: pulumi.Input<number>;
  /** Target capacity utilisation, a fraction above 0 and at most 1. Service default 0.9. */
  targetUtil?: pulumi.Input<number>;
  /** Cold (stopped) capacity target as a multiple of the hot target. Service default 2.5. */
  coldMult?: pulumi.Input<number>;
  /** Workers kept cold when there is no load. Service default 5. */
  coldWorkers?: pulumi.Input<number>;
  /** Most workers of the endpoint. Service default 20. */
  maxWorkers?: pulumi.Input<number>;
  /** Most seconds a request may wait in a worker's queue. */
  maxQueueTime?: pulumi.Input<number>;
  /** Seconds within which the queue should be cleared. */
  targetQueueTime?: pulumi.Input<number>;
  /** Seconds without traffic after which the endpoint may scale to zero active workers. */
  inactivityTimeout?: pulumi.Input<number>;
}

/** A serverless endpoint group; its `id` goes into a WorkerGroup's `endpointId`. */
export class Endpoint extends VastResource {
  declare readonly name: pulumi.Output<string>;
  /** Numeric endpoint id; also the Pulumi id. */
  declare readonly endpointId: pulumi.Output<number>;
  /** `active`, or what the service reports. */
  declare readonly state: pulumi.Output<string | undefined>;
  declare readonly createdAt: pulumi.Output<string | undefined>;
  /** The endpoint's API key as the service lists it: a secret output. */
  declare readonly apiKey: pulumi.Output<string | undefined>;
  /**
   * $ charged to date for the endpoint's workers (the account's charges whose metadata names
   * this endpoint, `endpoint_id`) since its creation, 6 decimals; read on refresh and after
   * create and update through one shared walk per process; kept as it was (with a warning) when
   * the charges cannot be read.
   */
  declare readonly spentUsd: pulumi.Output<number | undefined>;
  /** $/hour now of the endpoint's workers (the instances its worker groups run; 0 without any), 6 decimals. */
  declare readonly hourlyCost: pulumi.Output<number | null | undefined>;

  /** True when the resource took over an existing object (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: EndpointArgs, opts?: pulumi.CustomResourceOptions) {
    const props = { ...args, endpointId: undefined, state: undefined, createdAt: undefined, apiKey: undefined, spentUsd: undefined, hourlyCost: undefined };
    super("endpoint", "Endpoint", name, { ...props, imported: undefined }, opts, ["apiKey"]);
  }
}
