/**
 * Shared set-up of the client integration tests: a simulator on 127.0.0.1 (port 0), a client
 * pointed at it, and the simulator's control API.
 */
import { ClientOptions, VastClient, createClient } from "../../provider/client";
import { startSimulator, type Simulator, type SimulatorOptions } from "pulumi-vastai/simulator";
import { simControl } from "../support/control";

export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, unknown>;
  dropped?: "before" | "after";
}

export interface Harness {
  sim: Simulator;
  client: VastClient;
  /** A client with other options against the same simulator. */
  clientWith(options: Partial<ClientOptions>): VastClient;
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  fault(spec: Record<string, unknown>): Promise<void>;
  requests(): Promise<LoggedRequest[]>;
  clearRequests(): Promise<void>;
  close(): Promise<void>;
}

/** Retries in tests wait 1-5 ms, not seconds. */
export const FAST_RETRY: Partial<ClientOptions> = { backoff: { baseMs: 2, capMs: 5 } };

export async function startHarness(simOptions: SimulatorOptions = {}, clientOptions: Partial<ClientOptions> = {}): Promise<Harness> {
  // These tests check what the client sends, secret fields included.
  const sim = await startSimulator({ port: 0, bootMs: 0, logSecrets: true, ...simOptions });
  const clientWith = (options: Partial<ClientOptions>) =>
    createClient({ apiKey: sim.apiKey, apiUrl: sim.url, runUrl: sim.runUrl, pacing: false, ...FAST_RETRY, ...clientOptions, ...options });
  const control = (method: string, path: string, body?: unknown) => simControl(sim.url, method, path, body);
  return {
    sim,
    client: clientWith({}),
    clientWith,
    control,
    fault: async (spec) => {
      await control("POST", "/faults", spec);
    },
    requests: async () => (await control("GET", "/requests")) as LoggedRequest[],
    clearRequests: async () => {
      await control("DELETE", "/requests");
    },
    close: () => sim.close(),
  };
}
