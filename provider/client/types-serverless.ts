/** Public (camelCase) types of serverless endpoint groups and worker groups. Wire forms: schemas-serverless.ts. */

/** The scaling settings of an endpoint group, as sent and as read back. */
export interface EndpointSettings {
  /** The endpoint's name (`endpoint_name`), which clients call it by. */
  name: string;
  minLoad?: number;
  minColdLoad?: number;
  targetUtil?: number;
  coldMult?: number;
  coldWorkers?: number;
  maxWorkers?: number;
  /** Seconds. */
  maxQueueTime?: number;
  /** Seconds. */
  targetQueueTime?: number;
  /** Seconds. */
  inactivityTimeout?: number;
}

/** An endpoint group as listed. `apiKey` is the key its callers use: a secret, registered for redaction on read. */
export interface ServerlessEndpoint extends EndpointSettings {
  id: number;
  userId?: number;
  state?: string;
  createdAt?: string;
  apiKey?: string;
}

/** A worker group's settings, as sent and as read back. */
export interface WorkerGroupSettings {
  endpointId: number;
  templateHash?: string;
  templateId?: number;
  searchParams?: string;
  launchArgs?: string;
  /** GB. */
  gpuRam?: number;
  testWorkers?: number;
  coldWorkers?: number;
  /** Scaling fields the vendor's client sends for a group too (the endpoint's govern). */
  minLoad?: number;
  targetUtil?: number;
  coldMult?: number;
  /** The autoscaler the group runs on; the vendor's client sends "prod". */
  autoscalerInstance?: string;
}

/** A worker group (autojob) as listed. */
export interface WorkerGroup extends WorkerGroupSettings {
  id: number;
  userId?: number;
  endpointName?: string;
  /** The search as the service parsed it. */
  searchQuery?: Record<string, unknown>;
  createdAt?: string;
  apiKey?: string;
}

/** What a delete of a worker group or endpoint did to the worker instances. */
export interface WorkersDeleted {
  alreadyGone: boolean;
  /** Worker instances the service destroyed. */
  deletedWorkers: number[];
  /** Worker instances the service failed to destroy (still running, still billed). */
  failedWorkers: number[];
}
