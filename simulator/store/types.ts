import type { ServerlessData } from "./serverless-types";

/**
 * The mutable state of the simulator: plain JSON so it can be persisted as-is. Static
 * catalogue data (offers, machines, deployments, logs) comes from the seed and is not stored.
 * Times are epoch milliseconds of the simulator clock.
 */

export interface UserRecord {
  id: number;
  email: string;
  username: string;
  /** May use the subaccount key API (403 otherwise). */
  approvedForSubaccounts: boolean;
  /** Owner account when this is a subaccount. */
  parentId: number | null;
}

/** Flags a scoped key carries; `null` on a key means full access. */
/** As sent: `{api: {<scope>: {...}}}`. */
export type Permissions = Record<string, unknown>;

export interface ApiKeyRecord {
  id: number;
  userId: number;
  name: string;
  key: string;
  permissions: Permissions | null;
  /** The account's main key: cannot be deleted. Subaccount keys are primary for the subaccount. */
  primary: boolean;
  createdAt: number;
  deletedAt: number | null;
}

export interface SshKeyRecord {
  id: number;
  userId: number;
  publicKey: string;
  createdAt: number;
  /** Set when deleted: the service keeps the row (soft delete) and lists it with `deleted_at`. */
  deletedAt?: number | null;
}

export interface SecretRecord {
  userId: number;
  name: string;
  value: string;
}

export interface TemplateRecord {
  id: number;
  hashId: string;
  creatorId: number;
  createdAt: number;
  countCreated: number;
  recentCreateDate: number | null;
  recommended: boolean;
  /** The template fields as the API names them (name, image, tag, env, ...). */
  fields: Record<string, unknown>;
}

export interface InstanceRecord {
  id: number;
  userId: number;
  offerId: number;
  machineId: number;
  createdAt: number;
  /** Start of the current boot; status runs null -> loading -> final over `bootMs`. */
  bootStartedAt: number;
  /** Status reached at the end of the boot (`running` unless the control API said otherwise). */
  finalStatus: string;
  /** The service's status_msg once the boot ends in `finalStatus` (a next-boot's message, e.g. "OCI runtime create failed"). */
  finalStatusMsg?: string;
  /** Set by `POST /_sim/instances/{id}/status`; wins over everything. */
  statusOverride: { value: string | null } | null;
  intendedStatus: string;
  /** A start that waits for the offer to come back (resources_unavailable). */
  startQueued: boolean;
  label: string | null;
  imageUuid: string;
  templateHashId: string | null;
  templateId: number | null;
  env: [string, string][];
  onstart: string | null;
  runtype: string;
  argsStr: string | null;
  diskSpace: number;
  vm: boolean;
  sshPort: number;
  sshKeyIds: number[];
  extraFilters: Record<string, unknown>;
  volumeInfo: Record<string, unknown> | null;
  /** The volume the instance uses: linked, or made with it (`volume_info.create_new`). */
  volumeId?: number;
  bidPrice: number | null;
  /** On-demand $/hour the service charges, fixed when rented: the offer's price then, with the instance's own disk. */
  dphTotal?: number;
  /** Stopped by the service because a higher bid took the machine (`POST /_sim/machines/{id}/market`). */
  outbid?: boolean;
  /** $ prepaid and not used (`PUT /api/v0/instances/prepay/{id}/`). */
  prepaid?: number;
  /** Reboots and recycles asked for, so tests can see them. */
  reboots?: number;
  recycles?: number;
  /** In-place updates (`PUT /api/v0/instances/update_template/{id}/`) done, so tests can see them. */
  templateUpdates?: number;
  /**
   * The instance's own key (`instance_api_key` in the create answer, `CONTAINER_API_KEY` in the
   * container): accepted only to read, start, stop or destroy this instance (http/auth.ts).
   */
  apiKey?: string;
  /** GPU utilization in percent the instance reports while running (`gpu_util`), set by `POST /_sim/instances/{id}/gpu`; 0 when never set. */
  gpuUtil?: number;
}

export interface MaintenanceRecord {
  id: number;
  machineId: number;
  userId: number;
  startTime: number;
  durationHours: number;
  category: string;
  reason: string;
  createdAt: number;
  cancelledAt: number | null;
}

/** A notification webhook; the secret signs its deliveries and is shown at create and rotation only. */
export interface WebhookRecord {
  id: number;
  userId: number;
  name: string | null;
  url: string;
  eventTypes: string[];
  secret: string;
  createdAt: number;
  updatedAt: number;
}

