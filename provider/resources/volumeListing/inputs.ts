/**
 * Inputs of `VolumeListing` and `NetworkVolumeListing`: their shape rules, their normal form,
 * and the two calls that judge only inputs (check and diff). Pure: nothing calls the API.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { VolumeListingTerms } from "../../client/types-volume-listings";
import type { VolumeKind } from "../../client/types-volumes";
import { Props, checkWith, containsUnknown, deepEqual, userInputs } from "../kit";
import { toUnixSeconds } from "../maintenanceWindow/inputs";

/** What differs between the two kinds: the class name, the service's kind, and where the disk is. */
export interface ListingKind {
  type: "VolumeListing" | "NetworkVolumeListing";
  kind: VolumeKind;
  /** The input naming the disk's place: a machine, or a network disk. */
  placeKey: "machineId" | "diskId";
  /** For messages: "machine", "network disk". */
  placeNoun: string;
}

export const LOCAL: ListingKind = { type: "VolumeListing", kind: "local", placeKey: "machineId", placeNoun: "machine" };
export const NETWORK: ListingKind = { type: "NetworkVolumeListing", kind: "network", placeKey: "diskId", placeNoun: "network disk" };

/** Outputs stored beside the inputs. */
export const OUTPUT_NAMES = ["listingId", "listed", "freeGb", "endDateUnix", "clusterId", "hostId"];

/** Prices above this, $/GB/month, are a slip of unit (cents for dollars), not a price. */
const MAX_PRICE = 100;
/** Sizes above this, GB, are a slip of unit (MB or bytes for GB). */
const MAX_SIZE_GB = 1_000_000;
/** End dates the service shows within this many seconds of the declared one are the same (it shows the time left). */
export const END_DATE_TOLERANCE_S = 120;

const endDateRule = z.union([z.string(), z.number()], { error: "must be an ISO 8601 date-time text or Unix seconds" }).superRefine((v, ctx) => {
  if (toUnixSeconds(v) === undefined) ctx.addIssue({ code: "custom", message: "must be an ISO 8601 date-time with a time zone (2031-01-01T00:00:00Z) or Unix seconds" });
});

function schemaOf(k: ListingKind) {
  return z.object({
    [k.placeKey]: z.number({ error: `must be a ${k.placeNoun} id` }).int("must be a whole number").positive(`must be a positive ${k.placeNoun} id`),
    sizeGb: z.number({ error: "must be a number of GB" }).int("must be a whole number of GB").positive("must be at least 1 (GB)").max(MAX_SIZE_GB, `must be at most ${MAX_SIZE_GB} (GB)`),
    pricePerGbMonth: z
      .number({ error: "must be a number ($/GB/month)" })
      .finite("must be a finite number")
      .min(0, "must not be negative ($/GB/month)")
      .max(MAX_PRICE, `must be at most ${MAX_PRICE} ($/GB/month)`),
    endDate: endDateRule.optional(),
  });
}

export const volumeListingSchema = schemaOf(LOCAL);
export const networkVolumeListingSchema = schemaOf(NETWORK);
const schemaFor = (k: ListingKind) => (k.kind === "network" ? networkVolumeListingSchema : volumeListingSchema);

/** Valid inputs in normal form. */
export interface ListingPlan {
  /** The machine or network disk. */
  place: number;
  terms: VolumeListingTerms;
}

const inputKeys = (k: ListingKind) => [k.placeKey, "sizeGb", "pricePerGbMonth", "endDate"] as const;

function pick(k: ListingKind, inputs: Props): Props {
  return Object.fromEntries(inputKeys(k).filter((key) => key in inputs && inputs[key] !== undefined).map((key) => [key, inputs[key]]));
}

/** The plan of valid inputs; throws an Error naming every broken rule otherwise. */
export function planOf(k: ListingKind, props: Props): ListingPlan {
  const parsed = schemaFor(k).safeParse(pick(k, userInputs(props)));
  if (!parsed.success) {
    const rules = parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "(inputs)"}: ${i.message}`);
    throw new Error(`${k.type}: invalid inputs: ${rules.join("; ")}`);
  }
  const v = parsed.data as Record<string, unknown>;
  const terms: VolumeListingTerms = { sizeGb: v.sizeGb as number, pricePerGbMonth: v.pricePerGbMonth as number };
  if (v.endDate !== undefined) terms.endDate = toUnixSeconds(v.endDate);
  return { place: v[k.placeKey] as number, terms };
}

/** A value as diff compares it: the end date in any notation as the same instant. */
function comparable(key: string, value: unknown): unknown {
  if (containsUnknown(value)) return value;
  if (key === "endDate") return toUnixSeconds(value) ?? value ?? null;
  return value ?? null;
}

/** The inputs whose value differs once both sides are in normal form (unknown counts as different). */
export function changedInputs(k: ListingKind, olds: Props, news: Props): string[] {
  return inputKeys(k).filter((key) => containsUnknown(news[key]) || !deepEqual(comparable(key, olds[key]), comparable(key, news[key])));
}

/** Shape rules, plus: an end date must lie ahead when it is set or changed. */
export function checkListing(k: ListingKind, olds: Props, news: Props, nowMs: number): pulumi.dynamic.CheckResult {
  const shape = checkWith(schemaFor(k), news, { type: k.type, outputs: OUTPUT_NAMES });
  const failures = [...(shape.failures ?? [])];
  const end = toUnixSeconds(news.endDate);
  if (end !== undefined && !failures.some((f) => f.property.startsWith("endDate")) && changedInputs(k, olds, news).includes("endDate") && end * 1000 <= nowMs) {
    failures.push({ property: "endDate", reason: `endDate: must be in the future (got ${new Date(end * 1000).toISOString()}, now ${new Date(nowMs).toISOString()})` });
  }
  return { inputs: news, failures };
}

/** Another machine or disk replaces the listing (the new one is listed, then the old one unlisted); the terms change in place. */
export function diffListing(k: ListingKind, olds: Props, news: Props): pulumi.dynamic.DiffResult {
  const changed = changedInputs(k, olds, news);
  return { changes: changed.length > 0, replaces: changed.filter((key) => key === k.placeKey) };
}
