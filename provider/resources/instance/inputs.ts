/**
 * Inputs of the Instance resource: the zod schema, the rules that span several properties,
 * and the defaults `check` applies. `check` never throws and never calls the API.
 */
import { gpuNameFailures } from "../kit/gpu-names";
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ENV_NAME, ENV_NAME_RULE, LABEL_LIMIT, ONSTART_LIMIT, imageReferenceProblem, isPortMapping, prepareOnstart, utf8Bytes } from "../../client";
import { OFFER_FILTER_FIELDS, offerConditionProblem } from "../../client/wire/filters";
import { Props, UNKNOWN, checkWith, containsUnknown, portCountProblem } from "../kit";
import { withoutControlCharacters } from "../kit/text-schema";
import { ACTION_INPUTS } from "./actions";
import { IMPORT_INPUTS } from "./import-input";
import { INPLACE_INPUTS } from "./inplace";
import { SPOT_INPUTS, spotFailures } from "./bid";
import { READINESS_INPUTS, readinessFailures } from "./readiness";
import { SCHEDULE_INPUTS, scheduleFailures } from "./schedule";
import { GUARD_INPUTS } from "./guard/inputs";

/** Environment variable the provider adds to every instance it creates, to find it again. */
export const MARKER_ENV = "PULUMI_VASTAI_MARKER";

export const DEFAULTS = {
  targetState: "running",
  waitForRunning: true,
  runningTimeoutMinutes: 10,
  maxCreateAttempts: 3,
} as const;



/** Every number has a finite maximum: 1e308 minutes would wait forever. */
const positive = (what: string, max: number) =>
  z.number({ error: `must be a number (${what})` }).positive(`must be greater than 0 (${what})`).max(max, `must be at most ${max} (${what})`);
/** Instances wait for `running` at most a day. */
export const MAX_RUNNING_TIMEOUT_MINUTES = 24 * 60;
/** Larger sizes are mistakes of unit (MB for GB); no offer has 100 TB. */
const MAX_DISK_GB = 100_000;
const wholePositive = z.number({ error: "must be a number" }).int("must be a whole number").positive("must be greater than 0");

