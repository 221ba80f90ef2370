/** Public (camelCase) types of account, hosting and serverless calls. Wire forms: schemas-*.ts. */

export interface SshKey {
  id: number;
  /** The public key text. */
  publicKey: string;
  userId?: number;
  createdAt?: string | number | null;
  /** When the key was soft-deleted; lists leave such keys out, so this is null there. */
  deletedAt?: string | number | null;
}

/** Secret names mapped to a masked value (asterisks) or null when empty. Values never come back. */
export type SecretList = Record<string, string | null>;

/** The service's rule for an account environment variable name (upper-cased by the service). */
export const SECRET_KEY_PATTERN = /^[a-zA-Z_]\w*$/;
/** The service's rule for a value: letters, digits, `_`, `-` and `.`, at least one. */
export const SECRET_VALUE_PATTERN = /^[a-zA-Z0-9_\-.]+$/;

/**
 * Why a value breaks SECRET_VALUE_PATTERN, naming the rule but nothing of the value (it is a
 * secret: not even which characters it holds); undefined when it is valid.
 */
export function secretValueProblem(value: string): string | undefined {
  if (SECRET_VALUE_PATTERN.test(value)) return undefined;
  if (value === "") return "must not be empty (the service requires at least one character)";
  const bad = value.replace(/[a-zA-Z0-9_\-.]/g, "").length;
  return `may hold only letters, digits, "_", "-" and "." (${bad} other character${bad === 1 ? "" : "s"}; encode the value, for example as base64url, if it needs them)`;
}

/**
 * The service's permission scopes of an API key. A permission object names the scopes it
 * grants, for example `{api: {instance_read: {}, user_read: {}}}` as the vendor's permission
 * files do.
 */
export const API_KEY_SCOPES = [
  "instance_read",
  "instance_write",
  "user_read",
  "user_write",
  "billing_read",
  "billing_write",
  "machine_read",
  "machine_write",
  // Team routes (/team/, /team/members/, /team/roles/, /team/invite/) and the agent routes
  // (/legion/...) of the vendor's route table (scripts/data/api_scopes.json).
  "team_read",
  "team_write",
  "agents_read",
  "agents_write",
  "misc",
] as const;
/** One scope of an API key's permissions. */
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** The service's scopes a permission object names, sorted; null when it names none. */
export function scopesOfPermissions(permissions: ApiKeyPermissions | null | undefined): ApiKeyScope[] | null {
  const api = permissions?.api;
  if (!api || typeof api !== "object") return null;
  const scopes = Object.keys(api).filter((s): s is ApiKeyScope => (API_KEY_SCOPES as readonly string[]).includes(s));
  return scopes.length > 0 ? scopes.sort() : null;
}

/** The permission object granting `scopes`, each without constraints. */
export function permissionsOfScopes(scopes: readonly ApiKeyScope[]): ApiKeyPermissions {
  return { api: Object.fromEntries([...scopes].sort().map((s) => [s, {}])) };
}

/** The permissions of an API key, by scope. */
export interface ApiKeyPermissions {
  /** Scopes granted, each with its constraints (an empty object: no constraint). */
  api?: Partial<Record<ApiKeyScope, Record<string, unknown>>>;
  [field: string]: unknown;
}

/** An API key of the account, as the service lists it (never its secret value). */
export interface ApiKey {
  id: number;
  name?: string | null;
  permissions?: ApiKeyPermissions | null;
  /** The service's scopes the key has (from `permissions` or `rights`), sorted; null when it lists none (full access). */
  scopes: ApiKeyScope[] | null;
  createdAt?: string | number | null;
  /** The record as sent, without any key value. */
  raw: Record<string, unknown>;
}

/** A new API key with its secret value (given once, at creation). */
export interface CreatedApiKey {
  id: number;
  /** The key value; shown only here (secret). */
  key: string;
  permissions?: ApiKeyPermissions | null;
  scopes: ApiKeyScope[] | null;
}

/** What creating an API key sends: its name and permissions. */
export interface CreateApiKeyInput {
  /** Label for the owner. */
  name: string;
  /**
   * The scopes to grant, for example `["instance_read", "instance_write"]`, sent as the
   * service's permission object `{api: {<scope>: {}}}`. Default (neither this nor
   * `permissions`): full access.
   */
  scopes?: readonly ApiKeyScope[];
  /** The permission object as the service takes it (constraints per scope); `scopes` is the short form. */
  permissions?: ApiKeyPermissions;
}

/** The account the API key belongs to. */
export interface CurrentUser {
  /** User id (for example for autoscaler templates). */
  id: number;
  email?: string;
  username?: string;
  /** Dollars, as the service gives them (`balance`, `credit`). */
  balance?: number;
  credit?: number;
  /** The record as sent, without key fields. */
  raw: Record<string, unknown>;
}

/** Which subaccount keys to regenerate: one subaccount, or all of them (rotates the owner seed). */
export type RegenerateKeysInput = { subaccountUserId: number } | { all: true };

/** A subaccount's new API key, as regenerating it answers. */
export interface RegeneratedKey {
  userId: number;
  /** "" when the service sends none (null or another type). */
  email: string;
  /** The new key value (secret). */
  derivedKey: string;
}

/** A machine you host, as `getMachine` and `getMachines` return it. */
export interface Machine {
  /** Machine id. */
  id: number;
  gpuName?: string;
  numGpus?: number;
  /** MB per GPU. */
  gpuRamMb?: number;
  hostname?: string;
  /** Whether the machine is listed on the market. */
  listed?: boolean;
  /** The listing's terms as the machine record shows them (absent when the record has none). */
  listing?: MachineListingTerms;
  /** The record as sent (GPU, CPU, disk, network, listing fields). */
  raw: Record<string, unknown>;
}

