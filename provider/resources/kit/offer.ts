/**
 * The offer vocabulary and the terms Instance and Fleet share: what an offer is chosen by, when
 * an idle box stops, what "ready" means. Both resource folders import them from here, so
 * neither reads the other's internals.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { OfferField, OfferFilters } from "../../client/wire/filters";

/** Fields of the offer vocabulary that Instance takes in its own form (below). */
type OwnOfferFields = "gpuName" | "numGpus" | "gpuRamGb" | "verified" | "dphTotal" | "reliability" | "geolocation" | "rentable" | "rented";

/**
 * The rest of the offer vocabulary (client wire/filters.ts `OFFER_VOCABULARY`, units stated
 * there): a value (equals) or operators, for example `cpuCores: { gte: 16 }`,
 * `machineId: { notin: [123] }`, `datacenter: true`, `computeCap: { gte: 800 }`.
 */
export type InstanceOfferVocabulary = { [K in Exclude<OfferField, OwnOfferFields>]?: pulumi.Input<NonNullable<OfferFilters[K]>> };

/** Offer filters: the cheapest offer matching all of them is rented. */
export interface InstanceOfferFilters extends InstanceOfferVocabulary {
  /**
   * Least direct ports of the machine (`direct_port_count >= n`); 0 turns the filter off.
   * Default: one per `ports` entry (one with only `readiness`), plus one with `ssh.direct`.
   */
  minDirectPorts?: pulumi.Input<number>;
  /** GPU model, exactly as the marketplace names it, for example "RTX 4090". */
  gpuName?: pulumi.Input<string>;
  /** Number of GPUs (exact). */
  numGpus?: pulumi.Input<number>;
  /** Minimum GPU memory per GPU, GB (sent to the API in MB). */
  gpuRamGb?: pulumi.Input<number>;
  /** Maximum price for the whole offer, $/hour. */
  maxPricePerHour?: pulumi.Input<number>;
  /** Minimum host reliability, 0..1. */
  minReliability?: pulumi.Input<number>;
  /** Location: a country code ("US") or "Country, CC", or a list of them (any matches). */
  location?: pulumi.Input<string | string[]>;
  /** Only verified machines (true) or only unverified ones (false); default: either. */
  verified?: pulumi.Input<boolean>;
}

/** Idle autostop: the guard's rule (see docs/costs-and-stopping-spend.md, "Stopping spend"). */
export interface InstanceAutostop {
  /** Minutes every GPU must stay idle before the action, 1 to 525600. */
  idleMinutes: pulumi.Input<number>;
  /** A GPU is idle while its utilization is below this percent (default 5). */
  gpuUtilBelowPercent?: pulumi.Input<number>;
  /** "stop" (default: the disk stays, billed as storage) or "destroy". */
  action?: pulumi.Input<"stop" | "destroy">;
  /** Whether an open SSH session keeps the instance up while the GPUs idle (default true). */
  sshKeepsAwake?: pulumi.Input<boolean>;
}

/** What "ready" means for an instance, beyond actual_status running. */
export interface InstanceReadiness {
  /** Container port to probe (its published host port is used); default: the first TCP entry of `ports`. */
  tcpPort?: pulumi.Input<number>;
  /** Path of an HTTP GET that must answer 2xx or 3xx; without it a TCP connect suffices. */
  httpPath?: pulumi.Input<string>;
  /** How long to keep probing, minutes. */
  timeoutMinutes: pulumi.Input<number>;
}
