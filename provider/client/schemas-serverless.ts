/** Wire schemas (snake_case) of serverless endpoint groups and worker groups. */
import { z } from "zod";
import { registerSecret } from "./redact";
import { anyNumber, idNumber, mapped, optBoolean, optNumber, optString } from "./schema-helpers";
import type { ServerlessEndpoint, WorkerGroup } from "./types-serverless";

const timeText = z.union([z.string(), z.number()]).nullish().transform((v) => (v === null || v === undefined ? undefined : String(v)));
const anyObject = z.unknown().optional().transform((v) => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined));

export const endpointItem: z.ZodType<ServerlessEndpoint> = mapped(
  {
    id: idNumber,
    user_id: optNumber,
    endpoint_name: z.string().nullish(),
    min_load: optNumber,
    min_cold_load: optNumber,
    target_util: optNumber,
    cold_mult: optNumber,
    cold_workers: optNumber,
    max_workers: optNumber,
    max_queue_time: optNumber,
    target_queue_time: optNumber,
    inactivity_timeout: optNumber,
    api_key: optString,
    endpoint_state: optString,
    created_at: timeText,
  },
  (r) => {
    // The endpoint's key is listed with it: never to be printed anywhere after this.
    registerSecret(r.api_key);
    return {
      id: r.id,
      userId: r.user_id,
      name: r.endpoint_name ?? "",
      minLoad: r.min_load,
      minColdLoad: r.min_cold_load,
      targetUtil: r.target_util,
      coldMult: r.cold_mult,
      coldWorkers: r.cold_workers,
      maxWorkers: r.max_workers,
      maxQueueTime: r.max_queue_time,
      targetQueueTime: r.target_queue_time,
      inactivityTimeout: r.inactivity_timeout,
      apiKey: r.api_key,
      state: r.endpoint_state,
      createdAt: r.created_at,
    };
  },
);

export const workerGroupItem: z.ZodType<WorkerGroup> = mapped(
  {
    id: idNumber,
    user_id: optNumber,
    endpoint_id: idNumber,
    endpoint_name: optString,
    template_hash: optString,
    template_id: optNumber,
    search_params: optString,
    search_query: anyObject,
    launch_args: optString,
    gpu_ram: optNumber,
    test_workers: optNumber,
    cold_workers: optNumber,
    min_load: anyNumber,
    target_util: anyNumber,
    cold_mult: anyNumber,
    api_key: optString,
    created_at: timeText,
  },
  (r) => {
    registerSecret(r.api_key);
    return {
      id: r.id,
      userId: r.user_id,
      endpointId: r.endpoint_id,
      endpointName: r.endpoint_name,
      templateHash: r.template_hash,
      templateId: r.template_id,
      searchParams: r.search_params,
      searchQuery: r.search_query,
      launchArgs: r.launch_args,
      gpuRam: r.gpu_ram,
      testWorkers: r.test_workers,
      coldWorkers: r.cold_workers,
      minLoad: r.min_load,
      targetUtil: r.target_util,
      coldMult: r.cold_mult,
      apiKey: r.api_key,
      createdAt: r.created_at,
    };
  },
);

/**
 * `{success, results: [...]}`; a `success: false` answer is the service's "none". Any other
 * answer without `results` (a `200 {}`) is not an empty list: it is refused.
 */
function listOf<T>(item: z.ZodType<T>): z.ZodType<T[]> {
  return z
    .looseObject({ success: optBoolean, results: z.array(item).nullish() })
    .refine((r) => r.success === false || "results" in r, { message: "`results` is missing (an empty list is `results: []`)", path: ["results"] })
    .transform((r) => r.results ?? []) as unknown as z.ZodType<T[]>;
}

export const endpointListResponse = listOf(endpointItem);
export const workerGroupListResponse = listOf(workerGroupItem);

/** `{success, result: <id>}` (create endpoint). */
export const endpointCreateResponse = z.looseObject({ success: optBoolean, result: idNumber }).transform((r) => r.result);
/** `{success, id}` (create worker group). */
export const workerGroupCreateResponse = z.looseObject({ success: optBoolean, id: idNumber }).transform((r) => r.id);

/**
 * `{workers: [{id, status, ...}]}` (get workergroup workers), or the service's bare error
 * string for a group it does not know (null: no such group).
 */
export const workerGroupWorkersResponse: z.ZodType<number[] | null> = z.union([
  z.looseObject({ workers: z.array(z.looseObject({ id: idNumber })) }).transform((r) => r.workers.map((w) => w.id)),
  z.string().transform(() => null),
]);

const idList = z.array(z.unknown()).nullish().transform((v) => (v ?? []).filter((x): x is number => typeof x === "number"));
/** `{success, deleted_workers, failed_workers, msg}`. */
export const workersDeletedResponse = z
  .looseObject({ success: optBoolean, deleted_workers: idList, failed_workers: idList })
  .transform((r) => ({ deletedWorkers: r.deleted_workers, failedWorkers: r.failed_workers }));
