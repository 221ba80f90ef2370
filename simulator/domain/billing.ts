/**
 * The account's billing history, derived so that it agrees with its instances: every instance
 * (running, or destroyed and recorded in `endedContracts`) is one charge contract priced from its
 * offer (GPU at the offer's base price per hour it was not stopped, disk at the storage price
 * per hour of life: a stopped or outbid instance still pays its disk, as the service bills), every
 * volume (live, or deleted and recorded in `endedVolumes`) one contract of its storage; a
 * serverless worker's rows name its endpoint and group in their metadata. The
 * default account has a seeded past: contracts of instances that ran before the simulator
 * started and the card top-ups that paid for them. Times are Unix seconds of the simulator clock.
 */
import { offerSeed, STORAGE_COST_PER_GB_MONTH } from "./offers";
import type { SimContext } from "../context";
import { OFFER_SEEDS } from "../seed/offers";
import { SEED } from "../seed/seed";
import type { EndedContractRecord, EndedVolumeRecord, InstanceRecord } from "../store/types";
import type { VolumeRecord } from "../store/volume-types";
import { volumeOfferSeed } from "./volumes";
import { stoppedMsOf } from "./stopped";

const HOUR = 3600;
const DAY = 24 * HOUR;
/** Storage (disk and volumes) is priced per month of 30 days, as rows' `storage_total_cost` shows (offers.ts, volumes.ts). */
const HOURS_PER_MONTH = 30 * 24;
const VOLUME_HOURS_PER_MONTH = HOURS_PER_MONTH;


export interface ChargeRow {
  start: number;
  end: number;
  /** `instance` (serverless workers too, their endpoint in `metadata`) or `volume`, as the table format gives them. */
  type: "instance" | "volume";
  source: string;
  description: string;
  amount: number;
  metadata: Record<string, unknown>;
  items: { start: number; end: number; type: "gpu" | "disk"; source: null; description: string; amount: number; metadata: Record<string, unknown> }[];
}

