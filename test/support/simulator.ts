/**
 * The one simulator set-up of the test files: `useSimulator()` registers the jest hooks that
 * start a simulator on 127.0.0.1 before the file's (or describe block's) tests, reset it to
 * its seed before each test, and stop it afterwards, and returns a handle to it. The handle
 * is usable inside tests and hooks (the simulator starts in `beforeAll`).
 */
import type { Simulator, SimulatorOptions } from "pulumi-vastai/simulator";
import type { ClientOptions } from "../../provider/client";
import { resetRuntime, setClientOptions, setProviderSettings } from "../../provider/context";
import { FAST_RETRY, startHarness, type Harness } from "../integration/client-support";
import { simControl } from "./control";

/** What any harness offers: its simulator and a way to stop it. */
export interface Started {
  sim: Simulator;
  close(): Promise<void>;
}

export type ProviderSettings = Record<string, string | number | undefined>;

export interface UseSimulatorOptions {
  /** Simulator options; the port is chosen by the system and boots are instant unless set here. */
  simulator?: SimulatorOptions;
  /**
   * Point the providers of this process at the simulator (its default key, no pacing, retries
   * of a few ms), with a new client before each test as a new plugin process would have.
   * Client options given here are added (e.g. `{ pacing: {} }`). The process-wide settings
   * are forgotten after the tests. Default false.
   */
  providers?: boolean | Partial<ClientOptions>;
  /** Provider settings for these tests (with `providers`), e.g. `{ pollIntervalMs: 5 }`. */
  settings?: ProviderSettings;
  /** Reset the simulator to its seed state before each test. Default true. */
  reset?: boolean;
}

/** Fast polls and two lost-response lookups: no Instance test waits seconds. */
export const FAST_INSTANCE_SETTINGS: ProviderSettings = { pollIntervalMs: 5, lostResponseLookups: 2 };

/** Points the providers and lookups of this process at `h`'s simulator with `apiKey`. */
export function pointProviders(h: Started, apiKey: string = h.sim.apiKey, settings: ProviderSettings = {}, client: Partial<ClientOptions> = {}): void {
  setClientOptions({ apiKey, apiUrl: h.sim.url, runUrl: h.sim.runUrl, pacing: false, ...FAST_RETRY, ...client });
  setProviderSettings(settings);
}

export function useSimulator(options?: UseSimulatorOptions): Harness;
export function useSimulator<T extends Started>(options: UseSimulatorOptions & { start: (simulator: SimulatorOptions) => Promise<T> }): T;
export function useSimulator<T extends Started>(
  options: UseSimulatorOptions & { start?: (simulator: SimulatorOptions) => Promise<T> } = {},
): T {
  const start = options.start ?? ((sim: SimulatorOptions) => startHarness(sim) as unknown as Promise<T>);
  const point = (h: T) => {
    const { providers } = options;
    if (providers) pointProviders(h, h.sim.apiKey, options.settings, providers === true ? {} : providers);
  };
  let current: T | undefined;
  beforeAll(async () => {
    current = await start(options.simulator ?? {});
    point(current);
  });
  afterAll(async () => {
    resetRuntime();
    await current?.close();
    current = undefined;
  });
  beforeEach(async () => {
    const h = started();
    if (options.reset ?? true) await simControl(h.sim.url, "POST", "/reset");
    point(h);
  });
  const started = (): T => {
    if (!current) throw new Error("the simulator is not running: use the handle of useSimulator() inside tests and hooks");
    return current;
  };
  return new Proxy({} as T, {
    get: (_, key) => {
      const h = started();
      const value = (h as Record<PropertyKey, unknown>)[key];
      return typeof value === "function" ? value.bind(h) : value;
    },
  });
}

