/**
 * pulumi-vastai: declarative GPU infrastructure on the Vast.ai marketplace.
 * Resources, lookups, the provider objects behind them, and the typed API client.
 */
export { providers } from "./providers";
export { setClientOptions } from "./context";
