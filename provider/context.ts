import type * as pulumi from "@pulumi/pulumi";
import { createClient, type ClientOptions, type VastClient } from "./client";
import { parseNumberSetting, resolveConfig, type ResolvedConfig } from "./config";

/**
 * Process-wide settings of the providers. One plugin process serves every dynamic
 * resource of a stack, so the client (and with it the request pacing) is shared here.
 */
type ConfigGetter = (key: string) => string | undefined;

let pulumiConfig: ConfigGetter | undefined;
let overrides: Partial<ClientOptions> = {};
let providerSettings: Record<string, string> = {};
let cached: { fingerprint: string; client: VastClient; config: ResolvedConfig } | undefined;

/** Called by the plugin with the stack configuration (`vastai:apiKey`, `vastai:apiUrl`, ...). */
export async function configureRuntime(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  pulumiConfig = (key) => req.config.get(key);
  // The client stays while the configuration it was made from is the same (getClient compares):
  // the plugin configures once per kind of resource, and a new client would drop the shared
  // readers a refresh or a preview already filled.
}

/**
 * Explicit client settings for this process: credentials, URLs or timing. They win over
 * stack configuration and the environment. Tests and programs that drive `providers`
 * directly use this; `undefined` values are ignored.
 */
export function setClientOptions(options: Partial<ClientOptions>): void {
  overrides = { ...overrides };
  for (const [k, v] of Object.entries(options)) if (v !== undefined) (overrides as Record<string, unknown>)[k] = v;
  cached = undefined;
}

/**
 * Explicit provider settings for this process, by their stack config name without the
 * `vastai:` prefix (`{ pollIntervalMs: 5 }`). They win over stack configuration and the
 * environment; `undefined` removes a value set before. Tests tune timing with this.
 */
export function setProviderSettings(values: Record<string, string | number | undefined>): void {
  providerSettings = { ...providerSettings };
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) delete providerSettings[k];
    else providerSettings[k] = String(v);
  }
}

/** Forgets explicit settings and stack configuration (tests). */
export function resetRuntime(): void {
  overrides = {};
  providerSettings = {};
  sdkConfigValues.clear();
  pulumiConfig = undefined;
  cached = undefined;
}

/** Reads a provider setting: explicit settings, stack config (`vastai:<name>`), the environment. */
export function setting(name: string, envName: string): string | undefined {
  if (Object.hasOwn(providerSettings, name)) return providerSettings[name];
  return pulumiConfig?.(`vastai:${name}`) ?? defaultConfigGetter()(`vastai:${name}`) ?? process.env[envName];
}

// Stack config does not change while a process runs, so each key is read from the SDK once.
const sdkConfigValues = new Map<string, string | undefined>();

function defaultConfigGetter(): ConfigGetter {
  // Inside a Pulumi program (lookups) the stack config is readable through the SDK;
  // in the plugin process configure() has supplied it instead.
  return (key) => {
    if (!sdkConfigValues.has(key)) sdkConfigValues.set(key, readSdkConfig(key));
    return sdkConfigValues.get(key);
  };
}

function readSdkConfig(key: string): string | undefined {
  try {
    const pulumiSdk: typeof import("@pulumi/pulumi") = require("@pulumi/pulumi");
    const [ns, name] = key.split(":");
    return new pulumiSdk.Config(ns).get(name);
  } catch {
    return undefined;
  }
}

/**
 * Throws MissingApiKeyError (the message `up` gives) when no API key is configured. Resolves
 * the configuration only, never calls the API: check runs it so preview fails as `up` would.
 */
export function requireApiKey(): void {
  resolveConfig({ apiKey: overrides.apiKey, apiUrl: overrides.apiUrl, runUrl: overrides.runUrl }, { config: pulumiConfig ?? defaultConfigGetter() });
}

/** The service's base URL the shared client calls (the guard in an instance calls it too). */
export function currentApiUrl(): string {
  getClient();
  return (cached as { config: ResolvedConfig }).config.apiUrl;
}

/** The shared client for the current configuration. */
export function getClient(): VastClient {
  const config = resolveConfig(
    { apiKey: overrides.apiKey, apiUrl: overrides.apiUrl, runUrl: overrides.runUrl },
    { config: pulumiConfig ?? defaultConfigGetter() },
  );
  const limits = {
    rateLimitScale:
      overrides.rateLimitScale ?? parseNumberSetting("rateLimitScale", "VASTAI_RATE_LIMIT_SCALE", setting("rateLimitScale", "VASTAI_RATE_LIMIT_SCALE"), "positive"),
    maxConcurrentRequests:
      overrides.maxConcurrentRequests ??
      parseNumberSetting("maxConcurrentRequests", "VASTAI_MAX_CONCURRENT_REQUESTS", setting("maxConcurrentRequests", "VASTAI_MAX_CONCURRENT_REQUESTS"), "count"),
  };
  const fingerprint = JSON.stringify([config.apiKey, config.apiUrl, config.runUrl, limits.rateLimitScale, limits.maxConcurrentRequests]);
  if (!cached || cached.fingerprint !== fingerprint) {
    cached = { fingerprint, config, client: createClient({ ...overrides, ...config, ...limits }) };
  }
  return cached.client;
}
