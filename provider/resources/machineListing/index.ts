/**
 * `MachineListing`: a host's listing of one machine on the market: its prices, the fewest
 * GPUs rented together, the end date, the prepay discount, the lowest bid and a default job.
 */
import * as pulumi from "@pulumi/pulumi";
import { resourceClass, type ImportedOutput, type Inputs } from "../kit/declare";
import type { ImportArgs } from "../kit/resource";
import { MACHINE_LISTING } from "./declare";

/** A default job: the host's own background bid on the machine's idle GPUs. */
export interface MachineDefaultJobArgs {
  /** Docker image to run. */
  image: pulumi.Input<string>;
  /** Bid per GPU, $/hour. */
  pricePerGpu: pulumi.Input<number>;
  /** Upload bandwidth price, $/GB; default 0. */
  uploadPricePerGb?: pulumi.Input<number>;
  /** Download bandwidth price, $/GB; default 0. */
  downloadPricePerGb?: pulumi.Input<number>;
  /** Arguments of the container. */
  args?: pulumi.Input<pulumi.Input<string>[]>;
}

/** A MachineListing's inputs, each also an output of the same name. */
interface MachineListingFields {
  /** The machine (hosted by this account) to list. Changing it lists the new machine, then unlists the old one. */
  machineId: number;
  /** On-demand price per GPU, $/hour. */
  pricePerGpu: number;
  /** Storage price, $/GB/month (the service's default: 0.10). */
  storagePricePerGbMonth?: number;
  /** Upload bandwidth price, $/GB. */
  uploadPricePerGb?: number;
  /** Download bandwidth price, $/GB. */
  downloadPricePerGb?: number;
  /** Lowest interruptible bid per GPU, $/hour. A change of this term alone is sent by itself (`PUT minbid`). */
  minBidPerGpu?: number;
  /** Fewest GPUs rented together (default 1; at most the machine's GPUs). */
  minGpus?: number;
  /**
   * When the listing ends: ISO 8601 with a time zone or Unix seconds, in the future when set or
   * changed. The machine unlists itself then; running client contracts are extended to it.
   */
  endDate?: string | number;
  /** Largest prepay discount offered, a fraction from 0 to 1 (the service's default: 0.4). */
  discountRate?: number;
  /**
   * Keep the end date this far ahead, renewed daily by the service: `"n days"`, `"n weeks"`,
   * `"n months"`, `"n years"` or whole seconds. Not with `endDate`.
   */
  duration?: string | number;
  /**
   * Disk offered as a volume contract beside the listing, GB. Default 0: no volume offer (the
   * service offers half the machine's disk when the field is left out, so it is always sent).
   */
  volumeSizeGb?: number;
  /** Price of that volume, $/GB/month (the service's default: `storagePricePerGbMonth`); only with `volumeSizeGb` above 0. */
  volumePricePerGbMonth?: number;
  /** A default job on the machine's idle GPUs; removing it from the program removes the job. */
  defaultJob?: MachineDefaultJobArgs;
}

/** What the service shows of it. */
interface MachineListingComputed extends ImportedOutput {
  /** True while the machine is listed (as of the last create, update or refresh). */
  listed: boolean;
  /** Client contracts the last change of end date extended. */
  extendedContracts: number;
  /** The end date, Unix seconds; null without one. */
  endDateUnix: number | null;
  /** The machine's GPU model. */
  gpuName: string | null;
  /** The machine's GPUs. */
  numGpus: number | null;
  /** The machine's host name. */
  hostname: string | null;
}

/** Inputs of a `MachineListing` resource. Every term but `machineId` changes in place. */
export interface MachineListingArgs extends ImportArgs, Inputs<MachineListingFields> {}

/**
 * The listing of one machine this account hosts.
 *
 *   new vastai.MachineListing("rig-1", {
 *     machineId: 50001,
 *     pricePerGpu: 0.45,
 *     minBidPerGpu: 0.25,
 *     storagePricePerGbMonth: 0.12,
 *     endDate: "2031-01-01T00:00:00Z",
 *   });
 *
 * Creating lists the machine; a machine already listed is not taken over unless `importId`
 * names it (then the declared terms replace the listed ones). Refresh shows terms changed
 * outside Pulumi as drift, and a machine unlisted outside Pulumi leaves state (the next `up`
 * lists it again). Destroying unlists this machine only and removes the default job the
 * resource set; renters' contracts already running stay until their end.
 */
export class MachineListing extends resourceClass<MachineListingArgs, MachineListingFields & MachineListingComputed>(MACHINE_LISTING) {}
