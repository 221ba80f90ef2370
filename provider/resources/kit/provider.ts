import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { hideUrls } from "../../client";
import { editDistance, nearestName, unknownNameMessage } from "./names";
import type { Declaration } from "./declaration";

// The interface lives in provider-impl.ts, without zod, so the public declarations stay free of it.
export type { ProviderImpl, Props } from "./provider-impl";
import type { ProviderImpl, Props } from "./provider-impl";

/** The property Pulumi uses to carry the serialized provider; never an input of ours. */
export const PROVIDER_KEY = "__provider";

/** Pulumi's marker for a value not known during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The input every importable kind shares (kit/import.ts): suggested for a misspelling like any input. */
const SHARED_INPUTS: readonly string[] = ["importId"];

/** The shared inputs a misspelling is near (two edits at most): suggested beside the kind's own names, never for unrelated ones. */
function sharedNear(name: string, known: readonly string[]): string[] {
  return SHARED_INPUTS.filter((k) => !known.includes(k) && editDistance(name, k) <= 2);
}

/** Keys the engine and the kit keep beside the inputs: never a user's input, never compared. */
const ENGINE_KEYS = new Set([PROVIDER_KEY, "__identity", "__generation", "__imported"]);

/** Inputs without engine bookkeeping (`__provider`, the identity of kit/create-once.ts) and without values unknown in preview. */
export function userInputs(props: Props): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(props)) {
    if (ENGINE_KEYS.has(k) || v === undefined) continue;
    out[k] = v;
  }
  return out;
}

/** True when the value, or any value nested in it, is still unknown (preview). */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/**
 * Path segments whose values are never shown: env values, passwords, tokens, secrets, and the
 * free-text command lines and scripts (onstart, args, launchArgs), which often carry a token.
 */
const SECRET_SEGMENT = /^(env|extra_?env|onstart|args|args_?str|launch_?args)$|pass(word)?|secret|token|^private_?key/i;

/** Failures reported per top-level property at most; a list of 100000 bad entries gives a few lines, not megabytes. */
const MAX_FAILURES_PER_PROPERTY = 20;
/** Failures reported at most in all. */
const MAX_FAILURES = 100;

export interface CheckOptions {
  /**
   * The resource's type name (`Template`): with it, every property that is neither in the
   * schema, nor an output, nor `__provider` is refused as "X is not a Template property;
   * did you mean Y?".
   */
  type?: string;
  /** Output names: they may appear beside the inputs and are never unknown properties. */
  outputs?: readonly string[];
  /** Top-level properties whose values failures never show (in addition to SECRET_SEGMENT). */
  secretFields?: readonly string[];
}

/**
 * Keys that name an object's prototype machinery. A record parsed from JSON holds them as own
 * keys, but zod's records and the spread copies of the providers drop or reinterpret them: the
 * name rules are skipped, and the value never round-trips, which shows as a diff on every run.
 */
export const RESERVED_KEYS: readonly string[] = ["__proto__", "constructor", "prototype"];

/** Failures for every reserved key, at any depth of the inputs. */
function reservedKeyFailures(value: unknown, path: string[], out: pulumi.dynamic.CheckFailure[]): void {
  if (value === null || typeof value !== "object") return;
  for (const key of Object.keys(value)) {
    const here = [...path, key];
    if (RESERVED_KEYS.includes(key)) {
      const property = here.join(".");
      out.push({ property, reason: `${property}: "${key}" is not allowed as a name (${RESERVED_KEYS.join(", ")} are reserved)` });
      continue;
    }
    reservedKeyFailures((value as Record<string, unknown>)[key], here, out);
  }
}

/** The properties a zod object schema declares (empty for other schemas). */
/** The property names of the object schema at `path` inside `schema` (through optional, nullable, arrays, ...). */
function schemaKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  type Def = { innerType?: unknown; in?: unknown; element?: unknown; options?: unknown[] };
  const unwrap = (s: unknown): unknown => {
    for (let i = 0; i < 10 && s && !(s as { shape?: unknown }).shape; i++) {
      const def = (s as { _zod?: { def?: Def } })._zod?.def;
      const next = def?.innerType ?? def?.in ?? def?.options?.find((o) => unwrap(o));
      if (!next) return undefined;
      s = next;
    }
    return s;
  };
  let cur: unknown = schema;
  for (const key of path) {
    const def = (cur as { _zod?: { def?: Def } })._zod?.def;
    if (typeof key === "number") {
      cur = def?.element;
      continue;
    }
    const shape = (unwrap(cur) as { shape?: Record<string, unknown> } | undefined)?.shape;
    cur = shape?.[String(key)];
  }
  let target: unknown = cur;
  for (let i = 0; i < 10 && target && (target as { _zod?: { def?: Def } })._zod?.def?.element; i++) target = (target as { _zod: { def: Def } })._zod.def.element;
  return schemaKeys((unwrap(target) ?? target) as z.ZodType);
}

