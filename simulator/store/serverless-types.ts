/** Serverless objects of the simulator's state: endpoint groups and their worker groups (autojobs). */

export interface EndpointRecord {
  id: number;
  userId: number;
  name: string;
  minLoad: number;
  minColdLoad: number;
  targetUtil: number;
  coldMult: number;
  coldWorkers: number;
  maxWorkers: number;
  maxQueueTime: number | null;
  targetQueueTime: number | null;
  inactivityTimeout: number | null;
  /** The key the endpoint's clients use at the run URL; listed with the endpoint. */
  apiKey: string;
  state: string;
  createdAt: number;
}

export interface WorkerGroupRecord {
  id: number;
  userId: number;
  endpointId: number;
  templateHash: string | null;
  templateId: number | null;
  searchParams: string;
  launchArgs: string | null;
  gpuRam: number | null;
  testWorkers: number;
  coldWorkers: number | null;
  minLoad: number | null;
  targetUtil: number | null;
  coldMult: number | null;
  apiKey: string;
  /** Instances of the account this group runs as its workers. */
  workerIds: number[];
  createdAt: number;
}

export interface ServerlessData {
  endpoints: EndpointRecord[];
  workerGroups: WorkerGroupRecord[];
  nextEndpointId: number;
  nextWorkerGroupId: number;
  /** Worker instances whose deletion the next group or endpoint delete reports as failed (control API). */
  undeletableWorkers: number[];
}

export function emptyServerless(): ServerlessData {
  // Above the seeded worker group (SEED.workerGroup.id, 501) whose logs are static.
  return { endpoints: [], workerGroups: [], nextEndpointId: 4001, nextWorkerGroupId: 601, undeletableWorkers: [] };
}
