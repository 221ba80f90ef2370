/**
 * The test rig of the reliability suite: a simulator on 127.0.0.1, its control API, and the
 * process-wide provider settings pointed at it, as the plugin process would hold them.
 */
import type { ClientOptions } from "../../../provider/client";
import { resetRuntime, setClientOptions, setProviderSettings } from "../../../provider/context";
import { resetClaims } from "../../../provider/resources/kit/claims";
import { startSimulator, type FaultSpec, type LoggedRequest, type Simulator, type SimulatorOptions, type StateView } from "pulumi-vastai/simulator";
import { simControl } from "../../support/control";
import type { Profile } from "./profile";

export type { FaultSpec, LoggedRequest, StateView };

export interface Rig {
  sim: Simulator;
  profile: Profile;
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  fault(spec: Partial<FaultSpec> & { path: string }): Promise<void>;
  pendingFaults(): Promise<FaultSpec[]>;
  requests(): Promise<LoggedRequest[]>;
  /** The live objects, as `GET /_sim/state` reports them. */
  liveState(): Promise<StateView>;
  clearRequests(): Promise<void>;
  /** Back to the seed state; faults, request log and rate-limit history cleared. */
  reset(): Promise<void>;
  /**
   * A new client for the providers, as a new plugin process would have: no shared reads,
   * no cached listing. `extra` overrides the profile's client settings.
   */
  freshClient(extra?: Partial<ClientOptions>): void;
  /** Provider settings (`vastai:<name>`) that win over the profile's, kept by `freshClient`. */
  settings(values: Record<string, string | number | undefined>): void;
  close(): Promise<void>;
}


export async function startRig(profile: Profile, simOptions: SimulatorOptions = {}): Promise<Rig> {
  // The secret scan must see every value sent, where it was sent, unredacted.
  const sim = await startSimulator({ port: 0, bootMs: 0, logSecrets: true, ...simOptions });
  const control = <T>(method: string, path: string, body?: unknown): Promise<T> => simControl<T>(sim.url, method, path, body);
  const clientSettings = (extra: Partial<ClientOptions> = {}): Partial<ClientOptions> => ({
    apiKey: sim.apiKey,
    apiUrl: sim.url,
    runUrl: sim.runUrl,
    timeoutMs: profile.clientTimeoutMs,
    maxAttempts: profile.maxAttempts,
    backoff: profile.backoff,
    pacing: false,
    ...extra,
  });
  // The profile's polling, plus what a test sets; a fresh client keeps them.
  let settings: Record<string, string | number | undefined> = {
    pollIntervalMs: profile.pollIntervalMs,
    lostResponseLookups: profile.lostResponseLookups,
  };
  const rig: Rig = {
    sim,
    profile,
    control,
    fault: async (spec) => {
      await control("POST", "/faults", spec);
    },
    pendingFaults: async () => (await control<{ faults: FaultSpec[] }>("GET", "/faults")).faults,
    requests: () => control<LoggedRequest[]>("GET", "/requests"),
    liveState: () => control<StateView>("GET", "/state"),
    clearRequests: async () => {
      await control("DELETE", "/requests");
    },
    reset: async () => {
      await control("POST", "/reset");
      // The reset service holds no rental: the offers this process claimed are free again.
      resetClaims();
    },
    freshClient: (extra) => {
      resetRuntime();
      setClientOptions(clientSettings(extra));
      setProviderSettings(settings);
    },
    settings: (values) => {
      settings = { ...settings, ...values };
      setProviderSettings(values);
    },
    close: async () => {
      resetRuntime();
      await sim.close();
    },
  };
  rig.freshClient();
  return rig;
}
