/**
 * Inputs of `MachineListing`: their shape rules, their normal form, and the two calls that
 * judge only inputs (check and diff). Pure: nothing calls the API.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { MachineDefaultJob, MachineListingTerms } from "../../client/types-account";
import { Props, checkDeclared, containsUnknown, deepEqual, userInputs } from "../kit";
import { MACHINE_LISTING } from "./declare";
import { toUnixSeconds } from "../maintenanceWindow/inputs";

/** Outputs stored beside the inputs. */

/** The terms of the listing, as inputs; each changes in place. */
export const TERM_KEYS = [
  "pricePerGpu", "storagePricePerGbMonth", "uploadPricePerGb", "downloadPricePerGb", "minBidPerGpu", "minGpus", "endDate", "discountRate",
  "duration", "volumeSizeGb", "volumePricePerGbMonth",
] as const;
/** Terms the machine record does not show (the volume offer, the duration): sent, never read back. */
export const UNSHOWN_TERMS: readonly TermKey[] = ["duration", "volumeSizeGb", "volumePricePerGbMonth"];
export type TermKey = (typeof TERM_KEYS)[number];

/** Dollar amounts above this are a slip of unit (cents for dollars), not a price. */
const MAX_PRICE = 1000;
const priceRule = (unit: string) =>
  z.number({ error: `must be a number (${unit})` }).finite("must be a finite number").min(0, `must not be negative (${unit})`).max(MAX_PRICE, `must be at most ${MAX_PRICE} (${unit})`);

const endDateRule = z.union([z.string(), z.number()], { error: "must be an ISO 8601 date-time text or Unix seconds" }).superRefine((v, ctx) => {
  if (toUnixSeconds(v) === undefined) ctx.addIssue({ code: "custom", message: "must be an ISO 8601 date-time with a time zone (2031-01-01T00:00:00Z) or Unix seconds" });
});

export const machineListingSchema = z.object({
  machineId: z.number({ error: "must be a machine id" }).int("must be a whole number").positive("must be a positive machine id"),
  pricePerGpu: priceRule("$/GPU/hour"),
  storagePricePerGbMonth: priceRule("$/GB/month").optional(),
  uploadPricePerGb: priceRule("$/GB").optional(),
  downloadPricePerGb: priceRule("$/GB").optional(),
  minBidPerGpu: priceRule("$/GPU/hour").optional(),
  minGpus: z.number({ error: "must be a number of GPUs" }).int("must be a whole number").min(1, "must be at least 1 (GPU)").optional(),
  endDate: endDateRule.optional(),
  duration: z
    .union([z.string(), z.number()], { error: 'must be "n days", "n weeks", "n months", "n years" or a number of seconds' })
    .refine((v) => (typeof v === "number" ? Number.isInteger(v) && v > 0 : /^\d+ (day|week|month|year)s?$/.test(v) && Number(v.split(" ")[0]) > 0), {
      message: 'must be "n days", "n weeks", "n months", "n years" (n at least 1) or a whole number of seconds above 0',
    })
    .optional(),
  volumeSizeGb: z.number({ error: "must be a number of GB" }).int("must be a whole number of GB").min(0, "must not be negative (GB; 0 offers no volume)").optional(),
  volumePricePerGbMonth: priceRule("$/GB/month").optional(),
  discountRate: z.number({ error: "must be a fraction" }).finite("must be a finite number").min(0, "must be from 0 to 1 (a fraction, 0.4 is 40%)").max(1, "must be from 0 to 1 (a fraction, 0.4 is 40%)").optional(),
  defaultJob: z
    .strictObject({
      image: z.string({ error: "must be a Docker image name" }).trim().min(1, "must be a Docker image name"),
      pricePerGpu: priceRule("$/GPU/hour"),
      uploadPricePerGb: priceRule("$/GB").optional(),
      downloadPricePerGb: priceRule("$/GB").optional(),
      args: z.array(z.string({ error: "must be text" }), { error: "must be a list of texts" }).optional(),
    }, { error: "must be an object with image and pricePerGpu" })
    .optional(),
});

