import type { Declaration } from "../kit/declaration";

/** The `MachineListing` resource, declared once for its class and its provider. */
export const MACHINE_LISTING = {
  kind: "machineListing",
  type: "MachineListing",
  computed: ["listed", "extendedContracts", "endDateUnix", "gpuName", "numGpus", "hostname"],
  optionalInputs: ["storagePricePerGbMonth", "uploadPricePerGb", "downloadPricePerGb", "minBidPerGpu", "minGpus", "endDate", "discountRate", "defaultJob"],
} as const satisfies Declaration;
