/**
 * The inputs that give an instance its in-machine guard (plan.ts): `autostop`, `ttl` or
 * `expiresAt`, `expireAction`, and `wake`; their rules; the fixed deadline; and the start
 * command that carries the guard.
 *
 * The deadline: `expiresAt` is the deadline itself. A `ttl` is turned into one when the
 * instance is created (now + ttl) and kept in state (output `deadline`); every later `up`
 * keeps the stored deadline as long as `ttl` is unchanged, so it does not move each run. A
 * changed `ttl` starts again from the update's time. A replacement is a new rental: it gets a
 * new deadline.
 *
 * The guard travels in the start command: `onstart` for runtype ssh and jupyter (and without
 * a runtype), `argsStr` for runtype args (the command the container runs, script.ts). Its plan
 * holds no key: the guard reads `CONTAINER_API_KEY` from the container's environment.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { prepareOnstart, ONSTART_LIMIT } from "../../../client";
import { Props, containsUnknown, deepEqual } from "../../kit";
import type { GuardPlan } from "./plan";
import { guardedArgsStr, guardedOnstart } from "./script";

/** The longest idle period and time to live taken: a year, minutes. */
export const MAX_GUARD_MINUTES = 365 * 24 * 60;
export const DEFAULT_GPU_UTIL_BELOW = 5;

const TTL_RULE = 'must be a duration such as "90m", "8h", "2d" or "1d12h" (whole days, hours, minutes)';
const ACTION_RULE = 'must be one of "stop", "destroy"';
const EXPIRES_RULE = "must be an ISO 8601 time with a zone, such as 2026-12-01T18:00:00Z";

