/**
 * Taking over an object that exists on the service (`importId`).
 *
 * Pulumi's `import` resource option and `pulumi import` do not work for dynamic providers
 * (pulumi/pulumi#16175: the engine's read on an import carries no `__provider`), so adopting
 * an existing object needs an input of our own: `importId`, the id the resource's Pulumi id
 * would have. One wrapper (`importable`) gives every kind that declares an `ImportSpec` the
 * same behaviour, through the kind's own read, diff and update:
 *
 * - check: the id's form is judged, the rest of the inputs by the kind's check;
 * - create with `importId` sends no create: the kind's read (its shared reader) finds the
 *   object; none -> an error naming importId; found -> the inputs the service shows are
 *   compared with the declared ones by the kind's diff: a difference the kind can change only
 *   by replacement fails the create and nothing is changed; in-place differences (and declared
 *   inputs the service never shows) are applied by the kind's update. The output `imported`
 *   is true from then on;
 * - a later change of `importId` is recorded only (never a replacement, never a second
 *   takeover); read keeps it among the inputs it rebuilds, so a refresh leaves no diff;
 * - inputs the spec lists as `keepShown`, left out of the program, keep what the service showed
 *   on every later run (the `__imported` mark among the inputs), never the kind's default;
 * - only the resource's first create takes over: a replacement creates a new object.
 *
 * Kinds that are actions rather than objects declare a refusal instead: `importId` fails check.
 */
import type * as pulumi from "@pulumi/pulumi";
import { hideUrls } from "../../client";
import { IDENTITY_KEY, isFirstCreate } from "./create-once";
import { PartialFailure, containsUnknown, deepEqual, jsonClean, userInputs, type Props, type ProviderImpl } from "./provider";

/** The input naming the object to take over. */
export const IMPORT_ID_KEY = "importId";
/** The output that says the object was taken over, not created. */
export const IMPORTED_KEY = "imported";
/**
 * Bookkeeping among the inputs of a resource that took an object over: check keeps it from
 * state, so inputs left out keep the service's values also after importId leaves the program.
 */
export const IMPORTED_INPUT_KEY = "__imported";

export interface ImportSpec {
  /** The class name (`Template`), for messages. */
  type: string;
  /** What the object is called in messages (`template`, `environment variable`). */
  noun: string;
  /** The rule an id must meet, in words (`must be a numeric template id such as 123`). */
  idRule: string;
  /** Whether `id` has the form of this kind's ids. */
  validId(id: string): boolean;
  /** The id as the service holds it (EnvVar names are upper case); default: as given. */
  normalizeId?(id: string): string;
  /**
   * Inputs that, left out of the program of an imported resource, keep what the service shows
   * rather than taking their default (a volume's size, a webhook's name).
   */
  keepShown?: readonly string[];
  /**
   * Inputs the service never shows (an EnvVar's value): the declared value is applied by the
   * kind's update on import.
   */
  notShown?: readonly string[];
  /** Properties whose check failures do not apply to an import (how a new object would be made). */
  optionalOnImport?: readonly string[];
  /** Inputs whose values messages never show. */
  secretFields?: readonly string[];
  /**
   * A check of the id against the declared inputs, for kinds whose id is derived from them;
   * returns the problem, or undefined.
   */
  verify?(id: string, declared: Props): string | undefined;
}

/** For kinds that are actions, not objects: why there is nothing to import. */
export interface ImportRefusal {
  /** The class name (`RsyncCopy`), for messages. */
  type: string;
  refuse: string;
}

/** A provider implementation that says how `importId` takes over its objects, or why it has none. */
export type ImportableImpl = ProviderImpl & { importing?: ImportSpec | ImportRefusal };

/** The props without the import keys, for the kind's own methods. */
export function withoutImport(props: Props): Props {
  const out = { ...props };
  delete out[IMPORT_ID_KEY];
  delete out[IMPORTED_KEY];
  delete out[IMPORTED_INPUT_KEY];
  return out;
}