function schemaKeys(schema: z.ZodType): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return shape && typeof shape === "object" ? Object.keys(shape) : [];
}

/**
 * Failures for properties a resource does not have, each with the nearest known name: a
 * misspelt optional input (`permisions`) would otherwise be dropped silently and its default
 * used (a full-access key, a one-hour window).
 */
export function unknownPropertyFailures(
  type: string,
  news: Props,
  known: readonly string[],
  outputs: readonly string[] = [],
): pulumi.dynamic.CheckFailure[] {
  // Outputs are accepted but never suggested: the user meant an input.
  const accepted = new Set<string>([...known, ...outputs, ...ENGINE_KEYS]);
  return Object.keys(news)
    .filter((k) => !accepted.has(k) && news[k] !== undefined)
    .map((property) => ({ property, reason: unknownNameMessage(property, type, [...known, ...sharedNear(property, known)]) }));
}

/** A zod schema, typed structurally so that zod stays out of the public declarations. */
export interface CheckSchema {
  safeParse(data: unknown): unknown;
}

/**
 * Validates inputs with a zod schema and turns every issue into a Pulumi check failure
 * that names the property, the rule and (unless the property is secret) the value.
 * Never throws, never calls the API. Values unknown during preview are not judged.
 */
export function checkWith(zodSchema: CheckSchema, news: Props, options: CheckOptions = {}): pulumi.dynamic.CheckResult {
  const schema = zodSchema as z.ZodType;
  const inputs = userInputs(news);
  const known: Props = {};
  for (const [k, v] of Object.entries(inputs)) if (!containsUnknown(v)) known[k] = v;
  const failures: pulumi.dynamic.CheckFailure[] = [];
  reservedKeyFailures(known, [], failures);
  const reported = new Set(failures.map((f) => f.property));
  const result = schema.safeParse(known);
  const perTop = new Map<string, number>();
  // Judged once per property: a list of 100000 entries gives as many issues.
  const unknownTop = new Map<string, boolean>();
  const isUnknownTop = (top: string) => {
    let unknown = unknownTop.get(top);
    if (unknown === undefined) unknownTop.set(top, (unknown = top in inputs && containsUnknown(inputs[top])));
    return unknown;
  };
  let dropped = 0;
  if (!result.success) {
    for (const issue of result.error.issues) {
      // Unknown top-level properties are reported once, below, with the nearest name.
      if (options.type && issue.code === "unrecognized_keys" && issue.path.length === 0) continue;
      // A misspelt name inside an object input (`offer.gpuname`): the nearest name there.
      // (Schemas that word their own message for it keep it.)
      if (issue.code === "unrecognized_keys" && issue.path.length > 0 && /^Unrecognized keys?\b/.test(issue.message)) {
        const at = issue.path.map(String).join(".");
        const names = schemaKeysAt(schema, issue.path);
        for (const key of (issue as { keys: string[] }).keys) {
          // Only a near miss is suggested (gpuname -> gpuName); otherwise the names it takes.
          const nearest = nearestName(key, names);
          const [k, n] = [key.toLowerCase(), nearest?.toLowerCase() ?? ""];
          const near = nearest && (editDistance(k, n) <= Math.max(2, Math.floor(k.length / 3)) || n.startsWith(k) || k.startsWith(n)) ? nearest : undefined;
          failures.push({
            property: `${at}.${key}`,
            reason: `${at}.${key}: ${key} is not a property of ${at}; ${near ? `did you mean ${near}?` : `it takes ${names.join(", ")}`}`,
          });
        }
        continue;
      }
      const property = issue.path.length ? issue.path.map(String).join(".") : "(inputs)";
      if (reported.has(property)) continue;
      const top = String(issue.path[0] ?? "");
      if (top && isUnknownTop(top)) continue;
      // The whole set of inputs is never shown: it holds the secret ones too.
      const secret =
        issue.path.length === 0 ||
        (options.secretFields?.includes(top) ?? false) ||
        issue.path.some((segment) => typeof segment === "string" && SECRET_SEGMENT.test(segment));
      const count = (perTop.get(top) ?? 0) + 1;
      perTop.set(top, count);
      if (count > MAX_FAILURES_PER_PROPERTY || failures.length >= MAX_FAILURES) {
        dropped++;
        continue;
      }
      const shown = secret ? "" : describeValue(valueAt(known, issue.path));
      failures.push({ property, reason: `${property}: ${issue.message}${shown}` });
    }
  }
  if (dropped > 0) {
    const last = failures.pop();
    if (last) failures.push({ property: last.property, reason: `${last.reason} (and ${dropped} more problems of the same inputs not listed)` });
  }
  if (options.type) {
    const unknown = unknownPropertyFailures(options.type, news, schemaKeys(schema), options.outputs);
    failures.push(...unknown.filter((f) => !reported.has(f.property)));
  }
  return { inputs: news, failures };
}

