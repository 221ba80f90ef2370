/**
 * Shared readers of serverless endpoint groups and worker groups: a refresh of N of them makes
 * one list call each (`GET /api/v0/endptjobs/`, `GET /api/v0/workergroups/`).
 */
import type { ServerlessEndpoint, VastClient, WorkerGroup } from "../../client";
import { getClient } from "../../context";
import { readerFor, type SharedList } from "../kit";

export function liveEndpoints(client: VastClient = getClient()): SharedList<ServerlessEndpoint> {
  return readerFor<ServerlessEndpoint>(client, "endpoints", (c) => ({ fetchAll: () => c.endpointGroups.list(), keyOf: (e) => String(e.id) }));
}

export function liveWorkerGroups(client: VastClient = getClient()): SharedList<WorkerGroup> {
  return readerFor<WorkerGroup>(client, "workerGroups", (c) => ({ fetchAll: () => c.workerGroups.list(), keyOf: (g) => String(g.id) }));
}
