/**
 * Volume offers: disk that hosts list for volumes. Local offers sit on the machines of the GPU
 * offers (offer 700001 runs on machine 30001, and volume offer 900001 is disk on that machine),
 * so an instance can be rented beside a local volume; network offers serve a cluster. Fixed
 * values so tests can name an offer by id. Sizes are GB, prices $ per GB per month.
 */
import { OFFER_SEEDS } from "./offers";

export interface VolumeOfferSeed {
  readonly id: number;
  readonly kind: "local" | "network";
  readonly machineId: number | null;
  readonly clusterId: number | null;
  readonly hostId: number;
  /** GB listed for volumes in all. */
  readonly diskSpace: number;
  /** $ per GB per month. */
  readonly storageCost: number;
  readonly reliability: number;
  readonly geolocation: string;
  readonly verified: boolean;
  /** Mbit/s. */
  readonly inetDown: number;
  /** Seconds the listing stays available. */
  readonly duration: number;
}

const DAY = 24 * 60 * 60;
const machineOf = (offerId: number) => OFFER_SEEDS.find((o) => o.id === offerId)!.machineId;

// [volume offer id, GPU offer whose machine holds the disk, GB, $/GB/month, reliability, location, verified, days]
const LOCAL: [number, number, number, number, number, string, boolean, number][] = [
  [900001, 700001, 500, 0.1, 0.998, "US", true, 90],
  [900002, 700002, 1000, 0.08, 0.995, "Sweden, SE", true, 60],
  [900003, 700005, 200, 0.05, 0.992, "Canada, CA", true, 30],
  [900004, 700008, 2000, 0.12, 0.999, "US", true, 120],
  [900005, 700011, 100, 0.2, 0.999, "US", true, 90],
  [900006, 700020, 300, 0.03, 0.9, "Brazil, BR", false, 14],
];

// [network volume offer id, cluster, GB, $/GB/month, reliability, location, days]
const NETWORK: [number, number, number, number, number, string, number][] = [
  [950001, 41, 10000, 0.15, 0.999, "US", 180],
  [950002, 42, 5000, 0.12, 0.997, "Germany, DE", 90],
  [950003, 43, 800, 0.09, 0.99, "Japan, JP", 30],
];

export const VOLUME_OFFER_SEEDS: readonly VolumeOfferSeed[] = [
  ...LOCAL.map(([id, gpuOffer, diskSpace, storageCost, reliability, geolocation, verified, days]) => ({
    id, kind: "local" as const, machineId: machineOf(gpuOffer), clusterId: null, hostId: 500000 + (id % 1000),
    diskSpace, storageCost, reliability, geolocation, verified, inetDown: 1000, duration: days * DAY,
  })),
  ...NETWORK.map(([id, clusterId, diskSpace, storageCost, reliability, geolocation, days]) => ({
    id, kind: "network" as const, machineId: null, clusterId, hostId: 600000 + clusterId,
    diskSpace, storageCost, reliability, geolocation, verified: true, inetDown: 10000, duration: days * DAY,
  })),
];