/** The kind of a maintenance window, as the service names it. */
export type MaintenanceCategory = "power" | "internet" | "disk" | "gpu" | "software" | "other";

/** What scheduling maintenance sends: machines, start, duration and category. */
export interface ScheduleMaintenanceInput {
  /** 1 to 100 machine ids. */
  machineIds: number[];
  /** Start: a Date or Unix seconds; in the future and within a year. */
  startTime: Date | number;
  /** Hours; minimum effective 1, default 1. */
  durationHours?: number;
  /** Default `other`. */
  category?: MaintenanceCategory;
}

/** The service's answer to scheduling maintenance: the machines accepted and refused. */
export interface MaintenanceResult {
  success: boolean;
  machineId: number;
  /** On success: how many instance clients were notified. */
  notificationsSent?: number;
  /** On failure, for example `not_found`. */
  error?: string;
  message?: string;
}

/** A scheduled maintenance window, as the service lists it. */
export interface MaintenanceWindow {
  id: number;
  machineId: number;
  /** Unix seconds, or the service's timestamp text. */
  startTime?: number | string | null;
  durationHours?: number | null;
  category?: string | null;
  reason?: string | null;
  createdAt?: number | string | null;
  cancelledAt?: number | string | null;
  endTime?: number | string | null;
}

/** The service's answer to cancelling a maintenance window. */
export interface CancelMaintenanceResult {
  success: boolean;
  maintenanceId: number;
  message?: string;
}

/** What a copy between instances or volumes sends: source, destination and paths. */
export interface RsyncInput {
  /** Source instance id; omit it for a copy from the local machine (the result then has `dstAddr`/`dstPort`). */
  srcId?: string | number;
  /** Destination instance id; omit it for a copy to the local machine (the result then has `srcAddr`/`srcPort`). */
  dstId?: string | number;
  srcPath: string;
  dstPath: string;
}

/** An instance-to-instance copy. Ids are instance ids, or the vendor's `C.<id>` form. */
export interface CopyDirectInput {
  srcId: string | number;
  dstId: string | number;
  srcPath: string;
  dstPath: string;
}

/** The service's answer to a copy request. */
export interface RsyncResult {
  success: boolean;
  /** For local-to-instance copies. */
  dstPort?: number;
  dstAddr?: string;
  /** For instance-to-local copies. */
  srcPort?: number;
  srcAddr?: string;
}

/** What `acceptBundle` sends: the price and terms accepted for a bundle. */
export interface AcceptBundleInput {
  /** $/hour. */
  price: number;
  maxStart: number;
  minDuration: number;
}

/** What a worker group's log request sends: the group and the number of lines. */
export interface WorkerGroupLogsInput {
  workerGroupId: number;
  /** Number of trailing log lines. */
  tail?: number;
}

/** One stored file version of a deployment, as `getDeploymentVersions` returns it. */
export interface DeploymentVersion {
  id: number;
  fileHash: string;
  versionLabel: string;
  /** Bytes. */
  fileSize: number;
  /** Unix seconds. */
  createdAt: number;
  /** Unix seconds. */
  lastUsedAt: number | null;
}

/** What `getAutoscalerTemplates` returns: the autoscaler's templates and the recommended ones. */
export interface AutoscalerTemplates {
  /** The user's autoscaler-enabled templates. */
  autoscaler: Record<string, unknown>[];
  /** Globally recommended autoscaler templates. */
  recommended: Record<string, unknown>[];
}

/** The bucketed earnings series `getEarningsChart` returns. */
export interface EarningsChart {
  success: boolean;
  /** The whole response (fields not documented). */
  raw: Record<string, unknown>;
}

/**
 * The terms of a host's listing of one machine (`PUT /api/v0/machines/create_asks/`). Prices
 * in dollars; a term left out keeps the service's default.
 */
export interface MachineListingTerms {
  /** On-demand price per GPU, $/hour. */
  pricePerGpu?: number;
  /** Storage price, $/GB/month. */
  storagePricePerGbMonth?: number;
  /** Upload bandwidth price, $/GB. */
  uploadPricePerGb?: number;
  /** Download bandwidth price, $/GB. */
  downloadPricePerGb?: number;
  /** Lowest interruptible bid per GPU, $/hour. */
  minBidPerGpu?: number;
  /** Fewest GPUs rented together. */
  minGpus?: number;
  /** When the listing ends, Unix seconds. */
  endDate?: number;
  /** Largest prepay discount offered, a fraction from 0 to 1. */
  discountRate?: number;
  /**
   * Keep the end date this far ahead (`n days`, `n weeks`, `n months`, `n years`, or seconds);
   * not with `endDate`. Sent as `duration` (null when not given).
   */
  duration?: string | number;
  /** Disk offered as a volume contract beside the listing, GB; sent as `vol_size`, 0 (none) when not given. */
  volumeSizeGb?: number;
  /** Its price, $/GB/month (`vol_price`; the service takes `price_disk` when not given); only with `volumeSizeGb` above 0. */
  volumePricePerGbMonth?: number;
}

/** A default job: the host's own background bid on the machine's idle GPUs (`PUT /api/v0/machines/create_bids/`). */
export interface MachineDefaultJob {
  /** Bid per GPU, $/hour. */
  pricePerGpu: number;
  /** Upload bandwidth price, $/GB. */
  uploadPricePerGb: number;
  /** Download bandwidth price, $/GB. */
  downloadPricePerGb: number;
  /** Docker image to run. */
  image: string;
  /** Arguments of the container. */
  args?: string[];
}
