/**
 * What every lookup shares: where its client comes from, and how an `...Output` variant is
 * made from the plain async function.
 *
 * Credentials are never an argument of a lookup: an argument would be stored wherever the
 * program passes it around. The client comes from the stack config (`vastai:apiKey`,
 * `vastai:apiUrl`, `vastai:runUrl`), the environment (`VAST_API_KEY`, ...), or
 * `setClientOptions` (provider/context), or is passed ready-made as `options.client`.
 */
import * as pulumi from "@pulumi/pulumi";
import type { VastClient } from "../client";
import { VastValidationError } from "../client/errors";
import { getClient } from "../context";
import { editDistance, nearestName, unknownNameMessage } from "../resources/kit/names";

/** Options every lookup takes as its last argument: a `client` to use instead of the one the configuration makes. */
export interface LookupOptions {
  /** A client to use instead of the shared one, for example one made with `createClient` and another key. */
  client?: VastClient;
}

/** The object's fields, each of which may be a Pulumi Input. */
export type InputsOf<T> = { [K in keyof T]: pulumi.Input<T[K]> };

export function clientOf(options?: LookupOptions): VastClient {
  return options?.client ?? getClient();
}

/**
 * The `...Output` variant of a lookup: waits for its (possibly unknown) inputs, then calls it.
 * During a preview with unknown inputs the result is unknown too.
 */
export function outputVariant<A, R>(lookup: (args: A, options?: LookupOptions) => Promise<R>) {
  return (args: pulumi.Input<A> | InputsOf<A>, options?: LookupOptions): pulumi.Output<R> =>
    pulumi.output(args).apply((resolved) => lookup(resolved as A, options)) as pulumi.Output<R>;
}

/** Ids are positive integers; refuse anything else before a request is made. */
export function positiveInt(lookup: string, name: string, value: unknown): number {
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  throw new VastValidationError(`${lookup}: ${name} must be a positive integer (got ${JSON.stringify(value) ?? String(value)})`);
}

/**
 * Refuses argument names a lookup does not take, naming the nearest one: a misspelt optional
 * argument would otherwise be dropped and the lookup answer something else than asked.
 * `nested` offers names one level down (`filters.gpuName`) when the word is nearer to one of them.
 */
export function knownArgs(lookup: string, args: unknown, names: readonly string[], nested?: { under: string; names: readonly string[] }): void {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return;
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || names.includes(name)) continue;
    let message = unknownNameMessage(name, lookup, names);
    const deeper = nested && nearestName(name, nested.names);
    const top = nearestName(name, names);
    if (nested && deeper && (!top || editDistance(name, deeper) < editDistance(name, top))) {
      message = `${unknownNameMessage(name, lookup, [])}`.replace(/it takes no properties$/, `did you mean ${nested.under}.${deeper}?`);
    }
    throw new VastValidationError(message);
  }
}
