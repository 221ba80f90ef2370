/** Offers as the search shows them, and their availability (changed by `POST /_sim/offers/{id}`). */
import { machineById } from "../seed/machines";
import { OFFER_SEEDS, type OfferSeed } from "../seed/offers";
import type { Store } from "../store/store";
import type { OfferState } from "../store/types";

export function offerSeed(id: number): OfferSeed | undefined {
  return OFFER_SEEDS.find((o) => o.id === id);
}

export function offerState(store: Store, id: number): OfferState {
  return store.data.offerStates[String(id)] ?? "available";
}

export function offerView(store: Store, o: OfferSeed): Record<string, unknown> {
  const machine = machineById(o.machineId);
  const rentable = offerState(store, o.id) === "available";
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
    dph_total: o.dphTotal,
    dph_base: o.dphTotal,
    min_bid: Math.round(o.dphTotal * 60) / 100,
    reliability: o.reliability,
    reliability2: o.reliability,
    verification: o.verified ? "verified" : "unverified",
    verified: o.verified,
    geolocation: o.geolocation,
    cuda_max_good: o.cudaMaxGood,
    inet_down: o.inetDown,
    inet_up: Math.round(o.inetDown / 2),
    direct_port_count: 32,
    public_ipaddr: machine?.publicIp,
    external: false,
    rentable,
    rented: false,
  };
}

/** "Sweden, SE" matches "Sweden, SE" and "SE"; "US" matches "US". */
export function countryCode(geolocation: string): string {
  const comma = geolocation.lastIndexOf(",");
  return comma === -1 ? geolocation : geolocation.slice(comma + 1).trim();
}
