/**
 * Physical clusters of the market's hosts: machines of the offered catalogue wired together on
 * one site, so renters can put an overlay network on them (the vendor's client: `create overlay
 * <cluster_id>`) and search offers by `cluster_id`. Cluster 41 is the US site whose network
 * disk network volume offer 950001 serves; 42 and 43 are single-machine sites in Germany and
 * Japan (the sites of network volume offers 950002 and 950003). Fixed values, like the offers.
 */
import { OFFER_SEEDS } from "./offers";

export interface MarketClusterSeed {
  readonly id: number;
  /** Machines of the cluster (the machines of the offers named below). */
  readonly machineIds: readonly number[];
  /** The offers on the cluster's machines. */
  readonly offerIds: readonly number[];
}

// [cluster id, offers whose machines are in it]
const CLUSTERS: [number, number[]][] = [
  [41, [700001, 700006, 700008, 700011, 700015]],
  [42, [700003]],
  [43, [700016]],
];

const machineOf = (offerId: number) => OFFER_SEEDS.find((o) => o.id === offerId)!.machineId;

export const MARKET_CLUSTERS: readonly MarketClusterSeed[] = CLUSTERS.map(([id, offerIds]) => ({ id, offerIds, machineIds: offerIds.map(machineOf) }));

/** The market cluster a machine is in, if any. */
export function marketClusterOf(machineId: number): number | null {
  return MARKET_CLUSTERS.find((c) => c.machineIds.includes(machineId))?.id ?? null;
}
