/** Offers as the search shows them, and their availability (changed by `POST /_sim/offers/{id}`). */
import { machineById } from "../seed/machines";
import { marketClusterOf } from "../seed/market-clusters";
import { minBidOf } from "./bids";
import { MARKET_FIRST_OFFER_ID, OFFER_SEEDS, marketOffer, seedOffer, type OfferSeed } from "../seed/offers";
import type { Store } from "../store/store";
import type { InstanceRecord, OfferState } from "../store/types";

/** An offer by id, for the records of instances that rented it. */
export function offerSeed(id: number): OfferSeed | undefined {
  return seedOffer(id);
}

/** The offers this simulator shows: the fixed catalogue and `marketOffers` of the bulk market. */
export function catalogue(marketOffers: number): OfferSeed[] {
  return [...OFFER_SEEDS, ...Array.from({ length: marketOffers }, (_, i) => marketOffer(i))];
}

/** The offer `id` when this simulator shows it. */
export function catalogueOffer(marketOffers: number, id: number): OfferSeed | undefined {
  const o = seedOffer(id);
  return o && (id < MARKET_FIRST_OFFER_ID || id - MARKET_FIRST_OFFER_ID < marketOffers) ? o : undefined;
}

/**
 * Availability of an offer. An offer is a bundle of a machine's free GPUs; renting it takes
 * those GPUs, so the service drops it from the search and answers its create with 404
 * `no_such_ask` until the instance is destroyed. Every offer here covers every GPU of its machine
 * (one offer per machine), so any rental takes its offer whole, whatever its `num_gpus`.
 * The control API's state (`unavailable`, `gone`) wins.
 */
export function offerState(store: Store, id: number, holder?: number): OfferState {
  const set = store.data.offerStates[String(id)];
  if (set !== undefined && set !== "available") return set;
  return isTaken(store, id, holder) ? "gone" : "available";
}

/**
 * Statuses that never come back to `running` (spec: "States and transitions"): such an
 * instance's container is gone and its GPUs go back to the market, though the instance stays
 * listed until it is destroyed. So a dead instance's offer can be rented again, which is how a
 * replacement created before the dead instance is deleted finds a machine.
 */
const DEAD_STATUSES = new Set(["exited", "unknown", "offline"]);

function holdsGpus(i: InstanceRecord): boolean {
  const status = i.statusOverride ? i.statusOverride.value : i.finalStatus;
  return status === null || !DEAD_STATUSES.has(status);
}

/** An instance (of any account) other than `holder` holds the offer. */
export function isTaken(store: Store, id: number, holder?: number): boolean {
  return store.data.instances.some((i) => i.offerId === id && i.id !== holder && holdsGpus(i));
}

/** The offer's $/hour at the default disk: the seed's, unless the control API changed it. */
export function offerPrice(store: Store, o: OfferSeed): number {
  return store.data.offerPrices?.[String(o.id)] ?? o.dphTotal;
}

/** The on-demand $/hour of renting `o` now with `diskGb` of disk, as `dph_total` shows it. */
export function pricedWithDisk(store: Store, o: OfferSeed, diskGb: number): number {
  const base = offerPrice(store, o) - (STORAGE_COST_PER_GB_MONTH / HOURS_PER_MONTH) * DEFAULT_ALLOCATED_STORAGE_GB;
  return Math.round((base + (STORAGE_COST_PER_GB_MONTH / HOURS_PER_MONTH) * diskGb) * 1e6) / 1e6;
}

/** Disk priced into `dph_total` when a search names none, GB (the service's default). */
export const DEFAULT_ALLOCATED_STORAGE_GB = 8;
/** $ per GB per month of disk, as the offers' `storage_cost`. */
export const STORAGE_COST_PER_GB_MONTH = 0.15;
const HOURS_PER_MONTH = 30 * 24;

/**
 * An offer as the search shows it. The seed's price is the total at the default 8 GB of disk;
 * `allocatedStorageGb` moves `dph_total` by the storage price of the difference, as the
 * service prices the disk the instance will have.
 */
export function offerView(store: Store, o: OfferSeed, allocatedStorageGb = DEFAULT_ALLOCATED_STORAGE_GB): Record<string, unknown> {
  const machine = machineById(o.machineId);
  const state = offerState(store, o.id);
  const rentable = state === "available";
  const storagePerHour = (STORAGE_COST_PER_GB_MONTH / HOURS_PER_MONTH) * allocatedStorageGb;
  const basePerHour = offerPrice(store, o) - (STORAGE_COST_PER_GB_MONTH / HOURS_PER_MONTH) * DEFAULT_ALLOCATED_STORAGE_GB;
  const dphTotal = pricedWithDisk(store, o, allocatedStorageGb);
  return {
    id: o.id,
    ask_contract_id: o.id,
    bundle_id: o.id,
    machine_id: o.machineId,
    host_id: machine?.ownerId,
    gpu_name: o.gpuName,
    num_gpus: o.numGpus,
    gpu_ram: o.gpuRam,
    gpu_total_ram: o.gpuRam * o.numGpus,
    cpu_cores: 16 * o.numGpus,
    cpu_ram: 65536 * o.numGpus,
    disk_space: o.diskSpace,
    dph_total: dphTotal,
    dph_base: Math.round(basePerHour * 1e6) / 1e6,
    storage_cost: STORAGE_COST_PER_GB_MONTH,
    storage_total_cost: Math.round(storagePerHour * 1e6) / 1e6,
    allocated_storage: allocatedStorageGb,
    // Deep-learning performance per dollar, the vendor's default sort key.
    score: Math.round((o.reliability * o.numGpus * o.gpuRam) / 1000 / o.dphTotal) / 100,
    min_bid: minBidOf(store, o.id),
    reliability: o.reliability,
    reliability2: o.reliability,
    verification: o.verified ? "verified" : "unverified",
    verified: o.verified,
    geolocation: o.geolocation,
    cuda_max_good: o.cudaMaxGood,
    inet_down: o.inetDown,
    inet_up: Math.round(o.inetDown / 2),
    ...vocabularyFields(o, dphTotal),
    public_ipaddr: machine?.publicIp,
    external: false,
    rentable,
    // An offer that cannot start now is one another renter holds.
    rented: state === "unavailable",
  };
}

