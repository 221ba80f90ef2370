/**
 * Inputs of the Fleet resource. The offer filters and the container's properties (template,
 * image, env, ports, onstart, volume, disk, run type, label) use Instance's own rules by import,
 * so a fleet refuses what an instance refuses; the volume has rules of its own on top (one new
 * volume per member). `check` never throws and never calls the API.
 */
import { gpuNameFailures } from "../kit/gpu-names";
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { Props, UNKNOWN, checkWith, containsUnknown } from "../kit";
import { INPLACE_INPUTS } from "../instance/inplace";
import { inputSchema as instanceInputs, volumeSizeRule } from "../instance/inputs";
import { READINESS_INPUTS, readinessFailures } from "../instance/readiness";
import { overlayNameRule } from "../overlay/provider";
import { GUARD_INPUTS } from "../instance/guard/inputs";
import { overlayClusterProblem } from "./overlay-cluster";

/** Most members of one fleet (a larger fleet is several fleets). */
export const MAX_FLEET_SIZE = 500;

const shape = instanceInputs.shape;
const wholeAtLeast = (min: number) => z.number({ error: "must be a number" }).int("must be a whole number").min(min, `must be at least ${min}`);
const dollars = (what: string) =>
  z.number({ error: `must be a number (${what})` }).positive(`must be greater than 0 (${what})`).max(100_000, `must be at most 100000 (${what})`);

const spread = z.strictObject({
  by: z.enum(["machine", "country"], { error: "must be one of machine, country" }),
  max: wholeAtLeast(1).max(MAX_FLEET_SIZE, `must be at most ${MAX_FLEET_SIZE}`),
});

/**
 * Instance's volume rules (createNew, size, mountPath), with the fleet's own: every member gets a
 * new volume of its own, rented from a volume offer on that member's machine. A volume lives on
 * one machine and cannot be shared, so neither one existing volume (`createNew: false`) nor one
 * volume offer (`volumeId` with `createNew: true`) can serve N members.
 */
const volumeFields = shape.volume.unwrap().shape;
const fleetVolume = z
  .strictObject({ ...volumeFields, volumeId: volumeFields.volumeId.optional() })
  .superRefine(volumeSizeRule)
  .superRefine((v, ctx) => {
    if (v.createNew === false) {
      ctx.addIssue({
        code: "custom",
        path: ["createNew"],
        message: "must be true: a fleet makes one new volume per member (a volume lives on one machine and cannot be shared by N members)",
      });
    }
    if (v.volumeId !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["volumeId"],
        message: v.createNew
          ? "is not accepted on a fleet: each member's volume is rented from a volume offer on that member's machine; leave volumeId out"
          : "a fleet cannot link one existing volume to N members; use createNew: true with size, or an Instance to link it",
      });
    }
  });

export const fleetSchema = z.strictObject({
  // Office hours are carried out by scheduled bid changes (instance/schedule.ts): members are rented on-demand.
  schedule: z
    .never({
      error:
        "is not offered for a Fleet: its members are rented on-demand (a Fleet takes no bid), and the service stops and starts an instance " +
        "on a schedule only by changing an interruptible instance's bid; no scheduled stop of an on-demand instance is evidenced. " +
        "Declare interruptible Instances (bidPricePerHour) with schedule instead",
    })
    .optional(),
  count: wholeAtLeast(0).max(MAX_FLEET_SIZE, `must be at most ${MAX_FLEET_SIZE}`),
  offer: shape.offer.unwrap(),
  templateHashId: shape.templateHashId,
  image: shape.image,
  env: shape.env,
  ports: shape.ports,
  onstart: shape.onstart,
  volume: fleetVolume.optional(),
  diskGb: shape.diskGb,
  runtype: shape.runtype,
  argsStr: shape.argsStr,
  label: shape.label,
  sshKeyIds: shape.sshKeyIds,
  // The overlay network every member joins once it runs (fleet/overlay.ts).
  overlay: overlayNameRule.optional(),
  minHealthy: wholeAtLeast(0).optional(),
  spread: spread.optional(),
  maxPricePerHour: dollars("$/hour per member, maximum").optional(),
  maxHourlyCost: dollars("$/hour for the whole fleet, maximum").optional(),
  badHostMinutes: z.number({ error: "must be a number (minutes)" }).min(0, "must be at least 0 (minutes)").max(30 * 24 * 60, "must be at most 43200 (minutes)").optional(),
  runningTimeoutMinutes: shape.runningTimeoutMinutes,
  maxCreateAttempts: shape.maxCreateAttempts,
  // Instance's readiness probe (instance/readiness.ts): a member is healthy only once it passes.
  ...READINESS_INPUTS,
  // Template changes update members in place unless "replace" (fleet/inplace.ts).
  ...INPLACE_INPUTS,
  // Every member's guard (instance/guard/): autostop stops only, one deadline for all.
  autostop: GUARD_INPUTS.autostop.superRefine((a, ctx) => {
    if (a?.action === "destroy") {
      ctx.addIssue({
        code: "custom",
        path: ["action"],
        message:
          'must be "stop" on a Fleet (got "destroy"): a member destroyed from inside cannot be told from a lost machine, which the fleet heals; ' +
          "use ttl or expiresAt to end a fleet, or Instances for autostop with destroy",
      });
    }
  }),
  ttl: GUARD_INPUTS.ttl,
  expiresAt: GUARD_INPUTS.expiresAt,
  expireAction: GUARD_INPUTS.expireAction,
  wake: GUARD_INPUTS.wake,
});

