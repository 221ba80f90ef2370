/** Wire schemas (snake_case) of instances and offers, mapped to the public types. */
import { z } from "zod";
import {
  Rows,
  anyBoolean,
  anyNumber,
  anyString,
  idNumber,
  mapped,
  nullableNumber,
  nullableString,
  optBoolean,
  optNumber,
  optString,
  rowsOf,
  withoutSecrets,
} from "./schema-helpers";
import { dropUndefined } from "./schemas";
import { toRequestEnv } from "./wire/env";
import { encodedOnstart } from "./wire/onstart";
import { gbOfMb } from "./wire/units";
import type { CreateInstanceInput, CreateInstanceResult, Instance, InstanceBalance, InstancePage, Offer, PrepayResult, StateChangeResult } from "./types-templates";

// ---- instances -------------------------------------------------------------------------

/** Fields of an instance record that may hold secrets; kept out of `raw`. */
const INSTANCE_SECRET_FIELDS = ["instance_api_key", "api_key", "jupyter_token", "image_login", "docker_login_pass"] as const;

const extraEnv = z.unknown().optional().transform((v): Array<[string, string]> | undefined => {
  if (!Array.isArray(v)) return undefined;
  return v.filter((p): p is [unknown, unknown] => Array.isArray(p) && p.length >= 2).map(([k, val]) => [String(k), String(val)]);
});

export const instanceSchema: z.ZodType<Instance> = mapped(
  {
    id: idNumber,
    actual_status: nullableString,
    intended_status: nullableString,
    cur_state: nullableString,
    next_state: nullableString,
    status_msg: nullableString,
    label: nullableString,
    image_uuid: nullableString,
    template_hash_id: nullableString,
    machine_id: nullableNumber,
    num_gpus: nullableNumber,
    gpu_name: nullableString,
    gpu_ram: nullableNumber,
    dph_total: nullableNumber,
    disk_space: nullableNumber,
    ssh_host: nullableString,
    ssh_port: nullableNumber,
    public_ipaddr: nullableString,
    ports: z.unknown().optional().transform((v) => (v && typeof v === "object" ? (v as Record<string, unknown>) : null)),
    extra_env: extraEnv,
    onstart: nullableString,
    start_date: nullableNumber,
    is_bid: z.unknown().optional().transform((v) => (typeof v === "boolean" ? v : null)),
    min_bid: nullableNumber,
    storage_cost: nullableNumber,
    storage_total_cost: nullableNumber,
  },
  (i, raw): Instance => ({
    id: i.id,
    actualStatus: i.actual_status ?? null,
    intendedStatus: i.intended_status ?? null,
    curState: i.cur_state ?? null,
    nextState: i.next_state ?? null,
    statusMsg: i.status_msg ?? null,
    label: i.label ?? null,
    imageUuid: i.image_uuid ?? null,
    templateHashId: i.template_hash_id ?? null,
    machineId: i.machine_id ?? null,
    numGpus: i.num_gpus ?? null,
    gpuName: i.gpu_name ?? null,
    gpuRamMb: i.gpu_ram ?? null,
    gpuRamGb: gbOfMb(i.gpu_ram),
    dphTotal: i.dph_total ?? null,
    diskSpace: i.disk_space ?? null,
    sshHost: i.ssh_host ?? null,
    sshPort: i.ssh_port ?? null,
    publicIpaddr: i.public_ipaddr ?? null,
    ports: i.ports ?? null,
    extraEnv: i.extra_env,
    onstart: i.onstart ?? null,
    startDate: i.start_date ?? null,
    isBid: i.is_bid ?? null,
    minBid: i.min_bid ?? null,
    storageCostPerGbMonth: i.storage_cost ?? null,
    storageTotalCostPerHour: i.storage_total_cost ?? null,
    raw: withoutSecrets(raw, INSTANCE_SECRET_FIELDS),
  }),
);

/** `{instances: [...]}`; the key must be there: a `200 {}` is not an empty account. */
export const instanceListResponse: z.ZodType<Instance[]> = z
  .looseObject({ instances: z.array(instanceSchema).nullable() })
  .transform((r) => r.instances ?? []);

export const instancePageResponse: z.ZodType<InstancePage> = z
  .looseObject({ instances: z.array(instanceSchema).nullable(), next_token: z.string().nullish(), total_instances: optNumber })
  .transform((r) => ({ instances: r.instances ?? [], nextToken: r.next_token ?? null, totalInstances: r.total_instances }));