/** Consumer hosts behind NAT: no direct ports, so they never publish a container port (api-facts: Live quirks). */
const NO_DIRECT_PORTS = new Set([700020, 700022]);

/** CUDA compute capability x 100 by GPU model, as the service reports `compute_cap`. */
function computeCap(gpuName: string): number {
  if (/H100/.test(gpuName)) return 900;
  if (/A100/.test(gpuName)) return 800;
  if (/5090/.test(gpuName)) return 1200;
  if (/40[0-9]0|L40/.test(gpuName)) return 890;
  return 860;
}

/** NVIDIA driver versions of the hosts, by offer id (the oldest on the consumer card). */
const DRIVERS = ["550.54.15", "535.183.01", "550.107.02", "560.35.03"];

function driverOf(o: OfferSeed): string {
  return o.gpuName === "RTX 3060" ? "470.256.02" : DRIVERS[o.id % DRIVERS.length];
}

/**
 * A driver version as the service's numeric `driver_vers` (each part 3 digits: 535.86.05 is
 * 535086005), which `driver_version` filters with a number compare against.
 */
export function driverNumber(version: string): number {
  return Number(version.split(".").map((p) => p.padStart(3, "0")).join(""));
}

/** Board power limit (W) and temperature limit (C) by GPU model. */
function gpuLimits(gpuName: string): [number, number] {
  if (/H100/.test(gpuName)) return [700, 87];
  if (/A100/.test(gpuName)) return [400, 85];
  if (/5090/.test(gpuName)) return [575, 90];
  if (/4090/.test(gpuName)) return [450, 90];
  if (/L40S|A6000/.test(gpuName)) return [300, 89];
  if (/3060/.test(gpuName)) return [170, 93];
  return [350, 91];
}

const MOBOS = ["ROMED8-2T", "H12DSi-N6", "X570 AORUS MASTER", "WRX80E-SAGE"];
const UBUNTU = ["22.04", "20.04", "24.04"];
const DAY_SECONDS = 24 * 60 * 60;
/** Days each host keeps its offer listed, by offer id. */
const LISTED_DAYS = [30, 7, 90, 180];

/** The offer fields beyond the basic ones (the vendor's whole search vocabulary), derived from the seed. */
function vocabularyFields(o: OfferSeed, dphTotal: number): Record<string, unknown> {
  const datacenter = o.verified && o.reliability >= 0.995;
  const flops = Math.round(o.gpuRam / 300) * o.numGpus;
  const dlperf = Math.round(o.gpuRam / 400) * o.numGpus;
  const driver = driverOf(o);
  const [power, temp] = gpuLimits(o.gpuName);
  const sxm = /SXM/.test(o.gpuName) && o.numGpus > 1;
  return {
    cpu_cores_effective: 16 * o.numGpus,
    cpu_arch: "amd64",
    cpu_ghz: [2.4, 3.0, 3.5, 4.2][o.id % 4],
    gpu_arch: "nvidia",
    compute_cap: computeCap(o.gpuName),
    driver_version: driver,
    driver_vers: driverNumber(driver),
    // Seconds the offer stays listed from now (the service counts to the host's end date).
    duration: LISTED_DAYS[o.id % LISTED_DAYS.length] * DAY_SECONDS,
    pci_gen: /H100|5090/.test(o.gpuName) ? 5 : /3060|3090/.test(o.gpuName) ? 3 : 4,
    has_avx: NO_DIRECT_PORTS.has(o.id) ? 0 : 1,
    bw_nvlink: sxm ? (/H100/.test(o.gpuName) ? 900 : 600) : 0,
    flops_per_dphtotal: Math.round((flops / dphTotal) * 100) / 100,
    gpu_display_active: /^RTX \d/.test(o.gpuName) && o.numGpus === 1 && o.id % 2 === 0,
    // Every offer here is the whole machine (domain comment above offerState).
    gpu_frac: 1,
    gpu_max_power: power,
    gpu_max_temp: temp,
    mobo_name: MOBOS[o.id % MOBOS.length],
    os_version: UBUNTU[o.id % UBUNTU.length],
    vms_enabled: datacenter && o.id % 2 === 1,
    cluster_id: marketClusterOf(o.machineId),
    disk_bw: 2000,
    pcie_bw: 24.5,
    gpu_mem_bw: Math.round(o.gpuRam / 25),
    total_flops: flops,
    dlperf,
    dlperf_per_dphtotal: Math.round((dlperf / dphTotal) * 100) / 100,
    inet_up_cost: 0.002,
    inet_down_cost: 0.001,
    datacenter,
    hosting_type: datacenter ? 1 : 0,
    static_ip: datacenter,
    direct_port_count: NO_DIRECT_PORTS.has(o.id) ? 0 : 32,
  };
}

/** "Sweden, SE" matches "Sweden, SE" and "SE"; "US" matches "US". */
export function countryCode(geolocation: string): string {
  const comma = geolocation.lastIndexOf(",");
  return comma === -1 ? geolocation : geolocation.slice(comma + 1).trim();
}
