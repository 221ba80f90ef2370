/**
 * The offers catalogue: machines rented out by other hosts of the marketplace. Prices are
 * $/h for the whole offer, `gpu_ram` is MB per GPU (the REST API speaks MB, spec: practical
 * rules). Fixed values so tests and demos can name an offer by id.
 */

export interface OfferSeed {
  readonly id: number;
  readonly machineId: number;
  readonly gpuName: string;
  readonly numGpus: number;
  /** MB per GPU. */
  readonly gpuRam: number;
  /** $/h for the whole offer. */
  readonly dphTotal: number;
  readonly reliability: number;
  readonly geolocation: string;
  readonly verified: boolean;
  readonly cudaMaxGood: number;
  /** GB. */
  readonly diskSpace: number;
  /** Mbit/s. */
  readonly inetDown: number;
}

type Row = [number, string, number, number, number, number, string, boolean, number, number, number];

// [offer id, gpu, count, gpu_ram MB, $/h, reliability, location, verified, cuda, disk GB, Mbit/s down]
const ROWS: Row[] = [
  [700001, "RTX 4090", 1, 24564, 0.32, 0.998, "US", true, 12.4, 120, 940],
  [700002, "RTX 4090", 2, 24564, 0.62, 0.995, "Sweden, SE", true, 12.4, 250, 1800],
  [700003, "RTX 4090", 4, 24564, 1.25, 0.99, "Germany, DE", true, 12.2, 500, 2400],
  [700004, "RTX 4090", 8, 24564, 2.4, 0.985, "Texas, US", true, 12.4, 1000, 5000],
  [700005, "RTX 3090", 1, 24576, 0.18, 0.992, "Canada, CA", true, 12.2, 80, 600],
  [700006, "RTX 3090", 2, 24576, 0.35, 0.97, "US", true, 12.0, 150, 800],
  [700007, "RTX 3090", 4, 24576, 0.68, 0.96, "Poland, PL", false, 11.8, 300, 500],
  [700008, "A100 SXM4", 1, 81920, 1.1, 0.999, "US", true, 12.4, 200, 3000],
  [700009, "A100 SXM4", 2, 81920, 2.15, 0.997, "Netherlands, NL", true, 12.4, 400, 4000],
  [700010, "A100 SXM4", 8, 81920, 8.4, 0.996, "Virginia, US", true, 12.4, 2000, 10000],
  [700011, "H100 SXM", 1, 81559, 2.2, 0.999, "US", true, 12.6, 250, 5000],
  [700012, "H100 SXM", 2, 81559, 4.3, 0.998, "Finland, FI", true, 12.6, 500, 8000],
  [700013, "H100 SXM", 8, 81559, 16.8, 0.997, "Oregon, US", true, 12.6, 3000, 20000],
  [700014, "L40S", 1, 46068, 0.85, 0.994, "France, FR", true, 12.4, 150, 1000],
  [700015, "L40S", 2, 46068, 1.65, 0.993, "US", true, 12.4, 300, 2000],
  [700016, "L40S", 4, 46068, 3.2, 0.99, "Japan, JP", true, 12.2, 600, 2500],
  [700017, "RTX A6000", 1, 49140, 0.45, 0.991, "Sweden, SE", true, 12.2, 100, 900],
  [700018, "RTX A6000", 2, 49140, 0.88, 0.988, "US", true, 12.2, 200, 1200],
  [700019, "RTX A6000", 4, 49140, 1.7, 0.982, "Norway, NO", true, 12.0, 400, 1500],
  [700020, "RTX 3060", 1, 12288, 0.06, 0.9, "Brazil, BR", false, 11.8, 40, 200],
  [700021, "A100 PCIE", 1, 40960, 0.75, 0.98, "Taiwan, TW", true, 12.2, 150, 1000],
  [700022, "RTX 4080", 1, 16376, 0.22, 0.95, "Spain, ES", false, 12.2, 60, 400],
  [700023, "H100 PCIE", 1, 81559, 1.9, 0.985, "United Kingdom, GB", true, 12.4, 200, 2500],
  [700024, "RTX 5090", 1, 32607, 0.55, 0.97, "California, US", true, 12.8, 150, 1500],
];

/** Offer N (1-based) runs on foreign machine 30000 + N. */
export const OFFER_SEEDS: readonly OfferSeed[] = ROWS.map((r, i) => ({
  id: r[0],
  machineId: 30001 + i,
  gpuName: r[1],
  numGpus: r[2],
  gpuRam: r[3],
  dphTotal: r[4],
  reliability: r[5],
  geolocation: r[6],
  verified: r[7],
  cudaMaxGood: r[8],
  diskSpace: r[9],
  inetDown: r[10],
}));

/**
 * The bulk market: `marketOffers` (a simulator option, default 0) more single-GPU offers, one
 * per machine, for stacks that rent many instances at once (a fleet of 100). Offer i (0-based)
 * is id 800001 + i on machine 50001 + i, derived from i so every start shows the same market;
 * they cost more than the cheapest seed offers, so searches that pick the cheapest keep their
 * answer.
 */
export const MARKET_FIRST_OFFER_ID = 800_001;
export const MARKET_FIRST_MACHINE_ID = 50_001;
export const MAX_MARKET_OFFERS = 2_000;

const MARKET_GPUS: [string, number, number][] = [
  ["RTX 4070 Ti", 12282, 0.14],
  ["RTX 3080", 10240, 0.12],
  ["RTX 4080S", 16376, 0.2],
  ["RTX A5000", 24564, 0.24],
];
const MARKET_PLACES = ["US", "Canada, CA", "Germany, DE", "Sweden, SE", "France, FR", "Poland, PL", "Japan, JP", "Texas, US"];

export function marketOffer(index: number): OfferSeed {
  const [gpuName, gpuRam, base] = MARKET_GPUS[index % MARKET_GPUS.length];
  return {
    id: MARKET_FIRST_OFFER_ID + index,
    machineId: MARKET_FIRST_MACHINE_ID + index,
    gpuName,
    numGpus: 1,
    gpuRam,
    // Spread over 0.00-0.19 above the base, in thousandths.
    dphTotal: Math.round((base + ((index * 37) % 191) / 1000) * 1000) / 1000,
    reliability: 0.95 + ((index * 13) % 50) / 1000,
    geolocation: MARKET_PLACES[index % MARKET_PLACES.length],
    verified: index % 5 !== 4,
    cudaMaxGood: 12.2,
    diskSpace: 100,
    inetDown: 500 + ((index * 97) % 1500),
  };
}

/** Any offer by id: the fixed catalogue or the bulk market (whether this simulator shows it or not). */
export function seedOffer(id: number): OfferSeed | undefined {
  const index = id - MARKET_FIRST_OFFER_ID;
  if (Number.isInteger(index) && index >= 0 && index < MAX_MARKET_OFFERS) return marketOffer(index);
  return OFFER_SEEDS.find((o) => o.id === id);
}
