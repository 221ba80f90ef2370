/**
 * Host machines: the default account hosts SEED.hostedMachines (enough to test batches over
 * 100); the offered machines belong to the market account. Values are derived from the id so
 * they stay the same on every start.
 */
import { MARKET_FIRST_MACHINE_ID, MARKET_FIRST_OFFER_ID, OFFER_SEEDS, seedOffer } from "./offers";
import { SEED } from "./seed";
import type { MachineListingRecord } from "../store/types";

export interface MachineSeed {
  id: number;
  ownerId: number;
  gpuName: string;
  numGpus: number;
  gpuRam: number;
  publicIp: string;
  geolocation: string;
  /** Client instances running on it: the number of notifications a maintenance sends. */
  rentalsRunning: number;
}

const GPUS: [string, number][] = [
  ["RTX 4090", 24564],
  ["RTX 3090", 24576],
  ["A100 SXM4", 81920],
  ["L40S", 46068],
  ["RTX A6000", 49140],
];
const PLACES = ["US", "Sweden, SE", "Germany, DE", "Canada, CA"];

// Documentation address ranges (RFC 5737): the records look real but point nowhere.
function ipFor(id: number): string {
  const net = id % 2 === 0 ? "198.51.100" : "203.0.113";
  return `${net}.${(id % 250) + 1}`;
}

function hosted(i: number): MachineSeed {
  const id = SEED.hostedMachines.firstId + i;
  const [gpuName, gpuRam] = GPUS[i % GPUS.length];
  return {
    id,
    ownerId: SEED.user.id,
    gpuName,
    numGpus: [1, 2, 4, 8][i % 4],
    gpuRam,
    publicIp: ipFor(id),
    geolocation: PLACES[i % PLACES.length],
    rentalsRunning: i % 3,
  };
}

const MACHINES: ReadonlyMap<number, MachineSeed> = new Map(
  [
    ...Array.from({ length: SEED.hostedMachines.count }, (_, i) => hosted(i)),
    ...OFFER_SEEDS.map((o): MachineSeed => ({
      id: o.machineId,
      ownerId: SEED.marketUserId,
      gpuName: o.gpuName,
      numGpus: o.numGpus,
      gpuRam: o.gpuRam,
      publicIp: ipFor(o.machineId),
      geolocation: o.geolocation,
      rentalsRunning: 1,
    })),
  ].map((m) => [m.id, m]),
);

export function machineById(id: number): MachineSeed | undefined {
  return MACHINES.get(id) ?? marketMachine(id);
}

/** The machine of a bulk-market offer (seed/offers.ts), derived from its id. */
function marketMachine(id: number): MachineSeed | undefined {
  const o = seedOffer(MARKET_FIRST_OFFER_ID + (id - MARKET_FIRST_MACHINE_ID));
  if (!o || o.machineId !== id) return undefined;
  return { id, ownerId: SEED.marketUserId, gpuName: o.gpuName, numGpus: o.numGpus, gpuRam: o.gpuRam, publicIp: ipFor(id), geolocation: o.geolocation, rentalsRunning: 1 };
}

export function machinesOwnedBy(userId: number): MachineSeed[] {
  return [...MACHINES.values()].filter((m) => m.ownerId === userId);
}

/** The listing columns of a machine record, as the vendor's client shows them (show machines). */
const LISTING_COLUMNS = ["listed_gpu_cost", "listed_storage_cost", "listed_inet_up_cost", "listed_inet_down_cost", "min_bid_price", "min_chunk", "end_date", "credit_discount_max"] as const;

/**
 * The listing fields of a machine record: the host's terms while it is listed, null columns
 * otherwise (never listed, or unlisted: the asks are gone). No `listed` flag: no vendor source
 * shows one (the vendor's client's machine table, the vendor's document), so none is invented
 * here; the volume offer terms (vol_size, vol_price, duration) are not shown either.
 */
function listingView(listing: MachineListingRecord | undefined): Record<string, unknown> {
  const listed = listing?.listed === true;
  return Object.fromEntries(LISTING_COLUMNS.map((c) => [c, listed ? listing[c] : null]));
}

/** The machine record as `GET /api/v0/machines/` shows it, with its listing when it has one. */
export function machineView(m: MachineSeed, listing?: MachineListingRecord): Record<string, unknown> {
  return {
    id: m.id,
    machine_id: m.id,
    hostname: `sim-host-${m.id}`,
    gpu_name: m.gpuName,
    num_gpus: m.numGpus,
    gpu_ram: m.gpuRam,
    cpu_name: "AMD EPYC 7543",
    cpu_cores: 16 * m.numGpus,
    cpu_ram: 65536 * m.numGpus,
    disk_space: 500 * m.numGpus,
    inet_up: 900,
    inet_down: 950,
    public_ipaddr: m.publicIp,
    geolocation: m.geolocation,
    ...listingView(listing),
    verification: "verified",
    reliability2: 0.99,
    current_rentals_running: m.rentalsRunning,
    num_reports: 0,
    driver_version: "550.54.15",
    cuda_max_good: 12.4,
  };
}
