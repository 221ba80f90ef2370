/** Wire schemas (snake_case) of machines, maintenance, copy, bundles, serverless and earnings. */
import { z } from "zod";
import { anyBoolean, anyNumber, anyString, idNumber, mapped, optNumber, optString, record, timestampLike } from "./schema-helpers";
import type {
  AutoscalerTemplates,
  CancelMaintenanceResult,
  DeploymentVersion,
  EarningsChart,
  Machine,
  MachineListingTerms,
  MaintenanceResult,
  MaintenanceWindow,
  RsyncResult,
} from "./types-account";

// ---- machines ----------------------------------------------------------------------------

type ListingField =
  | "listed_gpu_cost" | "listed_storage_cost" | "listed_inet_up_cost" | "listed_inet_down_cost"
  | "min_bid_price" | "min_chunk" | "end_date" | "credit_discount_max";

/** The listing terms of a machine record; undefined when it shows none. */
function listingOf(m: Partial<Record<ListingField, number>>): MachineListingTerms | undefined {
  const terms: MachineListingTerms = {
    pricePerGpu: m.listed_gpu_cost,
    storagePricePerGbMonth: m.listed_storage_cost,
    uploadPricePerGb: m.listed_inet_up_cost,
    downloadPricePerGb: m.listed_inet_down_cost,
    minBidPerGpu: m.min_bid_price,
    minGpus: m.min_chunk,
    endDate: m.end_date,
    discountRate: m.credit_discount_max,
  };
  const set = Object.entries(terms).filter(([, v]) => v !== undefined);
  return set.length > 0 ? (Object.fromEntries(set) as MachineListingTerms) : undefined;
}

/**
 * Whether the record shows a listing. No vendor source shows a `listed` flag (the vendor's
 * client's machine table shows `listed_gpu_cost`, `min_bid_price`, `credit_discount_max`, ...;
 * the vendor's document only `id` and `name`), so a flag is used when a record has one, and
 * otherwise the listing's on-demand price: a number while the machine has asks, null or absent
 * once they are removed (assumed of the live service: an unlisted machine's record shows no
 * price). A record showing a price reads as listed, so a machine is never taken for free to list
 * while it may hold a listing made elsewhere.
 */
function listedOf(m: { listed?: boolean | null; listed_gpu_cost?: number | null }): boolean {
  if (typeof m.listed === "boolean") return m.listed;
  return typeof m.listed_gpu_cost === "number";
}

/** `{success, extended}`: how many client contracts were extended to the new end date. */
export const machineAsksResponse: z.ZodType<{ extended: number }> = z
  .looseObject({ success: z.boolean().optional(), extended: optNumber })
  .transform((r) => ({ extended: r.extended ?? 0 }));

/** `{success, ...}` of the unlist, min-bid and default-job calls. */
export const machineOkResponse: z.ZodType<{ success: boolean }> = z
  .looseObject({ success: z.boolean().optional() })
  .transform((r) => ({ success: r.success !== false }));

/** The machine id is `id` in the list; some records name it `machine_id`. */
export const machineSchema: z.ZodType<Machine> = mapped(
  {
    id: idNumber.optional(),
    machine_id: idNumber.optional(),
    gpu_name: anyString,
    num_gpus: anyNumber,
    gpu_ram: anyNumber,
    hostname: anyString,
    listed: anyBoolean,
    listed_gpu_cost: anyNumber,
    listed_storage_cost: anyNumber,
    listed_inet_up_cost: anyNumber,
    listed_inet_down_cost: anyNumber,
    min_bid_price: anyNumber,
    min_chunk: anyNumber,
    end_date: anyNumber,
    credit_discount_max: anyNumber,
  },
  (m, raw): Machine => ({
    id: (m.id ?? m.machine_id) as number,
    gpuName: m.gpu_name,
    numGpus: m.num_gpus,
    gpuRamMb: m.gpu_ram,
    hostname: m.hostname,
    listed: listedOf(m),
    listing: listingOf(m),
    raw,
  }),
).refine((m) => typeof m.id === "number", { message: "machine record has neither id nor machine_id" });

export const machineListResponse: z.ZodType<Machine[]> = z
  .looseObject({ machines: z.array(machineSchema) })
  .transform((r) => r.machines);

