/**
 * Set-up of the Instance integration tests: a simulator on 127.0.0.1, the providers pointed at
 * it (no pacing, fast retries, status polls every few ms), and helpers to drive the Instance
 * provider the way the engine does (check, then create with the checked inputs).
 */
import type { SimulatorOptions } from "pulumi-vastai/simulator";
import { resetRuntime } from "../../provider/context";
import { providers } from "../../provider/providers";
import { drive, useKey } from "./account-resources-support";
import { Harness, LoggedRequest, startHarness } from "./client-support";

export type Props = Record<string, unknown>;

export const instance = drive(providers.instance);

/** Poll every 5 ms and look a lost response up twice: no test waits seconds. */
export async function startInstanceHarness(simOptions: SimulatorOptions = {}): Promise<Harness> {
  process.env.VASTAI_POLL_INTERVAL_MS = "5";
  process.env.VASTAI_LOST_RESPONSE_LOOKUPS = "2";
  const h = await startHarness(simOptions);
  useKey(h, h.sim.apiKey);
  return h;
}

export async function stopInstanceHarness(h: Harness | undefined): Promise<void> {
  delete process.env.VASTAI_POLL_INTERVAL_MS;
  delete process.env.VASTAI_LOST_RESPONSE_LOOKUPS;
  resetRuntime();
  await h?.close();
}

/** check, then create with the checked inputs (defaults applied), as the engine does. */
export async function createChecked(news: Props): Promise<{ id: string; outs: Props }> {
  const { inputs, failures } = await instance.check({}, { __provider: "test-provider", ...news });
  expect(failures).toEqual([]);
  const result = await instance.create(inputs as Props);
  return { id: result.id, outs: result.outs as Props };
}

/** The checked inputs of `news` (defaults applied). */
export async function checked(news: Props): Promise<Props> {
  const { inputs, failures } = await instance.check({}, { __provider: "test-provider", ...news });
  expect(failures).toEqual([]);
  return inputs as Props;
}

export function count(requests: LoggedRequest[], method: string, pattern: RegExp): number {
  return requests.filter((r) => r.method === method && pattern.test(r.path)).length;
}

export const CREATE_PATH = /^\/api\/v0\/asks\/\d+\/?$/;
export const PAGE_PATH = /^\/api\/v1\/instances\/?$/;
export const ONE_PATH = /^\/api\/v0\/instances\/\d+\/?$/;

/** Live instances on the simulator, as `GET /_sim/state` shows them. */
export function liveInstancesOf(h: Harness): Props[] {
  return h.sim.state().instances;
}

export async function rejection(promise: Promise<unknown>): Promise<Error & Props> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error("expected a rejection, got success");
  return error as Error & Props;
}