export type FleetInputs = Omit<z.infer<typeof fleetSchema>, "badHostMinutes" | "runningTimeoutMinutes" | "maxCreateAttempts"> & {
  badHostMinutes: number;
  runningTimeoutMinutes: number;
  maxCreateAttempts: number;
};

export const FLEET_DEFAULTS = { badHostMinutes: 60, runningTimeoutMinutes: 10, maxCreateAttempts: 3 } as const;

export const FLEET_INPUT_KEYS: readonly string[] = Object.keys(fleetSchema.shape).filter((k) => k !== "schedule");

/**
 * Inputs whose change rolls through the members: those of Instance's TEMPLATE_KEYS update a
 * member in place (fleet/inplace.ts), the others replace it with one made with the new values.
 */
export const SPEC_KEYS: readonly string[] = [
  "offer", "templateHashId", "image", "env", "ports", "onstart", "diskGb", "runtype", "argsStr", "volume", "overlay",
  // The guard (instance/guard/): part of each member's start command.
  "autostop", "ttl", "expiresAt", "expireAction",
];

/**
 * Spec keys added after fleets already existed: they count in a member's spec only when set, so
 * members made before them keep their spec (and are not rolled by an upgrade of the package).
 */
export const LATER_SPEC_KEYS: readonly string[] = ["volume", "overlay", "autostop", "ttl", "expiresAt", "expireAction"];

const known = (news: Props, key: string) => news[key] !== undefined && news[key] !== null && !containsUnknown(news[key]);

function crossFieldFailures(news: Props): pulumi.dynamic.CheckFailure[] {
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const fail = (property: string, reason: string) => failures.push({ property, reason: `${property}: ${reason}` });
  const absent = (key: string) => news[key] === undefined || news[key] === null;
  if (absent("image") && absent("templateHashId")) fail("image", "is required when no templateHashId is given");
  if (known(news, "minHealthy") && known(news, "count") && Number(news.minHealthy) > Number(news.count)) {
    fail("minHealthy", `must be at most count (${String(news.count)}), got ${String(news.minHealthy)}`);
  }
  if (known(news, "overlay") && !containsUnknown(news.offer)) {
    const problem = overlayClusterProblem(news.overlay, news.offer);
    if (problem) fail("offer.clusterId", problem);
  }
  failures.push(...readinessFailures(news));
  return failures;
}

/** Validates inputs and applies defaults; `outputs` are accepted beside the inputs. */
export function checkFleetInputs(news: Props, outputs: readonly string[]): pulumi.dynamic.CheckResult {
  const result = checkWith(fleetSchema, news, { type: "Fleet", outputs, secretFields: ["env", "onstart", "argsStr"] });
  const failures = [...(result.failures ?? []), ...crossFieldFailures(news), ...gpuNameFailures(news)];
  const inputs: Props = { ...news };
  for (const [key, value] of Object.entries(FLEET_DEFAULTS)) if (inputs[key] === undefined) inputs[key] = value;
  return { inputs, failures };
}

/** Typed view of checked inputs. */
export function typedFleetInputs(props: Props): FleetInputs {
  const out: Props = { ...FLEET_DEFAULTS };
  for (const key of FLEET_INPUT_KEYS) if (props[key] !== undefined && props[key] !== UNKNOWN) out[key] = props[key];
  return out as FleetInputs;
}

/** Running members an update keeps while it rolls (default: count, so a roll adds one before it removes one). */
export function minHealthyOf(inputs: FleetInputs): number {
  return Math.min(inputs.minHealthy ?? inputs.count, inputs.count);
}
