/**
 * pulumi-vastai: declarative GPU infrastructure on the Vast.ai marketplace.
 *
 * The package root holds what a Pulumi program needs: the resources, the lookups, the
 * configuration, the errors, and the factory of the typed API client with its options. The
 * rest of the client (its API areas, entity types, endpoint table and wire helpers) lives in
 * `pulumi-vastai/client`. Every name exported here is a promise to users; the list is pinned
 * by test/unit/public-surface.test.ts.
 *
 * @packageDocumentation
 */
export { providers } from "./providers";
export { setClientOptions, setProviderSettings } from "./context";
export { Template, type TemplateArgs, type FilterCondition } from "./resources/template";
export { Instance, type InstanceArgs, type InstanceOfferFilters, type InstanceVolume, type InstanceReadiness, type InstanceSchedule, type InstanceAutostop, type InstanceOutputs } from "./resources/instance";
export { SshKey, type SshKeyArgs } from "./resources/sshKey";
export { MachineListing, type MachineListingArgs, type MachineDefaultJobArgs } from "./resources/machineListing";
export { VolumeListing, type VolumeListingArgs } from "./resources/volumeListing";
export { NetworkVolumeListing, type NetworkVolumeListingArgs } from "./resources/networkVolumeListing";
export { MaintenanceWindow, type MaintenanceWindowArgs, type MaintenanceMachineResult, type MaintenanceCategory, type MaintenanceWindowStatus } from "./resources/maintenanceWindow";
export { EnvVar, type EnvVarArgs, ENV_VAR_LIMIT } from "./resources/envVar";
export { ApiKey, type ApiKeyArgs, type ApiKeyPermissions } from "./resources/apiKey";
export { Webhook, type WebhookArgs } from "./resources/webhook";
export { ScheduledJob, type ScheduledJobArgs } from "./resources/scheduledJob";
export { SubaccountKeyRotation, type SubaccountKeyRotationArgs, type RegeneratedKeyOutput } from "./resources/subaccountKeyRotation";
export { RsyncCopy, type RsyncCopyArgs } from "./resources/rsyncCopy";
export { Volume, type VolumeArgs, type VolumeOfferFilters as VolumeOfferFilterInputs } from "./resources/volume";
export { NetworkVolume, type NetworkVolumeArgs, type NetworkVolumeOfferFilters } from "./resources/networkVolume";
export { Endpoint, type EndpointArgs } from "./resources/endpoint";
export { WorkerGroup, type WorkerGroupArgs } from "./resources/workerGroup";
export { Fleet, type FleetArgs, type FleetSpread, type FleetMember, type FleetVolume } from "./resources/fleet";
export { Cluster, type ClusterArgs } from "./resources/cluster";
export { ClusterMember, type ClusterMemberArgs } from "./resources/clusterMember";
export { Overlay, type OverlayArgs } from "./resources/overlay";
export { OverlayMember, type OverlayMemberArgs } from "./resources/overlayMember";
export { Team, type TeamArgs } from "./resources/team";
export { TeamRole, type TeamRoleArgs } from "./resources/teamRole";
export { TeamMember, type TeamMemberArgs, type TeamMemberStatus } from "./resources/teamMember";
export { Subaccount, type SubaccountArgs } from "./resources/subaccount";
export * from "./lookups";
export {
  createClient,
  VastClient,
  DEFAULT_API_URL,
  type ClientOptions,
  type Logger,
  type RequestSpec,
  type QueryValue,
  type RetryPolicy,
  type PacingOptions,
  type Transport,
  type Exchange,
  type ExchangeResult,
  type WriteKind,
  type WriteListener,
  type BackoffOptions,
} from "./client";
export {
  VastError,
  VastApiError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  GoneError,
  RateLimitError,
  ServerError,
  VastOperationError,
  VastErrorTextError,
  VastValidationError,
  VastConnectionError,
  VastTimeoutError,
  ResponseSchemaError,
  DeleteNotConfirmedError,
  ResponseLostError,
  ResponseTooLargeError,
  PagingLoopError,
  VolumeInUseError,
  VolumeListingActiveError,
  type CallSite,
  type ApiErrorDetails,
  type RetryableFailure,
} from "./client";
export { resolveConfig, MissingApiKeyError, InvalidApiKeyError, keyFilePath, type ResolvedConfig, type ConfigSources } from "./config";