/** Minutes of a ttl text, or undefined when it is not one. */
export function ttlMinutes(text: string): number | undefined {
  const m = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$/.exec(text.trim());
  if (!m || text.trim() === "" || (m[1] === undefined && m[2] === undefined && m[3] === undefined)) return undefined;
  return Number(m[1] ?? 0) * 1440 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

const got = (v: unknown) => `got ${JSON.stringify(v)}`;
const action = z.enum(["stop", "destroy"], { error: (iss) => `${ACTION_RULE} (${got(iss.input)})` });

export const GUARD_INPUTS = {
  autostop: z
    .strictObject(
      {
        idleMinutes: z
          .number({ error: (iss) => `must be a number of minutes (${got(iss.input)})` })
          .int({ error: (iss) => `must be a whole number of minutes (${got(iss.input)})` })
          .min(1, { error: (iss) => `must be at least 1 minute (${got(iss.input)})` })
          .max(MAX_GUARD_MINUTES, { error: (iss) => `must be at most ${MAX_GUARD_MINUTES} minutes, a year (${got(iss.input)})` }),
        gpuUtilBelowPercent: z
          .number({ error: (iss) => `must be a number (percent, ${got(iss.input)})` })
          .gt(0, { error: (iss) => `must be greater than 0 (percent, ${got(iss.input)})` })
          .max(100, { error: (iss) => `must be at most 100 (percent, ${got(iss.input)})` })
          .optional(),
        action: action.optional(),
        sshKeepsAwake: z.boolean({ error: (iss) => `must be true or false (${got(iss.input)})` }).optional(),
      },
      { error: 'must be an object such as { idleMinutes: 30, gpuUtilBelowPercent: 5, action: "stop" }' },
    )
    .optional(),
  ttl: z
    .string({ error: (iss) => `${TTL_RULE} (${got(iss.input)})` })
    .superRefine((text, ctx) => {
      const minutes = ttlMinutes(text);
      if (minutes === undefined) ctx.addIssue({ code: "custom", message: `${TTL_RULE} (${got(text)})` });
      else if (minutes < 1) ctx.addIssue({ code: "custom", message: `must be at least 1 minute (${got(text)})` });
      else if (minutes > MAX_GUARD_MINUTES) ctx.addIssue({ code: "custom", message: `must be at most 365d (${got(text)})` });
    })
    .optional(),
  expiresAt: z
    .string({ error: (iss) => `${EXPIRES_RULE} (${got(iss.input)})` })
    .superRefine((v, ctx) => {
      if (!/(Z|[+-]\d\d:?\d\d)$/i.test(v.trim()) || !Number.isFinite(Date.parse(v))) ctx.addIssue({ code: "custom", message: `${EXPIRES_RULE} (${got(v)})` });
    })
    .optional(),
  expireAction: action.optional(),
  /** Any value; a change starts an instance its guard stopped (or re-creates one its autostop destroyed). */
  wake: z.unknown().optional(),
};

/** Inputs that shape the guard (a change recreates the container in place, inplace.ts). */
export const GUARD_KEYS: readonly string[] = ["autostop", "ttl", "expiresAt", "expireAction"];
/** Inputs that fix the deadline. */
export const DEADLINE_KEYS: readonly string[] = ["ttl", "expiresAt"];

const present = (v: unknown) => v !== undefined && v !== null;
const known = (v: unknown) => present(v) && !containsUnknown(v);

/**
 * Rules across fields, for Instance and Fleet: ttl or expiresAt (not both), expireAction only
 * with one of them, a deadline in the future when it is new (created, or changed: a deadline
 * that has passed since is the instance's expiry, not an error), no guard on a VM.
 */
export function guardFailures(olds: Props, news: Props, now: number): pulumi.dynamic.CheckFailure[] {
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const fail = (property: string, reason: string) => failures.push({ property, reason: `${property}: ${reason}` });
  if (present(news.ttl) && present(news.expiresAt)) fail("expiresAt", `give either ttl or expiresAt, not both (ttl ${JSON.stringify(news.ttl)}, expiresAt ${JSON.stringify(news.expiresAt)})`);
  if (present(news.expireAction) && !present(news.ttl) && !present(news.expiresAt)) fail("expireAction", "is used only with ttl or expiresAt (what the guard does at the deadline)");
  if (known(news.expiresAt) && typeof news.expiresAt === "string" && !deepEqual(olds.expiresAt, news.expiresAt)) {
    const at = Date.parse(news.expiresAt);
    if (Number.isFinite(at) && at <= now) fail("expiresAt", `must be in the future (got ${news.expiresAt}, now is ${new Date(now).toISOString()})`);
  }
  if (news.vm === true && (present(news.autostop) || present(news.ttl) || present(news.expiresAt))) {
    fail(present(news.autostop) ? "autostop" : present(news.ttl) ? "ttl" : "expiresAt", "cannot be combined with vm: the guard runs in a container's start command");
  }
  if (planWanted(news) && news.runtype === "args" && !present(news.argsStr)) {
    fail("argsStr", "is required with runtype args and autostop, ttl or expiresAt: the guard starts beside the container's command, so the command must be given");
  }
  if (known(news.onstart) || planWanted(news)) {
    const sample = planOf({ ...news, deadline: present(news.ttl) || present(news.expiresAt) ? "2000-01-01T00:00:00Z" : undefined }, "https://console.vast.ai");
    if (sample && news.runtype !== "args" && typeof news.onstart === "string" && !prepareOnstart(guardedOnstart(news.onstart, sample)).fits) {
      fail("onstart", `with the guard of autostop/ttl added, must fit in ${ONSTART_LIMIT} bytes after compression and encoding; shorten the script or download it at start`);
    }
  }
  return failures;
}

/** Whether the inputs ask for a guard (values may still be unknown in a preview). */
export function planWanted(props: Props): boolean {
  return present(props.autostop) || present(props.ttl) || present(props.expiresAt);
}

/** ISO 8601 UTC to the second: `2026-11-29T06:00:00Z`. */
export function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * The fixed deadline for `news` (ISO), or undefined without ttl or expiresAt. `olds` is the
 * state entry (empty on create): its stored `deadline` is kept while `ttl` is unchanged.
 */
export function deadlineOf(olds: Props, news: Props, now: number): string | undefined {
  if (typeof news.expiresAt === "string") {
    const at = Date.parse(news.expiresAt);
    return Number.isFinite(at) ? isoSeconds(at) : undefined;
  }
  if (typeof news.ttl !== "string") return undefined;
  const minutes = ttlMinutes(news.ttl);
  if (minutes === undefined) return undefined;
  if (olds.ttl === news.ttl && !present(olds.expiresAt) && typeof olds.deadline === "string") return olds.deadline;
  return isoSeconds(now + minutes * 60_000);
}

/** The guard's plan from props that carry `deadline` (state, or inputs after deadlineOf); undefined without a guard. */
export function planOf(props: Props, apiUrl: string): GuardPlan | undefined {
  const a = props.autostop as { idleMinutes?: number; gpuUtilBelowPercent?: number; action?: "stop" | "destroy"; sshKeepsAwake?: boolean } | undefined | null;
  const autostop =
    a && typeof a.idleMinutes === "number"
      ? {
          idleMinutes: a.idleMinutes,
          gpuUtilBelowPercent: a.gpuUtilBelowPercent ?? DEFAULT_GPU_UTIL_BELOW,
          action: a.action ?? "stop",
          ...(typeof a.sshKeepsAwake === "boolean" ? { sshKeepsAwake: a.sshKeepsAwake } : {}),
        }
      : undefined;
  const expiresAt = typeof props.deadline === "string" ? props.deadline : undefined;
  if (!autostop && !expiresAt) return undefined;
  return {
    ...(autostop ? { autostop } : {}),
    ...(expiresAt ? { expiresAt, expireAction: (props.expireAction as "stop" | "destroy" | undefined) ?? "destroy" } : {}),
    apiUrl,
  };
}

/**
 * `props` with the start command that carries the guard: `onstart` (runtype ssh, jupyter or
 * none) or `argsStr` (runtype args) replaced by the guarded one; unchanged without a guard.
 * This is what the service is sent and shows; state keeps the user's own values.
 */
export function withGuard(props: Props, apiUrl: string): Props {
  const plan = planOf(props, apiUrl);
  if (!plan) return props;
  // check requires argsStr with runtype args; without one (a template's) the guard cannot wrap it.
  if (props.runtype === "args") return typeof props.argsStr === "string" && props.argsStr.trim() !== "" ? { ...props, argsStr: guardedArgsStr(props.argsStr, plan) } : props;
  return { ...props, onstart: guardedOnstart(typeof props.onstart === "string" ? props.onstart : undefined, plan) };
}
