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
  "misc",
] as const;
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

export interface ApiKeyPermissions {
  /** Scopes granted, each with its constraints (an empty object: no constraint). */
  api?: Partial<Record<ApiKeyScope, Record<string, unknown>>>;
  [field: string]: unknown;
}

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

export interface CreatedApiKey {
  id: number;
  /** The key value; shown only here (secret). */
  key: string;
  permissions?: ApiKeyPermissions | null;
  scopes: ApiKeyScope[] | null;
}

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

export interface RegeneratedKey {
  userId: number;
  /** "" when the service sends none (null or another type). */
  email: string;
  /** The new key value (secret). */
  derivedKey: string;
}

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
  /** The record as sent (GPU, CPU, disk, network, listing fields). */
  raw: Record<string, unknown>;
}

export type MaintenanceCategory = "power" | "internet" | "disk" | "gpu" | "software" | "other";

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

export interface MaintenanceResult {
  success: boolean;
  machineId: number;
  /** On success: how many instance clients were notified. */
  notificationsSent?: number;
  /** On failure, for example `not_found`. */
  error?: string;
  message?: string;
}

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

export interface CancelMaintenanceResult {
  success: boolean;
  maintenanceId: number;
  message?: string;
}

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

export interface RsyncResult {
  success: boolean;
  /** For local-to-instance copies. */
  dstPort?: number;
  dstAddr?: string;
  /** For instance-to-local copies. */
  srcPort?: number;
  srcAddr?: string;
}

export interface AcceptBundleInput {
  /** $/hour. */
  price: number;
  maxStart: number;
  minDuration: number;
}

export interface WorkerGroupLogsInput {
  workerGroupId: number;
  /** Number of trailing log lines. */
  tail?: number;
}

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

export interface AutoscalerTemplates {
  /** The user's autoscaler-enabled templates. */
  autoscaler: Record<string, unknown>[];
  /** Globally recommended autoscaler templates. */
  recommended: Record<string, unknown>[];
}

export interface EarningsChart {
  success: boolean;
  /** The whole response (fields not documented). */
  raw: Record<string, unknown>;
}