function valueAt(obj: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = obj;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** Values shown in a failure are cut to this many characters. */
const SHOWN_VALUE_LIMIT = 80;

/**
 * URLs shown as `scheme://host/…` only: a userinfo, a query and the path may each hold a token
 * (a Slack or Discord webhook's path is its key). Text that is not a URL is kept.
 */
export function redactUrl(text: string): string {
  return hideUrls(text);
}

/** The value as a failure shows it: JSON, credentials in URLs hidden, cut to SHOWN_VALUE_LIMIT characters. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "";
  // Only the start is shown: a list of 100000 entries is not written out whole first.
  const head = Array.isArray(value) && value.length > 100 ? value.slice(0, 100) : value;
  let text = redactUrl((JSON.stringify(head) ?? String(head)).slice(0, 8192));
  if (text.length > SHOWN_VALUE_LIMIT) text = `${text.slice(0, SHOWN_VALUE_LIMIT - 3)}...`;
  return ` (got ${text})`;
}

/** Structural equality of JSON-like values; key order does not matter. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => deepEqual(v, b[i]));
  }
  if (a && b && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a).filter((k) => (a as Props)[k] !== undefined);
    const kb = Object.keys(b).filter((k) => (b as Props)[k] !== undefined);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => deepEqual((a as Props)[k], (b as Props)[k]));
  }
  return false;
}

/** The user inputs whose values differ between two sets of inputs. */
export function changedKeys(olds: Props, news: Props, ignore: readonly string[] = []): string[] {
  const a = userInputs(olds);
  const b = userInputs(news);
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => !ignore.includes(k) && !deepEqual(a[k], b[k])).sort();
}

/**
 * Diff of inputs only: a change of the serialized provider (a code-only change) is never
 * a change. Keys in `replaceOn` force replacement.
 */
export function diffInputs(
  olds: Props,
  news: Props,
  spec: { replaceOn: readonly string[]; ignore?: readonly string[]; deleteBeforeReplace?: boolean },
): pulumi.dynamic.DiffResult {
  const changed = changedKeys(olds, news, spec.ignore);
  const replaces = changed.filter((k) => spec.replaceOn.includes(k));
  return {
    changes: changed.length > 0,
    replaces,
    deleteBeforeReplace: replaces.length > 0 ? spec.deleteBeforeReplace : undefined,
  };
}

/**
 * Thrown when an object was made on the service but the operation could not finish.
 * The dynamic-provider plugin turns an error carrying `id` into a resource-init failure,
 * so the engine keeps the id (and these properties) in state and nothing leaks.
 */
export class PartialFailure extends Error {
  readonly id: string;
  readonly properties: Props;
  readonly reasons: string[];
  constructor(message: string, id: string, inputs: Props, outs: Props) {
    super(message);
    this.name = "PartialFailure";
    this.id = id;
    // Keep __provider so later operations on this state entry can load the provider.
    this.properties = jsonClean({ ...inputs, ...outs }) as Props;
    this.reasons = [message];
  }
}

/** Removes undefined values (the plugin rejects them) and turns Dates into ISO strings. */
export function jsonClean(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : jsonClean(v)));
  if (value && typeof value === "object") {
    const out: Props = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = jsonClean(v);
    return out;
  }
  return value;
}

/** Every output a declared kind's state holds beside its inputs: the computed ones and its own bookkeeping. */
export const stateOutputs = (declaration: Declaration): string[] => [...declaration.computed, ...(declaration.internal ?? [])];

/** The check of a declared kind (kit/declare.ts): its schema, its type name and its computed outputs. */
export function checkDeclared(declaration: Declaration, schema: CheckSchema, news: Props, options: Omit<CheckOptions, "type" | "outputs"> = {}): pulumi.dynamic.CheckResult {
  return checkWith(schema, news, { type: declaration.type, outputs: stateOutputs(declaration), ...options });
}

/** The diff of a declared kind: its `replaceOn` inputs replace, every other input changes in place, computed outputs are not compared. */
export function diffDeclared(declaration: Declaration, olds: Props, news: Props, ignore: readonly string[] = []): pulumi.dynamic.DiffResult {
  return diffInputs(olds, news, { replaceOn: declaration.replaceOn ?? [], ignore: [...stateOutputs(declaration), ...ignore], deleteBeforeReplace: declaration.deleteBeforeReplace });
}

/** The outputs of an update that changes nothing on the service: the new inputs beside the computed outputs as they were. */
export function recordedUpdate(declaration: Declaration, olds: Props, news: Props): Props {
  const outs: Props = { ...news };
  for (const k of stateOutputs(declaration)) outs[k] = olds[k];
  return jsonClean(outs) as Props;
}

/** The check and diff of a declared kind with nothing of its own to add: its schema, its computed outputs, its replace rules. */
export function checkAndDiff(declaration: Declaration, schema: CheckSchema): Pick<ProviderImpl, "check" | "diff"> {
  return {
    async check(_olds, news) {
      return checkDeclared(declaration, schema, news);
    },
    async diff(_id, olds, news) {
      return diffDeclared(declaration, olds, news);
    },
  };
}