/**
 * A scheduled API call (`/api/v0/commands/schedule_job/`): the service makes `requestMethod
 * apiEndpoint` with `requestBody` for the owner at each occurrence between start and end.
 * Times in Unix seconds; day 0 = Sunday; all in UTC.
 */
export interface ScheduledJobRecord {
  id: number;
  userId: number;
  instanceId: number;
  apiEndpoint: string;
  requestMethod: "GET" | "POST" | "PUT" | "DELETE";
  requestBody: Record<string, unknown>;
  frequency: "HOURLY" | "DAILY" | "WEEKLY";
  dayOfTheWeek: number | null;
  hourOfTheDay: number | null;
  minOfTheHour: number;
  startTime: number;
  endTime: number;
  createdAt: number;
  /** When it last ran (Unix seconds of the occurrence) and the HTTP status its call got. */
  lastRunAt: number | null;
  lastStatus: number | null;
  runs: number;
}

/** A destroyed instance, kept for the billing history (its charge). Times in Unix seconds. */
export interface EndedContractRecord {
  userId: number;
  instanceId: number;
  offerId: number;
  label: string | null;
  templateId: number | null;
  diskGb: number;
  start: number;
  end: number;
}

/** A deleted volume, kept for the billing history (its charge). Times in Unix seconds. */
export interface EndedVolumeRecord {
  userId: number;
  volumeId: number;
  offerId: number;
  sizeGb: number;
  start: number;
  end: number;
}

export type OfferState = "available" | "unavailable" | "gone";

/** A host's listing of one machine (`PUT create_asks`), wire names; defjob is its default job. */
export interface MachineListingRecord {
  listed: boolean;
  listed_gpu_cost: number;
  listed_storage_cost: number;
  listed_inet_up_cost: number;
  listed_inet_down_cost: number;
  min_bid_price: number;
  min_chunk: number;
  end_date: number | null;
  credit_discount_max: number;
  defjob: { price_gpu: number; price_inetu: number; price_inetd: number; image: string; args: string[] } | null;
}

export interface SimData {
  users: UserRecord[];
  apiKeys: ApiKeyRecord[];
  sshKeys: SshKeyRecord[];
  secrets: SecretRecord[];
  templates: TemplateRecord[];
  instances: InstanceRecord[];
  maintenances: MaintenanceRecord[];
  /** Offers whose state the control API changed; the rest are available. */
  offerStates: Record<string, OfferState>;
  /** The next `remaining` created instances end their boot in `actualStatus`. */
  nextBoot: { actualStatus: string; remaining: number; statusMsg?: string } | null;
  /** The going bid price per machine id, $/hour (`POST /_sim/machines/{id}/market`): bids below it are outbid. */
  marketPrices?: Record<string, number>;
  /** Offer prices the control API changed (`POST /_sim/offers/{id}` with `dph_total`), $/hour at the default disk. */
  offerPrices?: Record<string, number>;
  /**
   * Published ports per machine id (`POST /_sim/machines/{id}/ports`): `"8000/tcp"` -> a port on
   * 127.0.0.1 a test listens on; instances on the machine show them at `public_ipaddr` 127.0.0.1.
   */
  machinePorts?: Record<string, Record<string, number>>;
  /** The next `n` creates with a `price` rent on-demand anyway (the trap of a bid the service did not take). */
  ignoreBids?: number;
  /** Listing terms per hosted machine id (absent: never listed through the API). */
  machineListings?: Record<string, MachineListingRecord>;
  /** Machines whose in-place updates are refused, with the reason (`POST /_sim/machines/{id}/refuse-updates`). */
  refuseUpdates?: Record<string, string>;
  volumes: import("./volume-types").VolumeData;
  /** Serverless endpoints and worker groups (serverless-types.ts). */
  serverless: ServerlessData;
  nextIds: { apiKey: number; sshKey: number; template: number; instance: number; maintenance: number; webhook: number };
  /** Notification webhooks (state files written before they existed have none). */
  webhooks: WebhookRecord[];
  /** Physical clusters and overlay networks (state files written before they existed have none). */
  networks: import("./network-types").NetworkData;
  /** Scheduled API calls and the next id (state files written before they existed have none). */
  scheduledJobs?: { nextId: number; jobs: ScheduledJobRecord[] };
  /** Destroyed instances, for the charges (state files written before they existed have none). */
  endedContracts: EndedContractRecord[];
  /** Deleted volumes, for the charges (state files written before they existed have none). */
  endedVolumes: EndedVolumeRecord[];
  /** Teams, their roles, invitations and members, and the audit log (team-types.ts). */
  teams: import("./team-types").TeamData;
}
