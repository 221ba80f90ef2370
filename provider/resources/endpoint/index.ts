/**
 * Endpoint: a serverless endpoint group (`/api/v0/endptjobs/`), the name clients call and the
 * scaling policy its worker groups share. Every setting changes in place.
 */
import { resourceClass, type ImportedOutput, type Inputs } from "../kit/declare";
import type { ImportArgs } from "../kit/resource";
import { ENDPOINT } from "./declare";

/** An Endpoint's inputs, each also an output of the same name. */
interface EndpointFields {
  /** The endpoint's name (`endpoint_name`): letters, digits, `.`, `_`, `-`, at most 64. Changes in place. */
  name: string;
  /** Minimum floor load in performance units a second (tokens/s for LLMs). Service default 0. */
  minLoad?: number;
  /** Minimum floor load that cold workers may serve. Service default 0. */
  minColdLoad?: number;
  /** Target capacity utilisation, a fraction above 0 and at most 1. Service default 0.9. */
  targetUtil?: number;
  /** Cold (stopped) capacity target as a multiple of the hot target. Service default 2.5. */
  coldMult?: number;
  /** Workers kept cold when there is no load. Service default 5. */
  coldWorkers?: number;
  /** Most workers of the endpoint. Service default 20. */
  maxWorkers?: number;
  /** Most seconds a request may wait in a worker's queue. */
  maxQueueTime?: number;
  /** Seconds within which the queue should be cleared. */
  targetQueueTime?: number;
  /** Seconds without traffic after which the endpoint may scale to zero active workers. */
  inactivityTimeout?: number;
}

/** What the service shows of it. */
interface EndpointComputed extends ImportedOutput {
  /** Numeric endpoint id; also the Pulumi id. */
  endpointId: number;
  /** `active`, or what the service reports. */
  state: string | undefined;
  createdAt: string | undefined;
  /** The endpoint's API key as the service lists it: a secret output. */
  apiKey: string | undefined;
  /**
   * $ charged to date for the endpoint's workers (the account's charges whose metadata names
   * this endpoint, `endpoint_id`) since its creation, 6 decimals; read on refresh and after
   * create and update through one shared walk per process; kept as it was (with a warning) when
   * the charges cannot be read.
   */
  spentUsd: number | undefined;
  /** $/hour now of the endpoint's workers (the instances its worker groups run; 0 without any), 6 decimals. */
  hourlyCost: number | null | undefined;
}

/** Inputs of an `Endpoint` resource (a serverless endpoint). */
export interface EndpointArgs extends ImportArgs, Inputs<EndpointFields> {}

/** A serverless endpoint group; its `id` goes into a WorkerGroup's `endpointId`. */
export class Endpoint extends resourceClass<EndpointArgs, EndpointFields & EndpointComputed>(ENDPOINT) {}