export interface InvoiceRow {
  id: number;
  start: number;
  end: number | null;
  type: "credit";
  source: string;
  description: string;
  amount: number;
  metadata: { invoice_id: number; service: string };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** One contract: an ended one as the store keeps it, without its owner; a worker's names its endpoint and group. */
type Contract = Omit<EndedContractRecord, "userId"> & { endpointId?: number; workerGroupId?: number };
type VolumeContract = Omit<EndedVolumeRecord, "userId">;

function chargeOf(contract: Contract): ChargeRow {
  // The document gives whole seconds.
  const c = { ...contract, start: Math.floor(contract.start), end: Math.floor(contract.end) };
  const offer = offerSeed(c.offerId);
  const hours = Math.max(0, c.end - c.start) / HOUR;
  const runningHours = Math.max(0, c.end - c.start - (c.stoppedS ?? 0)) / HOUR;
  const diskPerHour = (STORAGE_COST_PER_GB_MONTH / HOURS_PER_MONTH) * c.diskGb;
  const gpuPerHour = offer ? Math.max(0, offer.dphTotal - (STORAGE_COST_PER_GB_MONTH / HOURS_PER_MONTH) * 8) : 0;
  const gpu = round3(runningHours * gpuPerHour);
  const disk = round3(hours * diskPerHour);
  const metadata: Record<string, unknown> = {};
  if (c.templateId !== null) metadata.template_id = c.templateId;
  if (c.label) metadata.label = c.label;
  if (c.endpointId !== undefined) metadata.endpoint_id = c.endpointId;
  if (c.workerGroupId !== undefined) metadata.workergroup_id = c.workerGroupId;
  return {
    start: c.start,
    end: c.end,
    type: "instance",
    source: `instance-${c.instanceId}`,
    description: `Instance ${c.instanceId} Charges - ${hours.toFixed(1)} hours`,
    amount: round3(gpu + disk),
    metadata,
    items: [
      { start: c.start, end: c.end, type: "gpu", source: null, description: `${runningHours.toFixed(3)} hours at $${gpuPerHour.toFixed(3)}/hour`, amount: gpu, metadata: {} },
      { start: c.start, end: c.end, type: "disk", source: null, description: `${c.diskGb} GB for ${hours.toFixed(3)} hours`, amount: disk, metadata: {} },
    ],
  };
}

/** A volume's contract: its storage at the offer's price per GB and month, per hour of life (one `disk` item). */
function volumeChargeOf(contract: VolumeContract): ChargeRow {
  const c = { ...contract, start: Math.floor(contract.start), end: Math.floor(contract.end) };
  const offer = volumeOfferSeed(c.offerId);
  const hours = Math.max(0, c.end - c.start) / HOUR;
  const perHour = offer ? (offer.storageCost * c.sizeGb) / VOLUME_HOURS_PER_MONTH : 0;
  const disk = round3(hours * perHour);
  return {
    start: c.start,
    end: c.end,
    type: "volume",
    source: `volume-${c.volumeId}`,
    description: `Volume ${c.volumeId} Charges - ${hours.toFixed(1)} hours`,
    amount: disk,
    metadata: {},
    items: [{ start: c.start, end: c.end, type: "disk", source: null, description: `${c.sizeGb} GB for ${hours.toFixed(3)} hours`, amount: disk, metadata: {} }],
  };
}

/** Contracts of the default account's seeded past: 12 instances over the 90 days before today. */
function pastContracts(nowS: number): Contract[] {
  const today = Math.floor(nowS / DAY) * DAY;
  return Array.from({ length: 12 }, (_, i) => {
    const offer = OFFER_SEEDS[(i * 5) % OFFER_SEEDS.length];
    const start = today - (88 - i * 7) * DAY + (i % 4) * 3 * HOUR;
    const hours = 6 + ((i * 13) % 60);
    return { instanceId: 7000001 + i, offerId: offer.id, label: `past-run-${i + 1}`, templateId: null, diskGb: 16 + (i % 3) * 16, start, end: start + hours * HOUR };
  });
}

function liveContract(inst: InstanceRecord, nowS: number): Contract {
  const stoppedS = stoppedMsOf(inst, nowS * 1000) / 1000;
  return { instanceId: inst.id, offerId: inst.offerId, label: inst.label, templateId: inst.templateId, diskGb: inst.diskSpace, start: inst.createdAt / 1000, end: nowS, ...(stoppedS > 0 ? { stoppedS } : {}) };
}

function liveVolumeContract(v: VolumeRecord, nowS: number): VolumeContract {
  return { volumeId: v.id, offerId: v.offerId, sizeGb: v.sizeGb, start: v.createdAt / 1000, end: nowS };
}

/** What a deleted volume leaves for the billing history. */
export function endedVolume(ctx: SimContext, v: VolumeRecord): EndedVolumeRecord {
  return { ...liveVolumeContract(v, ctx.now() / 1000), userId: v.userId };
}

/** What a destroyed instance leaves for the billing history. */
export function endedContract(ctx: SimContext, inst: InstanceRecord): EndedContractRecord {
  return { ...liveContract(inst, ctx.now() / 1000), userId: inst.userId };
}

/** Every charge contract of the account, newest start first. */
export function chargesOf(ctx: SimContext, userId: number): ChargeRow[] {
  const nowS = ctx.now() / 1000;
  // A serverless worker's rows name its endpoint and worker group (vendor document: metadata).
  const groupOf = new Map<number, { endpointId: number; id: number }>();
  for (const g of ctx.store.data.serverless.workerGroups) for (const w of g.workerIds) groupOf.set(w, { endpointId: g.endpointId, id: g.id });
  const live = (i: InstanceRecord): Contract => {
    const g = groupOf.get(i.id);
    return { ...liveContract(i, nowS), ...(g ? { endpointId: g.endpointId, workerGroupId: g.id } : {}) };
  };
  const contracts: Contract[] = [
    ...(userId === SEED.user.id ? pastContracts(nowS) : []),
    ...ctx.store.data.endedContracts.filter((c) => c.userId === userId),
    ...ctx.store.data.instances.filter((i) => i.userId === userId).map(live),
  ];
  const volumes: VolumeContract[] = [
    ...(ctx.store.data.endedVolumes ?? []).filter((v) => v.userId === userId),
    ...ctx.store.data.volumes.items.filter((v) => v.userId === userId).map((v) => liveVolumeContract(v, nowS)),
  ];
  return [...contracts.map(chargeOf), ...volumes.map(volumeChargeOf)].sort((a, b) => b.start - a.start);
}

/** The default account's card top-ups: $150 every 15 days over the last 90, enough for its past. */
export function invoicesOf(ctx: SimContext, userId: number): InvoiceRow[] {
  if (userId !== SEED.user.id) return [];
  const today = Math.floor(ctx.now() / 1000 / DAY) * DAY;
  return Array.from({ length: 6 }, (_, i) => {
    const start = today - (90 - i * 15) * DAY + 10 * HOUR;
    const id = 2185401 + i;
    return {
      id,
      start,
      end: start + 257,
      type: "credit" as const,
      source: "stripe",
      description: `Manual Billing from MASTERCARD ...${String(7370 + i)}`,
      amount: -150,
      metadata: { invoice_id: id, service: "stripe_payments" },
    };
  }).sort((a, b) => b.start - a.start);
}

/** Credit left: what the top-ups paid in, less every charge so far (dollars). */
export function creditOf(ctx: SimContext, userId: number): number {
  const paid = invoicesOf(ctx, userId).reduce((n, i) => n - i.amount, 0);
  const spent = chargesOf(ctx, userId).reduce((n, c) => n + c.amount, 0);
  return Math.round((paid - spent) * 100) / 100;
}