/** Details: a JSON array holding the machine (empty when there is none). */
export const machineGetResponse: z.ZodType<Machine | null> = z.union([
  z.array(machineSchema).transform((a) => a[0] ?? null),
  z.looseObject({ machines: z.array(machineSchema) }).transform((r) => r.machines[0] ?? null),
]);

export const maintenanceScheduleResponse: z.ZodType<MaintenanceResult[]> = z
  .looseObject({
    results: z.array(
      z.looseObject({ success: z.boolean(), machine_id: idNumber, notifications_sent: optNumber, error: optString, msg: optString }),
    ),
  })
  .transform((r) =>
    r.results.map((x) => ({ success: x.success, machineId: x.machine_id, notificationsSent: x.notifications_sent, error: x.error, message: x.msg })),
  );

const maintenanceWindow: z.ZodType<MaintenanceWindow> = mapped(
  {
    id: idNumber,
    machine_id: idNumber,
    start_time: timestampLike,
    duration_hours: anyNumber,
    maintenance_category: anyString,
    maintenance_reason: anyString,
    created_at: timestampLike,
    cancelled_at: timestampLike,
    end_time: timestampLike,
  },
  (w): MaintenanceWindow => ({
    id: w.id,
    machineId: w.machine_id,
    startTime: w.start_time,
    durationHours: w.duration_hours,
    category: w.maintenance_category,
    reason: w.maintenance_reason,
    createdAt: w.created_at,
    cancelledAt: w.cancelled_at,
    endTime: w.end_time,
  }),
);

/** A bare array (api-facts), or the same under `maintenances`. */
export const maintenanceListResponse: z.ZodType<MaintenanceWindow[]> = z.union([
  z.array(maintenanceWindow),
  z.looseObject({ maintenances: z.array(maintenanceWindow) }).transform((r) => r.maintenances),
]);

export const maintenanceCancelResponse: z.ZodType<CancelMaintenanceResult[]> = z
  .looseObject({ results: z.array(z.looseObject({ success: z.boolean(), maintenance_id: idNumber, msg: optString })) })
  .transform((r) => r.results.map((x) => ({ success: x.success, maintenanceId: x.maintenance_id, message: x.msg })));

// ---- copy, bundles -----------------------------------------------------------------------

export const rsyncResponse: z.ZodType<RsyncResult> = z
  .looseObject({ success: z.boolean(), dst_port: optNumber, dst_addr: optString, src_port: optNumber, src_addr: optString })
  .transform((r) => ({ success: r.success, dstPort: r.dst_port, dstAddr: r.dst_addr, srcPort: r.src_port, srcAddr: r.src_addr }));

/** `{success, msg}`; the message is informational. */
export const copyDirectResponse: z.ZodType<RsyncResult> = z.looseObject({ success: z.boolean() }).transform((r) => ({ success: r.success }));

export const bundleAcceptResponse: z.ZodType<Record<string, unknown>> = record;

// ---- serverless, deployments, autoscaler, earnings ---------------------------------------

/** `{logs}`, or (documented as such) a bare error string at HTTP 200. */
export const workerGroupLogsResponse: z.ZodType<{ logs: string } | { errorText: string }> = z.union([
  z.looseObject({ logs: z.string() }).transform((r) => ({ logs: r.logs })),
  z.string().transform((errorText) => ({ errorText })),
]);

export const deploymentVersionsResponse: z.ZodType<DeploymentVersion[]> = z
  .looseObject({
    versions: z.array(
      z.looseObject({
        id: idNumber,
        file_hash: z.string(),
        version_label: z.string(),
        file_size: z.number(),
        created_at: z.number(),
        last_used_at: z.number().nullish(),
      }),
    ),
  })
  .transform((r) =>
    r.versions.map((v) => ({
      id: v.id,
      fileHash: v.file_hash,
      versionLabel: v.version_label,
      fileSize: v.file_size,
      createdAt: v.created_at,
      lastUsedAt: v.last_used_at ?? null,
    })),
  );

export const autoscalerTemplatesResponse: z.ZodType<AutoscalerTemplates> = z
  .looseObject({ autoscaler: z.array(record).nullish(), recommended: z.array(record).nullish() })
  .transform((r) => ({ autoscaler: r.autoscaler ?? [], recommended: r.recommended ?? [] }));

export const earningsChartResponse: z.ZodType<EarningsChart> = record.transform((raw) => ({ success: raw.success !== false, raw }));
