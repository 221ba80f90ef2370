/**
 * Set-up shared by the account-resource and lookup integration tests: the simulator harness
 * of the client tests, the process-wide provider settings pointed at it, and the provider
 * objects (as the plugin would call them) with every method present.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ProviderImpl } from "../../provider/resources/kit";
import { resetRuntime, setClientOptions } from "../../provider/context";
import { FAST_RETRY, Harness, startHarness } from "./client-support";


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
  setClientOptions({ apiKey, apiUrl: h.sim.url, runUrl: h.sim.runUrl, pacing: false, ...FAST_RETRY });
}

/** A simulator with `bootMs: 0`, the providers pointed at it with the default account's key. */
export async function startProviderHarness(): Promise<Harness> {
  const h = await startHarness();
  useKey(h, h.sim.apiKey);
  return h;
}

export async function stopProviderHarness(h: Harness | undefined): Promise<void> {
  resetRuntime();
  await h?.close();
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