function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  // A URL's path or query may hold a token (a webhook's address): scheme and host only.
  const text = hideUrls(JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function isRefusal(spec: ImportSpec | ImportRefusal): spec is ImportRefusal {
  return "refuse" in spec;
}

/** Check failures of `importId` alone (undefined and unknown values are not judged). */
export function importIdFailures(spec: ImportSpec | ImportRefusal, value: unknown): pulumi.dynamic.CheckFailure[] {
  if (value === undefined || value === null || containsUnknown(value)) return [];
  if (isRefusal(spec)) {
    return [{ property: IMPORT_ID_KEY, reason: `${IMPORT_ID_KEY}: ${spec.type} cannot be imported: ${spec.refuse} (got ${shown(value)})` }];
  }
  if (typeof value !== "string" || !spec.validId(value)) {
    return [{ property: IMPORT_ID_KEY, reason: `${IMPORT_ID_KEY}: ${spec.idRule} (got ${shown(value)})` }];
  }
  return [];
}

/**
 * The check's inputs of an imported resource: each `keepShown` input the program leaves out
 * keeps the value recorded in state (what the service showed), or none on the first run (the
 * create then takes what the service shows), never the kind's default.
 */
function keepShownInputs(spec: ImportSpec, olds: Props, news: Props, inputs: Props): Props {
  const out = { ...inputs };
  for (const k of spec.keepShown ?? []) {
    if (news[k] !== undefined) continue;
    if (olds[k] !== undefined) out[k] = olds[k];
    else delete out[k];
  }
  return out;
}

/**
 * The new inputs without the import keys; for an imported resource, each `keepShown` input the
 * program leaves out takes the stored value (state's inputs after a create are what check
 * returned, which did not hold it yet; diff and update see the stored outputs, which do).
 */
function keptFrom(spec: ImportSpec | ImportRefusal, olds: Props, news: Props): Props {
  const out = withoutImport(news);
  if (isRefusal(spec) || !(news[IMPORT_ID_KEY] !== undefined || wasImported(olds))) return out;
  for (const k of spec.keepShown ?? []) if (out[k] === undefined && olds[k] !== undefined) out[k] = olds[k];
  return out;
}

/** Whether stored props (inputs or outputs) say the resource took its object over. */
function wasImported(props: Props): boolean {
  return props[IMPORT_ID_KEY] !== undefined || props[IMPORTED_INPUT_KEY] === true || props[IMPORTED_KEY] === true;
}

/** Takes over the object `importId` names, through the kind's read, diff and update. */
async function takeOver(spec: ImportSpec, impl: ProviderImpl, inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  const given = String(inputs[IMPORT_ID_KEY]);
  const id = spec.normalizeId ? spec.normalizeId(given) : given;
  const label = `${spec.type} ${IMPORT_ID_KEY} "${given}"`;
  const declared = withoutImport(inputs);
  const problem = spec.verify?.(id, declared);
  if (problem) throw new Error(`${label}: ${problem}; nothing was taken over or changed`);
  // What the service never shows is read as unknown, so the declared value counts as a change.
  const readProps = { ...declared };
  for (const k of spec.notShown ?? []) delete readProps[k];
  let read: pulumi.dynamic.ReadResult;
  try {
    read = await impl.read(id, readProps);
  } catch (error) {
    throw new Error(`${label}: reading the ${spec.noun} failed, so nothing was taken over, created or changed: ${(error as Error).message}`, { cause: error });
  }
  if (!read.id) throw new Error(`${label}: no such ${spec.noun} exists on the account (nothing was created or changed)`);
  const liveInputs = (read.inputs ?? {}) as Props;
  const live: Props = { ...(read.props as Props | undefined), ...liveInputs };
  for (const k of spec.keepShown ?? []) if (declared[k] === undefined && liveInputs[k] !== undefined) declared[k] = liveInputs[k];
  const diff = await impl.diff(id, live, declared);
  const replaces = diff.replaces ?? [];
  if (replaces.length > 0) {
    const secret = new Set(spec.secretFields ?? []);
    const parts = [...replaces].sort().map((k) =>
      secret.has(k) ? `${k} (a secret: values not shown) differs` : `${k}: declared ${shown(declared[k])}, the service shows ${shown(liveInputs[k])}`,
    );
    throw new Error(
      `${label}: the declared inputs differ from the ${spec.noun} on the service in what can change only by replacement, so it was not taken over and nothing was changed: ` +
        `${parts.join("; ")}. Declare what the service shows to import it.`,
    );
  }
  const unshownDeclared = (spec.notShown ?? []).some((k) => declared[k] !== undefined);
  let outs: Props;
  if (diff.changes !== false || unshownDeclared) {
    try {
      outs = (await impl.update(id, live, declared)).outs as Props;
    } catch (error) {
      // Taken over, but the declared inputs were not all applied: state keeps the object with
      // what the service showed, so the next up diffs against it and applies them again.
      const message = `${label}: the ${spec.noun} was taken over, but applying the declared inputs failed: ${(error as Error).message}`;
      const user = userInputs(inputs);
      const bookkeeping = Object.fromEntries(Object.entries(inputs).filter(([k]) => !(k in user) && k !== IMPORTED_INPUT_KEY));
      throw new PartialFailure(message, id, { ...bookkeeping, ...live }, { [IMPORT_ID_KEY]: given, [IMPORTED_KEY]: true });
    }
  } else {
    outs = { ...live, ...declared };
  }
  return { id, outs: jsonClean({ ...outs, [IMPORT_ID_KEY]: given, [IMPORTED_KEY]: true }) as Props };
}

/** Carries the import keys of `props` into a partial failure's state. */
function keepImportKeys(error: unknown, props: Props): unknown {
  if (error instanceof PartialFailure) {
    for (const k of [IMPORT_ID_KEY, IMPORTED_KEY]) if (props[k] !== undefined) error.properties[k] = props[k];
  }
  return error;
}

/**
 * The kind's provider with `importId` handled as this file describes; a kind without an
 * `importing` declaration is returned as it is (it handles the input itself, or refuses it).
 */
export function importable(impl: ImportableImpl): ProviderImpl {
  const spec = impl.importing;
  if (!spec) return impl;
  const refusal = isRefusal(spec);
  return {
    async check(olds, news) {
      const importId = news[IMPORT_ID_KEY];
      const result = await impl.check(withoutImport(olds), withoutImport(news));
      const importing = importId !== undefined && importId !== null;
      let failures = result.failures ?? [];
      if (!refusal && importing) {
        // Only the failures of inputs left out: a given value is still judged.
        const skip = new Set((spec.optionalOnImport ?? []).filter((k) => news[k] === undefined || news[k] === null));
        failures = failures.filter((f) => !skip.has(f.property));
      }
      failures = [...failures, ...importIdFailures(spec, importId)];
      let inputs = result.inputs as Props | undefined;
      // A resource created without importId and given one later is not marked: it took nothing over.
      const imported = !refusal && ((importing && Object.keys(userInputs(olds)).length === 0) || wasImported(olds));
      if (inputs && imported) inputs = { ...keepShownInputs(spec, olds, news, inputs), [IMPORTED_INPUT_KEY]: true };
      if (inputs && importing) inputs = { ...inputs, [IMPORT_ID_KEY]: importId };
      return { inputs, failures };
    },

    // A change of importId alone is recorded (an update that changes nothing), never a replacement.
    async diff(id, olds, news) {
      const result = await impl.diff(id, withoutImport(olds), keptFrom(spec, olds, news));
      if (result.changes === false && !deepEqual(olds[IMPORT_ID_KEY], news[IMPORT_ID_KEY])) return { ...result, changes: true };
      return result;
    },

    // Only a resource's first create takes over: a replacement (a later generation, see
    // kit/create-once.ts) of an imported resource creates its new object as any replacement does.
    async create(inputs) {
      const takes = !refusal && inputs[IMPORT_ID_KEY] !== undefined && inputs[IMPORT_ID_KEY] !== null;
      if (takes && (typeof inputs[IDENTITY_KEY] !== "string" || isFirstCreate(inputs))) return takeOver(spec, impl, inputs);
      const result = await impl.create(withoutImport(inputs));
      // The importId a replacement was given stays recorded beside its outputs.
      return takes ? { ...result, outs: { ...(result.outs as Props | undefined), [IMPORT_ID_KEY]: inputs[IMPORT_ID_KEY] } } : result;
    },

    async read(id, props) {
      const result = await impl.read(id, withoutImport(props));
      if (!result.id) return result;
      const kept: Props = {};
      for (const k of [IMPORT_ID_KEY, IMPORTED_KEY]) if (props[k] !== undefined) kept[k] = props[k];
      if (Object.keys(kept).length === 0) return result;
      const importId = props[IMPORT_ID_KEY] === undefined ? {} : { [IMPORT_ID_KEY]: props[IMPORT_ID_KEY] };
      const marks = props[IMPORTED_KEY] === true ? { [IMPORTED_INPUT_KEY]: true } : {};
      return { ...result, props: result.props && { ...result.props, ...kept }, inputs: result.inputs && { ...result.inputs, ...importId, ...marks } };
    },

    async update(id, olds, news) {
      const before = withoutImport(olds);
      const after = keptFrom(spec, olds, news);
      const keys: Props = { [IMPORTED_KEY]: olds[IMPORTED_KEY], [IMPORT_ID_KEY]: news[IMPORT_ID_KEY] };
      // Only importId changed: nothing is sent to the service.
      if ((await impl.diff(id, before, after)).changes === false) return { outs: jsonClean({ ...before, ...after, ...keys }) as Props };
      try {
        const result = await impl.update(id, before, after);
        return { ...result, outs: jsonClean({ ...(result.outs as Props | undefined), ...keys }) as Props };
      } catch (error) {
        throw keepImportKeys(error, keys);
      }
    },

    async delete(id, props) {
      return impl.delete(id, withoutImport(props));
    },
  };
}

/** The import of a kind whose id is the service's positive integer id (most kinds). */
export function numericImport(type: string, noun: string, more: Partial<ImportSpec> = {}): ImportSpec {
  return {
    type,
    noun,
    idRule: `must be the ${noun}'s numeric id on the service (what the resource's id would be), such as "123"`,
    validId: (id) => /^[1-9]\d{0,15}$/.test(id),
    ...more,
  };
}