/** Valid inputs in normal form. */
export interface ListingPlan {
  machineId: number;
  terms: MachineListingTerms;
  defaultJob?: MachineDefaultJob;
}

/** The plan of valid inputs; throws an Error naming every broken rule otherwise. */
export function planOf(props: Props): ListingPlan {
  const parsed = machineListingSchema.safeParse(pick(userInputs(props)));
  if (!parsed.success) {
    const rules = parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "(inputs)"}: ${i.message}`);
    throw new Error(`MachineListing: invalid inputs: ${rules.join("; ")}`);
  }
  const v = parsed.data;
  const terms: MachineListingTerms = {};
  for (const k of TERM_KEYS) if (v[k] !== undefined) (terms as Record<string, unknown>)[k] = k === "endDate" ? toUnixSeconds(v[k]) : v[k];
  const job = v.defaultJob;
  return {
    machineId: v.machineId,
    terms,
    defaultJob: job && { image: job.image, pricePerGpu: job.pricePerGpu, uploadPricePerGb: job.uploadPricePerGb ?? 0, downloadPricePerGb: job.downloadPricePerGb ?? 0, args: job.args ?? [] },
  };
}

const INPUT_KEYS = ["machineId", ...TERM_KEYS, "defaultJob"] as const;

function pick(inputs: Props): Props {
  return Object.fromEntries(INPUT_KEYS.filter((k) => k in inputs && inputs[k] !== undefined).map((k) => [k, inputs[k]]));
}

/** A value as diff compares it: the end date in any notation as the same instant. */
function comparable(key: string, value: unknown): unknown {
  if (containsUnknown(value)) return value;
  if (key === "endDate") return toUnixSeconds(value) ?? value;
  return value ?? null;
}

/** The inputs whose value differs once both sides are in normal form (unknown counts as different). */
export function changedInputs(olds: Props, news: Props): string[] {
  return INPUT_KEYS.filter((k) => containsUnknown(news[k]) || !deepEqual(comparable(k, olds[k]), comparable(k, news[k])));
}

/** Shape rules, plus: an end date must lie ahead when it is set or changed. */
export function checkMachineListing(olds: Props, news: Props, nowMs: number): pulumi.dynamic.CheckResult {
  const shape = checkDeclared(MACHINE_LISTING, machineListingSchema, news);
  const failures = [...(shape.failures ?? [])];
  const fail = (property: string, reason: string) => failures.push({ property, reason: `${property}: ${reason}` });
  if (news.duration !== undefined && news.duration !== null && news.endDate !== undefined && news.endDate !== null && !containsUnknown(news.duration) && !containsUnknown(news.endDate)) {
    fail("duration", `cannot be combined with endDate: the service keeps the end date duration ahead (got duration ${JSON.stringify(news.duration)} and endDate ${JSON.stringify(news.endDate)})`);
  }
  const size = news.volumeSizeGb;
  if (news.volumePricePerGbMonth !== undefined && news.volumePricePerGbMonth !== null && !containsUnknown(size) && !(typeof size === "number" && size > 0)) {
    fail("volumePricePerGbMonth", `needs volumeSizeGb above 0: the service refuses a volume price without a volume offer (got volumeSizeGb ${JSON.stringify(size ?? null)})`);
  }
  const end = toUnixSeconds(news.endDate);
  if (end !== undefined && !failures.some((f) => f.property.startsWith("endDate")) && changedInputs(olds, news).includes("endDate") && end * 1000 <= nowMs) {
    failures.push({ property: "endDate", reason: `endDate: must be in the future (got ${new Date(end * 1000).toISOString()}, now ${new Date(nowMs).toISOString()})` });
  }
  return { inputs: news, failures };
}

/** A new machine replaces the listing (the new machine is listed, then the old one unlisted); every term changes in place. */
export function diffMachineListing(olds: Props, news: Props): pulumi.dynamic.DiffResult {
  const changed = changedInputs(olds, news);
  const replaces = changed.filter((k) => k === "machineId");
  return { changes: changed.length > 0, replaces };
}
