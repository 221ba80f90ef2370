/**
 * `MachineListing`: a host's listing of one machine on the market: its prices, the fewest
 * GPUs rented together, the end date, the prepay discount, the lowest bid and a default job.
 */
import * as pulumi from "@pulumi/pulumi";
import { ImportArgs, VastResource } from "../kit/resource";

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

/** Inputs of a `MachineListing` resource. Every term but `machineId` changes in place. */
export interface MachineListingArgs extends ImportArgs {
  /** The machine (hosted by this account) to list. Changing it lists the new machine, then unlists the old one. */
  machineId: pulumi.Input<number>;
  /** On-demand price per GPU, $/hour. */
  pricePerGpu: pulumi.Input<number>;
  /** Storage price, $/GB/month (the service's default: 0.10). */
  storagePricePerGbMonth?: pulumi.Input<number>;
  /** Upload bandwidth price, $/GB. */
  uploadPricePerGb?: pulumi.Input<number>;
  /** Download bandwidth price, $/GB. */
  downloadPricePerGb?: pulumi.Input<number>;
  /** Lowest interruptible bid per GPU, $/hour. A change of this term alone is sent by itself (`PUT minbid`). */
  minBidPerGpu?: pulumi.Input<number>;
  /** Fewest GPUs rented together (default 1; at most the machine's GPUs). */
  minGpus?: pulumi.Input<number>;
  /**
   * When the listing ends: ISO 8601 with a time zone or Unix seconds, in the future when set or
   * changed. The machine unlists itself then; running client contracts are extended to it.
   */
  endDate?: pulumi.Input<string | number>;
  /** Largest prepay discount offered, a fraction from 0 to 1 (the service's default: 0.4). */
  discountRate?: pulumi.Input<number>;
  /**
   * Keep the end date this far ahead, renewed daily by the service: `"n days"`, `"n weeks"`,
   * `"n months"`, `"n years"` or whole seconds. Not with `endDate`.
   */
  duration?: pulumi.Input<string | number>;
  /**
   * Disk offered as a volume contract beside the listing, GB. Default 0: no volume offer (the
   * service offers half the machine's disk when the field is left out, so it is always sent).
   */
  volumeSizeGb?: pulumi.Input<number>;
  /** Price of that volume, $/GB/month (the service's default: `storagePricePerGbMonth`); only with `volumeSizeGb` above 0. */
  volumePricePerGbMonth?: pulumi.Input<number>;
  /** A default job on the machine's idle GPUs; removing it from the program removes the job. */
  defaultJob?: pulumi.Input<MachineDefaultJobArgs>;
}

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
export class MachineListing extends VastResource {
  declare readonly machineId: pulumi.Output<number>;
  declare readonly pricePerGpu: pulumi.Output<number>;
  declare readonly storagePricePerGbMonth: pulumi.Output<number | undefined>;
  declare readonly uploadPricePerGb: pulumi.Output<number | undefined>;
  declare readonly downloadPricePerGb: pulumi.Output<number | undefined>;
  declare readonly minBidPerGpu: pulumi.Output<number | undefined>;
  declare readonly minGpus: pulumi.Output<number | undefined>;
  declare readonly endDate: pulumi.Output<string | number | undefined>;
  declare readonly discountRate: pulumi.Output<number | undefined>;
  declare readonly duration: pulumi.Output<string | number | undefined>;
  declare readonly volumeSizeGb: pulumi.Output<number | undefined>;
  declare readonly volumePricePerGbMonth: pulumi.Output<number | undefined>;
  declare readonly defaultJob: pulumi.Output<MachineDefaultJobArgs | undefined>;
  /** True while the machine is listed (as of the last create, update or refresh). */
  declare readonly listed: pulumi.Output<boolean>;
  /** Client contracts the last change of end date extended. */
  declare readonly extendedContracts: pulumi.Output<number>;
  /** The end date, Unix seconds; null without one. */
  declare readonly endDateUnix: pulumi.Output<number | null>;
  /** The machine's GPU model. */
  declare readonly gpuName: pulumi.Output<string | null>;
  /** The machine's GPUs. */
  declare readonly numGpus: pulumi.Output<number | null>;
  /** The machine's host name. */
  declare readonly hostname: pulumi.Output<string | null>;
  /** True when the resource took over an existing listing (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: MachineListingArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = { listed: undefined, extendedContracts: undefined, endDateUnix: undefined, gpuName: undefined, numGpus: undefined, hostname: undefined, imported: undefined };
    const inputs = {
      storagePricePerGbMonth: undefined, uploadPricePerGb: undefined, downloadPricePerGb: undefined, minBidPerGpu: undefined,
      minGpus: undefined, endDate: undefined, discountRate: undefined, defaultJob: undefined, ...args,
    };
    super("machineListing", "MachineListing", name, { ...inputs, ...outputs }, opts);
  }
}
