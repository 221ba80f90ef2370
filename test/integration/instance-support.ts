/**
 * Helpers of the Instance integration tests, which start their simulator with
 * `useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS })`: drive the Instance
 * provider the way the engine does (check, then create with the checked inputs).
 */
import { providers } from "../../provider/providers";
import { drive } from "./account-resources-support";
import type { Harness, LoggedRequest } from "./client-support";

export type Props = Record<string, unknown>;

export const instance = drive(providers.instance);

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
