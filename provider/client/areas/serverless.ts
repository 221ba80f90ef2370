/**
 * Serverless endpoint groups (`/api/v0/endptjobs/`) and worker groups (`/api/v0/workergroups/`,
 * which the vendor's client calls `/api/v0/autojobs/`). Both lists carry each object's API key;
 * the schemas register it for redaction as soon as it is read.
 */
import type { RequestCore } from "../core";
import { ENDPOINTS } from "../endpoints";
import { BadRequestError } from "../errors";
import {
  endpointCreateResponse,
  endpointListResponse,
  workerGroupCreateResponse,
  workerGroupListResponse,
  workerGroupWorkersResponse,
  workersDeletedResponse,
} from "../schemas-serverless";
import type { EndpointSettings, ServerlessEndpoint, WorkerGroup, WorkerGroupSettings, WorkersDeleted } from "../types-serverless";
import { successResponse } from "../schemas";
import { SUCCESS_TRUE, deleteConfirmed } from "./confirm";

function endpointBody(s: EndpointSettings): Record<string, unknown> {
  return {
    // As the vendor's client sends them on create and update (its --auto_instance defaults to prod).
    client_id: "me",
    autoscaler_instance: "prod",
    endpoint_name: s.name,
    min_load: s.minLoad,
    min_cold_load: s.minColdLoad,
    target_util: s.targetUtil,
    cold_mult: s.coldMult,
    cold_workers: s.coldWorkers,
    max_workers: s.maxWorkers,
    max_queue_time: s.maxQueueTime,
    target_queue_time: s.targetQueueTime,
    inactivity_timeout: s.inactivityTimeout,
  };
}

function groupBody(s: WorkerGroupSettings): Record<string, unknown> {
  return {
    endpoint_id: s.endpointId,
    template_hash: s.templateHash,
    template_id: s.templateId,
    search_params: s.searchParams,
    launch_args: s.launchArgs,
    gpu_ram: s.gpuRam,
    test_workers: s.testWorkers,
    cold_workers: s.coldWorkers,
    min_load: s.minLoad,
    target_util: s.targetUtil,
    cold_mult: s.coldMult,
    autoscaler_instance: s.autoscalerInstance,
  };
}

const defined = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));

/** The service's "no such endpoint" (400 invalid_args "... not found for user"). */
const NOT_FOUND_FOR_USER = /not found/i;

/** Serverless endpoint groups of the account. */
export class EndpointGroupsApi {
  constructor(private readonly core: RequestCore) {}

  list(): Promise<ServerlessEndpoint[]> {
    return this.core.request({ endpoint: ENDPOINTS.endpointsList, schema: endpointListResponse });
  }

  /** Creates an endpoint group; answers its id. Not resent if the response is lost: list to check. */
  create(settings: EndpointSettings): Promise<number> {
    return this.core.request({ endpoint: ENDPOINTS.endpointsCreate, body: defined(endpointBody(settings)), schema: endpointCreateResponse });
  }

  /** Sets every setting of endpoint `id` (fields left undefined keep their value). */
  async update(id: number, settings: EndpointSettings): Promise<void> {
    await this.core.request({ endpoint: ENDPOINTS.endpointsUpdate, params: { id }, body: defined(endpointBody(settings)), schema: successResponse });
  }

  /** Deletes the endpoint, its worker groups and their workers; an unknown id is already gone. */
  async delete(id: number): Promise<WorkersDeleted> {
    let answer = { deletedWorkers: [] as number[], failedWorkers: [] as number[] };
    const result = await deleteConfirmed({
      what: `endpoint ${id}`,
      run: async () => {
        answer = await this.core.request({ endpoint: ENDPOINTS.endpointsDelete, params: { id }, schema: workersDeletedResponse, documented: SUCCESS_TRUE });
      },
      isGone: (e) => e instanceof BadRequestError && NOT_FOUND_FOR_USER.test(e.serverMessage ?? ""),
      stillThere: async () => (await this.list()).some((e) => e.id === id),
    });
    return { alreadyGone: result.alreadyGone, ...answer };
  }
}

/** Serverless worker groups (autojobs) of the account. */
export class WorkerGroupsApi {
  constructor(private readonly core: RequestCore) {}

  list(): Promise<WorkerGroup[]> {
    return this.core.request({ endpoint: ENDPOINTS.workerGroupsList, schema: workerGroupListResponse });
  }

  /** Creates a worker group; answers its id (the id its logs use). Not resent if the response is lost. */
  create(settings: WorkerGroupSettings): Promise<number> {
    return this.core.request({ endpoint: ENDPOINTS.workerGroupsCreate, body: defined(groupBody(settings)), schema: workerGroupCreateResponse });
  }

  /**
   * The ids of the group's worker instances (`POST {run_url}/get_workergroup_workers`), or
   * null when the service does not know the group (its bare error string).
   */
  workers(id: number): Promise<number[] | null> {
    return this.core.request({ endpoint: ENDPOINTS.workerGroupWorkers, body: { id }, schema: workerGroupWorkersResponse });
  }

  async update(id: number, settings: WorkerGroupSettings): Promise<void> {
    await this.core.request({ endpoint: ENDPOINTS.workerGroupsUpdate, params: { id }, body: defined(groupBody(settings)), schema: successResponse });
  }

  /**
   * Deletes the group; the service destroys its worker instances and says which it could not
   * (`failedWorkers`). An unknown id (404 `no_such_workergroup`) is already gone.
   */
  async delete(id: number): Promise<WorkersDeleted> {
    let answer = { deletedWorkers: [] as number[], failedWorkers: [] as number[] };
    const result = await deleteConfirmed({
      what: `worker group ${id}`,
      run: async () => {
        answer = await this.core.request({ endpoint: ENDPOINTS.workerGroupsDelete, params: { id }, schema: workersDeletedResponse, documented: SUCCESS_TRUE });
      },
      stillThere: async () => (await this.list()).some((g) => g.id === id),
    });
    return { alreadyGone: result.alreadyGone, ...answer };
  }
}
