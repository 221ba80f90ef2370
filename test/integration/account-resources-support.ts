/**
 * Helpers of the account-resource and lookup integration tests: the provider objects (as the
 * plugin would call them) with every method present, and a switch of the API key they use.
 * The simulator itself comes from `useSimulator()` (test/support/simulator.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ProviderImpl } from "../../provider/resources/kit";
import { pointProviders } from "../support/simulator";
import type { Harness } from "./client-support";


/** A provider object with all its methods, typed for tests. */
export type Driven = ProviderImpl;

export function drive(provider: pulumi.dynamic.ResourceProvider): Driven {
  const need = <K extends keyof Driven>(name: K): Driven[K] => {
    const fn = provider[name];
    if (!fn) throw new Error(`provider has no ${name}`);
    return fn as unknown as Driven[K];
  };
  return {
    check: need("check"),
    diff: need("diff"),
    create: need("create"),
    read: need("read"),
    update: need("update"),
    delete: need("delete"),
  };
}

/** Points the providers and lookups of this process at the simulator, with the given key. */
export function useKey(h: Harness, apiKey: string): void {
  pointProviders(h, apiKey);
}

/** The message of the error a call rejects with (fails the test when it resolves). */
export async function failureOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error(`expected a rejection, got ${error === undefined ? "success" : String(error)}`);
  return error.message;
}
