/**
 * pulumi-vastai: declarative GPU infrastructure on the Vast.ai marketplace.
 * Resources, lookups, the provider objects behind them, and the typed API client.
 */
export { providers } from "./providers";
export { setClientOptions, setProviderSettings } from "./context";
export { Template, type TemplateArgs, type FilterCondition } from "./resources/template";
export { Instance, type InstanceArgs, type InstanceOfferFilters, type InstanceVolume, type InstanceReadiness, type InstanceOutputs } from "./resources/instance";
export { SshKey, type SshKeyArgs } from "./resources/sshKey";
export { MaintenanceWindow, type MaintenanceWindowArgs, type MaintenanceMachineResult, type MaintenanceCategory, type MaintenanceWindowStatus } from "./resources/maintenanceWindow";
export { EnvVar, type EnvVarArgs, ENV_VAR_LIMIT } from "./resources/envVar";
export { ApiKey, type ApiKeyArgs, type ApiKeyPermissions } from "./resources/apiKey";
export { Webhook, type WebhookArgs } from "./resources/webhook";
export { SubaccountKeyRotation, type SubaccountKeyRotationArgs, type RegeneratedKeyOutput } from "./resources/subaccountKeyRotation";
export { RsyncCopy, type RsyncCopyArgs } from "./resources/rsyncCopy";
export { Volume, type VolumeArgs, type VolumeOfferFilters as VolumeOfferFilterInputs } from "./resources/volume";
export { NetworkVolume, type NetworkVolumeArgs, type NetworkVolumeOfferFilters } from "./resources/networkVolume";
export { Endpoint, type EndpointArgs } from "./resources/endpoint";
export { WorkerGroup, type WorkerGroupArgs } from "./resources/workerGroup";
export { Fleet, type FleetArgs, type FleetSpread, type FleetMember, type FleetVolume } from "./resources/fleet";
export * from "./lookups";
export * from "./client";
export { resolveConfig, MissingApiKeyError, keyFilePath, type ResolvedConfig } from "./config";
