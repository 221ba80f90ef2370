/**
 * Set-up of the MaintenanceWindow integration tests: a simulator on 127.0.0.1 and a provider
 * sharing one movable clock (so a window can be made to pass without waiting), the process
 * settings pointed at the simulator, and readers of the simulator's windows and request log.
 */
import { setClientOptions } from "../../provider/context";
import { setTiming, type ProviderImpl } from "../../provider/resources/kit";
import { provider as maintenanceWindowProvider } from "../../provider/resources/maintenanceWindow/provider";
import { SEED } from "pulumi-vastai/simulator";
import { FAST_RETRY, Harness, LoggedRequest, startHarness } from "./client-support";

export const BATCH_PATH = "/api/v0/machines/maintenances/batch";
export const LIST_PATH = "/api/v0/machines/maintenances";
export const HOUR = 3600;
export const DAY = 24 * HOUR;

export interface WindowHarness extends Harness {
  provider: ProviderImpl;
  /** The shared clock, epoch ms; move it with `advance`. */
  nowMs(): number;
  advance(seconds: number): void;
  /** Start times a day (or `days`) ahead, Unix seconds. */
  startIn(days?: number): number;
  /** Windows the simulator holds (not cancelled). */
  windows(): { id: number; machine_id: number; start_time: number }[];
  calls(method: string, path: string): Promise<LoggedRequest[]>;
}

export function hostedIds(count: number): number[] {
  return SEED.hostedMachineIds.slice(0, count);
}

export async function startWindowHarness(): Promise<WindowHarness> {
  let clock = Date.now();
  const h = await startHarness({ now: () => clock });
  // The providers judge "in the future" and "has started" by the kit's clock: the same one; the
  // provider's client reads it too, so the service's Date header is judged against it.
  const previousTiming = setTiming({ now: () => clock });
  setClientOptions({ apiKey: h.sim.apiKey, apiUrl: h.sim.url, runUrl: h.sim.runUrl, pacing: false, ...FAST_RETRY, now: () => clock });
  return {
    ...h,
    close: async () => {
      setTiming(previousTiming);
      await h.close();
    },
    provider: maintenanceWindowProvider,
    nowMs: () => clock,
    advance: (seconds) => {
      clock += seconds * 1000;
    },
    startIn: (days = 1) => Math.floor(clock / 1000) + days * DAY,
    windows: () => h.sim.state().maintenances as never,
    calls: async (method, path) => (await h.requests()).filter((r) => r.method === method && r.path.replace(/\/$/, "") === path),
  };
}

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  const outcome = await promise.then(
    () => undefined,
    (e: unknown) => e as Error & Record<string, unknown>,
  );
  if (!outcome) throw new Error("expected the call to fail, but it succeeded");
  return outcome;
}
