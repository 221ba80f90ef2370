/**
 * What the benchmark takes from the package. It imports the package by name, so once compiled
 * it runs the built package (dist/) exactly as a program that installed it would.
 */
export { DEFAULT_INTERVALS_MS, DEFAULT_RETRY_POLICY } from "pulumi-vastai/client";
export {
  createClient,
  providers,
  setClientOptions,
  type ClientOptions,
  type VastClient,
} from "pulumi-vastai";
export {
  REALISTIC_RATE_LIMITS,
  dynamicUrn,
  startProviderPlugin,
  startSimulator,
  type LoggedRequest,
  type RateLimitTable,
} from "pulumi-vastai/simulator";
