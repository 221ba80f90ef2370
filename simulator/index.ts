/**
 * `pulumi-vastai/simulator`: a local simulator of the GPU cloud API on 127.0.0.1, for
 * offline use, tests and demos. See simulator/README.md for the routes and control API.
 */
export { startSimulator, type Simulator } from "./start";
export type { SimulatorOptions } from "./options";
export { SEED, DEFAULT_API_KEY, type SimulatorSeed } from "./seed/seed";
export type { OfferSeed } from "./seed/offers";
export {
  REALISTIC_RATE_LIMITS,
  routeKey,
  type RateLimitSetting,
  type RateLimitTable,
} from "./http/rate-limit";
export type { FaultSpec } from "./http/faults";
export type { LoggedRequest } from "./http/logged-request";
export type { StateView } from "./state-view";
// The plugin driver lives in `pulumi-vastai/testing`; kept here for existing imports.
export { startProviderPlugin, dynamicUrn, PluginCallError, UNKNOWN_VALUE, type ProviderPlugin, type PluginOptions } from "../testing/plugin";