/** What a single-instance read answered `{}` (no `instances` key): not proof of anything. */
export const INSTANCE_UNCLEAR = "unclear" as const;

/**
 * Read one: `{instances: <instance>}`; a destroyed one may be `{instances: null}` (gone) or
 * `{}`, which a wrong server answers too: `{}` is INSTANCE_UNCLEAR, for the caller to settle
 * with another read.
 */
export const instanceGetResponse: z.ZodType<Instance | null | typeof INSTANCE_UNCLEAR> = z
  .looseObject({ instances: z.union([instanceSchema, z.array(instanceSchema), z.null()]).optional() })
  .transform((r) => {
    if (!("instances" in r)) return INSTANCE_UNCLEAR;
    const v = r.instances;
    if (Array.isArray(v)) return v[0] ?? null;
    return v ?? null;
  });

export function createInstanceToWire(b: CreateInstanceInput): Record<string, unknown> {
  const v = b.volumeInfo;
  return dropUndefined({
    template_hash_id: b.templateHashId,
    image: b.image,
    env: b.env === undefined && b.ports === undefined ? undefined : toRequestEnv({ env: b.env, ports: b.ports }),
    onstart: b.onstart === undefined ? undefined : encodedOnstart(b.onstart),
    volume_info: v && dropUndefined({ create_new: v.createNew, volume_id: v.volumeId, size: v.size, mount_path: v.mountPath }),
    label: b.label,
    disk: b.disk,
    runtype: b.runtype,
    args_str: b.argsStr,
    target_state: b.targetState,
    cancel_unavail: b.cancelUnavail,
    vm: b.vm,
    image_login: b.imageLogin,
    price: b.price,
  });
}

/** `{success, new_contract, instance_api_key}`; success false means it starts stopped. */
export const createInstanceResponse: z.ZodType<CreateInstanceResult> = z
  .looseObject({ success: optBoolean, new_contract: idNumber, instance_api_key: optString })
  .transform((r) => ({ id: r.new_contract, success: r.success !== false, instanceApiKey: r.instance_api_key }));

/** `{success: true}` or `{success: false, error: "resources_unavailable", msg}` (change queued). */
export const stateChangeResponse: z.ZodType<StateChangeResult> = z
  .looseObject({ success: optBoolean, error: optString, msg: optString })
  .transform((r) => (r.success === false ? { applied: false, code: r.error, message: r.msg } : { applied: true }));

/** `{success, timescale, discount_rate}` after a prepayment. */
export const prepayResponse: z.ZodType<PrepayResult> = z
  .looseObject({ success: optBoolean, timescale: anyNumber, discount_rate: anyNumber })
  .transform((r) => ({ timescale: r.timescale, discountRate: r.discount_rate }));

/** `{refundable_deposit, total_discount, discount_months}`; a missing deposit is none. */
export const balanceResponse: z.ZodType<InstanceBalance> = z
  .looseObject({ refundable_deposit: anyNumber, total_discount: anyNumber, discount_months: anyNumber })
  .transform((r) => ({ refundableDeposit: r.refundable_deposit ?? 0, totalDiscount: r.total_discount, discountMonths: r.discount_months }));

// ---- offers ------------------------------------------------------------------------------

export const offerSchema: z.ZodType<Offer> = mapped(
  {
    id: idNumber,
    machine_id: anyNumber,
    gpu_name: anyString,
    num_gpus: anyNumber,
    gpu_ram: anyNumber,
    dph_total: anyNumber,
    reliability: anyNumber,
    verification: anyString,
    geolocation: anyString,
    disk_space: anyNumber,
    cuda_max_good: anyNumber,
    min_bid: anyNumber,
    rentable: anyBoolean,
    rented: anyBoolean,
  },
  (o, raw): Offer => ({
    id: o.id,
    machineId: o.machine_id,
    gpuName: o.gpu_name,
    numGpus: o.num_gpus,
    gpuRamMb: o.gpu_ram,
    dphTotal: o.dph_total,
    reliability: o.reliability,
    verification: o.verification,
    geolocation: o.geolocation,
    diskSpace: o.disk_space,
    cudaMaxGood: o.cuda_max_good,
    minBid: o.min_bid,
    rentable: o.rentable,
    rented: o.rented,
    raw,
  }),
);

/** Offers are other people's machines: a row that does not validate is skipped, not fatal. */
export const offerSearchResponse: z.ZodType<Rows<Offer>> = z.looseObject({ offers: rowsOf(offerSchema) }).transform((r) => r.offers);
