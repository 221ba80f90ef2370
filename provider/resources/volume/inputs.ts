/**
 * Inputs of Volume and NetworkVolume: the zod schema of each kind and the rules that span
 * properties. `check` never throws and never calls the API.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { VolumeKind } from "../../client";
import { Props, checkWith, containsUnknown } from "../kit";
import { withoutControlCharacters } from "../kit/text-schema";

/** The vendor client's default size, GB. */
export const DEFAULT_SIZE_GB = 15;
/** Larger sizes are mistakes of unit (MB for GB); no volume offer lists 1 PB. */
export const MAX_SIZE_GB = 1_000_000;
/** Room for the marker the service's name carries (` [0123456789abcdef]`). */
export const NAME_MAX = 200;

const wholePositive = z.number({ error: "must be a number" }).int("must be a whole number").positive("must be greater than 0");
const location = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)], {
  error: "must be a location such as \"US\" or \"Sweden, SE\", or a list of them",
});

/** Offer filters shared by both kinds; the names and units are the Instance offer filters' where they overlap. */
const commonFilters = {
  maxPricePerGbMonth: z
    .number({ error: "must be a number ($ per GB per month, maximum)" })
    .positive("must be greater than 0 ($ per GB per month, maximum)")
    .max(1000, "must be at most 1000 ($ per GB per month, maximum)")
    .optional(),
  minReliability: z.number({ error: "must be a number" }).min(0, "must be between 0 and 1").max(1, "must be between 0 and 1").optional(),
  location: location.optional(),
  verified: z.boolean({ error: "must be true or false" }).optional(),
};

const localFilters = z.strictObject({ ...commonFilters, machineId: wholePositive.optional() });
const networkFilters = z.strictObject({ ...commonFilters, clusterId: wholePositive.optional() });

function schemaOf(kind: VolumeKind) {
  return z.strictObject({
    offerId: wholePositive.optional(),
    offer: (kind === "local" ? localFilters : networkFilters).optional(),
    sizeGb: wholePositive.max(MAX_SIZE_GB, `must be at most ${MAX_SIZE_GB} (GB)`).optional(),
    name: withoutControlCharacters(z.string({ error: "must be a string" }).min(1, "must not be empty").max(NAME_MAX, `must be at most ${NAME_MAX} characters`)).optional(),
  });
}

export const SCHEMAS = { local: schemaOf("local"), network: schemaOf("network") } as const;

export type VolumeInputs = z.infer<(typeof SCHEMAS)["local"]> & z.infer<(typeof SCHEMAS)["network"]>;
export type VolumeOfferFiltersInput = NonNullable<VolumeInputs["offer"]> & { machineId?: number; clusterId?: number };

/** Every input property (outputs live beside them in state). */
export const INPUT_KEYS = ["offerId", "offer", "sizeGb", "name"] as const;

function present(news: Props, key: string): "present" | "absent" | "unknown" {
  const v = news[key];
  if (v === undefined || v === null) return "absent";
  return containsUnknown(v) ? "unknown" : "present";
}

/** Validates and applies the default size; `type` is the class name for messages. */
export function checkVolumeInputs(kind: VolumeKind, type: string, news: Props, outputs: readonly string[]): pulumi.dynamic.CheckResult {
  const result = checkWith(SCHEMAS[kind], news, { type, outputs });
  const failures = [...(result.failures ?? [])];
  const offerId = present(news, "offerId");
  const offer = present(news, "offer");
  if (offerId === "present" && offer === "present") {
    failures.push({ property: "offer", reason: "offer: give either offerId or offer filters, not both" });
  } else if (offerId === "absent" && offer === "absent") {
    failures.push({
      property: "offerId",
      reason: `offerId: give offerId (a ${kind === "network" ? "network " : ""}volume offer, from ${kind === "network" ? "searchNetworkVolumeOffers" : "searchVolumeOffers"}) or offer filters (the cheapest match with room for sizeGb is rented)`,
    });
  }
  const inputs: Props = { ...news };
  if (inputs.sizeGb === undefined) inputs.sizeGb = DEFAULT_SIZE_GB;
  return { inputs, failures };
}