/** Vocabulary fields (client wire/filters.ts) taken as given: a value or operators, checked there. */
const OWN_MEANING = new Set(["gpuName", "numGpus", "gpuRamGb", "verified", "dphTotal", "reliability", "geolocation", "rentable", "rented"]);
const vocabularyField = (field: string) =>
  z
    .unknown()
    .superRefine((v, ctx) => {
      const problem = offerConditionProblem(field, v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .optional();
const VOCABULARY_INPUTS = Object.fromEntries(OFFER_FILTER_FIELDS.filter((f) => !OWN_MEANING.has(f)).map((f) => [f, vocabularyField(f)]));

const offerFilters = z.strictObject({
  // Every other field of the offer vocabulary, with its unit (client wire/filters.ts OFFER_VOCABULARY).
  ...VOCABULARY_INPUTS,
  /**
   * Least direct ports the machine must have (`direct_port_count >= n`); 0 turns the filter
   * off. Default: one per `ports` entry when ports are published or readiness probes one
   * (machines without direct ports never publish a port), else none.
   */
  minDirectPorts: z.number({ error: "must be a number of ports" }).int("must be a whole number").min(0, "must not be negative").max(65_535, "must be at most 65535").optional(),
  gpuName: z.string({ error: "must be a GPU model name such as \"RTX 4090\"" }).min(1, "must not be empty").optional(),
  numGpus: wholePositive.optional(),
  gpuRamGb: positive("GB per GPU, minimum", 10_000).optional(),
  maxPricePerHour: positive("$/hour, maximum", 10_000).optional(),
  minReliability: z.number({ error: "must be a number" }).min(0, "must be between 0 and 1").max(1, "must be between 0 and 1").optional(),
  location: z
    .union([z.string().min(1), z.array(z.string().min(1)).min(1)], {
      error: "must be a location such as \"US\" or \"Sweden, SE\", or a list of them",
    })
    .optional(),
  verified: z.boolean({ error: "must be true or false" }).optional(),
});

/** The rule of `volume.size` (required with createNew, only then); Fleet's volume applies it too. */
export function volumeSizeRule(v: { createNew?: boolean; size?: number }, ctx: z.RefinementCtx): void {
  if (v.createNew && v.size === undefined) ctx.addIssue({ code: "custom", path: ["size"], message: "is required (GB) when createNew is true" });
  if (!v.createNew && v.size !== undefined) ctx.addIssue({ code: "custom", path: ["size"], message: "is only used when createNew is true" });
}

const volume = z
  .strictObject({
    createNew: z.boolean({ error: "must be true (create a volume) or false (link an existing one)" }),
    // A Volume's id (`volume.id`, a string) links it as well as its `volumeId` (a number).
    volumeId: z.union([wholePositive, z.string().regex(/^[1-9]\d*$/, "must be a volume id (a whole number, or a Volume's id)")], {
      error: "must be a volume id (a whole number, or a Volume's id)",
    }),
    size: wholePositive.optional(),
    mountPath: z.string({ error: "must be a path" }).startsWith("/", "must be an absolute path inside the container"),
    keepOnDestroy: z.boolean({ error: "must be true (keep the volume after the instance) or false" }).optional(),
  })
  .superRefine(volumeSizeRule)
  .superRefine((v, ctx) => {
    if (!v.createNew && v.keepOnDestroy !== undefined) {
      ctx.addIssue({ code: "custom", path: ["keepOnDestroy"], message: "is only used when createNew is true (a linked volume is never deleted with the instance)" });
    }
  });

// Keys are checked here rather than by the record's key schema, whose failures zod reports
// only as "Invalid key in record".
const envObject = z.record(z.string(), z.string({ error: "values must be strings" })).superRefine((env, ctx) => {
  for (const name of Object.keys(env)) {
    if (!ENV_NAME.test(name)) {
      ctx.addIssue({ code: "custom", path: [name], message: `names must be ${ENV_NAME_RULE}` });
    } else if (name === MARKER_ENV) {
      ctx.addIssue({ code: "custom", path: [name], message: `${MARKER_ENV} is reserved: the provider sets it to find the instance again` });
    }
  }
});

const onstart = z.string({ error: "must be a string" }).superRefine((script, ctx) => {
  const prepared = prepareOnstart(script);
  if (!prepared.fits) {
    ctx.addIssue({
      code: "custom",
      message:
        `must be at most ${ONSTART_LIMIT} bytes (UTF-8), also after compression and encoding ` +
        `(the script has ${utf8Bytes(script)} bytes, encoded ${prepared.length}); move the script into the image or download it at start`,
    });
  }
});

export const inputSchema = z.strictObject({
  offerId: wholePositive.optional(),
  offer: offerFilters.optional(),
  templateHashId: z.string({ error: "must be a string (the template's hashId)" }).min(1, "must not be empty").optional(),
  templateId: z
    .never({ error: "is not accepted: pass templateHashId (the template's hashId); the API refuses numeric template ids" })
    .optional(),
  image: z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .superRefine((ref, ctx) => {
      const problem = ref === "" ? undefined : imageReferenceProblem(ref);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .optional(),
  env: envObject.optional(),
  // The count first: a list of 100000 would otherwise be judged entry by entry.
  ports: z
    .unknown()
    .superRefine((ports, ctx) => {
      const tooMany = portCountProblem(ports);
      if (tooMany) ctx.addIssue({ code: "custom", message: tooMany });
    })
    .pipe(z.array(z.string().refine((p) => isPortMapping(p, { single: true }), "entries must be HOST:CONTAINER, for example 8080:8080 or 5000:5000/udp")))
    .optional(),
  onstart: onstart.optional(),
  volume: volume.optional(),
  diskGb: positive("GB", MAX_DISK_GB).optional(),
  runtype: z.enum(["ssh", "jupyter", "args"], { error: "must be one of ssh, jupyter, args" }).optional(),
  argsStr: z.string({ error: "must be a string" }).optional(),
  // SSH and Jupyter as the vendor's client asks for them (client wire/runtype.ts).
  ssh: z.strictObject({ direct: z.boolean({ error: "must be true or false" }).optional() }, { error: "must be an object such as { direct: true }" }).optional(),
  jupyter: z.strictObject({ direct: z.boolean({ error: "must be true or false" }).optional() }, { error: "must be an object such as { direct: true }" }).optional(),
  label: withoutControlCharacters(
    z
      .string({ error: "must be a string" })
      .refine((l) => utf8Bytes(l) <= LABEL_LIMIT, { error: (iss) => `must be at most ${LABEL_LIMIT} bytes of UTF-8 (it has ${utf8Bytes(String(iss.input))})` }),
  ).optional(),
  sshKeyIds: z
    .array(z.union([wholePositive, z.string().regex(/^\d+$/)], { error: "entries must be SSH key ids" }))
    .optional(),
  vm: z.boolean({ error: "must be true or false" }).optional(),
  targetState: z.enum(["running", "stopped"], { error: "must be one of running, stopped" }).optional(),
  waitForRunning: z.boolean({ error: "must be true or false" }).optional(),
  runningTimeoutMinutes: positive("minutes", MAX_RUNNING_TIMEOUT_MINUTES).optional(),
  maxCreateAttempts: wholePositive.max(10, "must be at most 10").optional(),
  // Interruptible rentals, triggers and prepayment: rules in bid.ts and actions.ts.
  ...SPOT_INPUTS,
  ...ACTION_INPUTS,
  ...READINESS_INPUTS,
  // Office hours by the service's scheduled bid changes (schedule.ts).
  ...SCHEDULE_INPUTS,
  // In-place updates of template, image, env, onstart, args (inplace.ts).
  ...INPLACE_INPUTS,
  // The in-machine guard: idle autostop, a deadline, wake (guard/inputs.ts).
  ...GUARD_INPUTS,
  // Private registry login, secret: never shown in errors (secretFields below), state or logs.
  imageLogin: z
    .string({ error: "must be a string" })
    .regex(/^-u \S+ -p \S+ \S+$/, 'must be "-u USER -p PASSWORD REGISTRY", for example "-u me -p TOKEN ghcr.io"')
    .optional(),
  // Taking over an existing instance (adopt.ts).
  ...IMPORT_INPUTS,
});

export type OfferFiltersInput = z.infer<typeof offerFilters>;
export type VolumeInput = z.infer<typeof volume>;

/** Inputs after `check` (defaults applied). */
export type InstanceInputs = Omit<z.infer<typeof inputSchema>, "templateId" | keyof typeof DEFAULTS> & {
  targetState: "running" | "stopped";
  waitForRunning: boolean;
  runningTimeoutMinutes: number;
  maxCreateAttempts: number;
};

/** Every input property (outputs live beside them in state). */
export const INPUT_KEYS = Object.keys(inputSchema.shape).filter((k) => k !== "templateId");

/** Present and known: undefined is absent; UNKNOWN (preview) is neither present nor absent. */
type Presence = "present" | "absent" | "unknown";
function presence(news: Props, key: string): Presence {
  const v = news[key];
  if (v === undefined || v === null) return "absent";
  return containsUnknown(v) ? "unknown" : "present";
}

/** Rules that span properties; skipped where a value is unknown during preview. */
function crossFieldFailures(news: Props): pulumi.dynamic.CheckFailure[] {
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const fail = (property: string, reason: string) => failures.push({ property, reason: `${property}: ${reason}` });
  const offerId = presence(news, "offerId");
  const offer = presence(news, "offer");
  // An imported instance (importId) is not rented: offer and image are optional (adopt.ts).
  const importing = presence(news, "importId") !== "absent";
  if (offerId === "present" && offer === "present") {
    fail("offer", "give either offerId or offer filters, not both");
  } else if (offerId === "absent" && offer === "absent" && !importing) {
    fail("offerId", "give offerId (the offer to rent) or offer filters (the cheapest match is rented)");
  }
  if (presence(news, "image") === "absent" && presence(news, "templateHashId") === "absent" && !importing) {
    fail("image", "is required when no templateHashId is given");
  }
  const keys = news.sshKeyIds;
  const keysMissing = keys === undefined || keys === null || (Array.isArray(keys) && keys.length === 0);
  if (news.vm === true && keysMissing) {
    fail("vm", "a VM instance needs sshKeyIds: its SSH keys must exist before it is created (there is no way to add one later)");
  }
  if (news.runtype === "args" && presence(news, "jupyter") === "present") fail("jupyter", "cannot be combined with runtype args (use onstart to start a server)");
  if (news.runtype === "args" && presence(news, "ssh") === "present") fail("ssh", "cannot be combined with runtype args");
  failures.push(...spotFailures(news), ...readinessFailures(news), ...scheduleFailures(news));
  return failures;
}

/**
 * Validates inputs and applies defaults; never throws, never calls the API. `outputs` are the
 * output names, accepted beside the inputs (outputs.ts names them; it imports this file).
 */
export function checkInstanceInputs(news: Props, outputs: readonly string[] = []): pulumi.dynamic.CheckResult {
  const result = checkWith(inputSchema, news, { type: "Instance", outputs, secretFields: ["env", "onstart", "imageLogin"] });
  const failures = [...(result.failures ?? []), ...crossFieldFailures(news), ...gpuNameFailures(news)];
  const inputs: Props = { ...news };
  for (const [key, value] of Object.entries(DEFAULTS)) {
    if (inputs[key] === undefined) inputs[key] = value;
  }
  return { inputs, failures };
}

/** Typed view of checked inputs (call only with inputs that passed `check`). */
export function typedInputs(props: Props): InstanceInputs {
  const out: Props = { ...DEFAULTS };
  for (const key of INPUT_KEYS) if (props[key] !== undefined && props[key] !== UNKNOWN) out[key] = props[key];
  return out as InstanceInputs;
}
