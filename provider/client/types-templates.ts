/** Public (camelCase) types of templates, instances and offers. Wire forms: schemas.ts. */

/** Template fields the service stores, in both directions (read and write). */
interface TemplateFields {
  /** Image tag, default `latest`. */
  tag?: string;
  desc?: string;
  readme?: string;
  /** Shell commands run when the instance starts. */
  onstart?: string;
  /** Replaces the image CMD when runtype is `args`. */
  argsStr?: string;
  sshDirect?: boolean;
  useSsh?: boolean;
  jupDirect?: boolean;
  jupyterDir?: string | null;
  useJupyterLab?: boolean;
  /** Private registry URL; not sent when not given. */
  dockerLoginRepo?: string;
  /** Registry user; not sent when not given. */
  dockerLoginUser?: string;
  href?: string;
  repo?: string;
  /** Default machine-search filters `{field: {op: value}}`. */
  extraFilters?: Record<string, unknown>;
  /** GB, default 8. */
  recommendedDiskSpace?: number;
  private?: boolean;
  /** A hint for user interfaces only; no effect on instance creation. */
  volumeInfo?: Record<string, unknown> | null;
}

/** A reusable instance-creation preset, as the service reports it. */
export interface Template extends TemplateFields {
  /** Numeric id; used to delete the template. */
  id?: number;
  /** Content hash; used to create instances and to edit. Changes on every edit. */
  hashId: string;
  name?: string;
  image?: string;
  /** Environment variables read from the template's docker-flag string; undefined when it has none or cannot be read. */
  env?: Record<string, string>;
  /** Port mappings read from the flag string (`HOST:CONTAINER`); undefined as for `env`. */
  ports?: string[];
  /** The docker-flag string as the service holds it: `-e VAR=value -p 8080:8080`. */
  envFlags?: string;
  runtype?: string;
  creatorId?: number;
  /** UTC epoch seconds. */
  createdAt?: number;
  countCreated?: number;
}

/** Fields of a template to create or change. */
export interface TemplateInput extends TemplateFields {
  name: string;
  /** Container image path. */
  image: string;
  /**
   * Environment variables, name to value. With `ports` they are sent as the service's
   * docker-flag string `-e VAR=value -p 8080:8080` (names sorted, values quoted as needed).
   */
  env?: Record<string, string>;
  /** Port mappings `HOST:CONTAINER` (optionally `/tcp` or `/udp`), sent in the flag string. */
  ports?: string[];
  /** `ssh`, `jupyter` or `args`; default `args`. */
  /** `ssh`, `jupyter`, `args`, or the vendor's space-separated form (`"ssh_direc ssh_proxy"`, wire/runtype.ts). */
  runtype?: "ssh" | "jupyter" | "args" | (string & {});
  /** Registry access token (secret); not sent when not given. The service never returns it. */
  dockerLoginPass?: string;
}

/** The service's answer to creating a template: its id and hash id. */
export interface TemplateCreateResult {
  template: Template;
  /** True when the service already had a template with this content and returned it
   * ("Existing Template Found"): adopt it rather than fail. */
  existing: boolean;
}

/** An instance as the API reports it. Status fields are null while provisioning. */
export interface Instance {
  id: number;
  /** `running`, `exited`, `unknown`, `offline`, `loading`, `created`, `stopped`, ... or null. */
  actualStatus: string | null;
  /** What the user asked for: `running`, `stopped`, `frozen`. */
  intendedStatus: string | null;
  curState?: string | null;
  nextState?: string | null;
  statusMsg?: string | null;
  label?: string | null;
  imageUuid?: string | null;
  templateHashId?: string | null;
  machineId?: number | null;
  numGpus?: number | null;
  gpuName?: string | null;
  /** MB, as the API reports it. */
  gpuRamMb?: number | null;
  /** GB per GPU (the API's MB / 1000, one decimal). */
  gpuRamGb?: number | null;
  /** $/hour. */
  dphTotal?: number | null;
  /** GB. */
  diskSpace?: number | null;
  sshHost?: string | null;
  sshPort?: number | null;
  publicIpaddr?: string | null;
  ports?: Record<string, unknown> | null;
  /** Environment as `[name, value]` pairs. */
  extraEnv?: Array<[string, string]>;
  onstart?: string | null;
  /** Epoch seconds. */
  startDate?: number | null;
  /** Rented as interruptible (a bid); false for on-demand. Null when the service did not say. */
  isBid?: boolean | null;
  /** The lowest winning bid of the machine now, $/hour (the service's `min_bid`). */
  minBid?: number | null;
  /** $ per GB per month of the instance's disk (the service's `storage_cost`). */
  storageCostPerGbMonth?: number | null;
  /** $/hour of the instance's disk (the service's `storage_total_cost`), billed in every state until it is destroyed. */
  storageTotalCostPerHour?: number | null;
  /** The record as the API sent it (snake_case), for fields not modelled here. */
  raw: Record<string, unknown>;
}

/** One page of the instance list. */
export interface InstancePage {
  instances: Instance[];
  /** Token for the next page, null on the last page. */
  nextToken: string | null;
  totalInstances?: number;
}

/** Attach or create a volume at instance creation. */
export interface VolumeInfo {
  /** False links an existing volume; true creates one. */
  createNew: boolean;
  /** Existing volume id (createNew false) or volume offer id (createNew true). */
  volumeId: number;
  /** GB; only when createNew is true. */
  size?: number;
  /** Path inside the container. */
  mountPath: string;
}

/** Body of instance creation. A template is named by `templateHashId` (not its numeric id). */
export interface CreateInstanceInput {
  templateHashId?: string;
  /** Overrides the template image. */
  image?: string;
  /** Environment variables, name to value; merged with the template env (these win). */
  env?: Record<string, string>;
  /** Port mappings `HOST:CONTAINER` (or a lone port), sent beside `env` as `-p` flags. */
  ports?: string[];
  /**
   * The start script. One that does not fit the service's 4048 characters is sent compressed
   * and encoded (wire/onstart); one that does not fit even so is refused before sending.
   */
  onstart?: string;
  volumeInfo?: VolumeInfo;
  /** At most 1024 characters. */
  label?: string;
  /** GB. */
  disk?: number;
  /** `ssh`, `jupyter`, `args`, or the vendor's space-separated form (`"ssh_direc ssh_proxy"`, wire/runtype.ts). */
  runtype?: "ssh" | "jupyter" | "args" | (string & {});
  argsStr?: string;
  targetState?: "running" | "stopped";
  cancelUnavail?: boolean;
  vm?: boolean;
  /** Registry credentials string (secret). */
  imageLogin?: string;
  /** Bid price, $/hour. */
  price?: number;
}

/** The service's answer to renting an instance: the new contract's id. */
export interface CreateInstanceResult {
  /** The new instance id (the API's `new_contract`). */
  id: number;
  /** False means the instance was created but starts stopped. */
  success: boolean;
  /** The instance's own API key, when returned (secret). */
  instanceApiKey?: string;
}

/** The service's answer to a delete. */
export interface DeleteResult {
  /** True when the object was already gone (the call is then a no-op). */
  alreadyGone: boolean;
}

/** Result of a start/stop request. */
export interface StateChangeResult {
  /** False when the service queued the change (for example `resources_unavailable`). */
  applied: boolean;
  code?: string;
  message?: string;
}

/** A machine offer from the marketplace. */
export interface Offer {
  id: number;
  machineId?: number;
  gpuName?: string;
  numGpus?: number;
  /** MB per GPU. */
  gpuRamMb?: number;
  /** $/hour. */
  dphTotal?: number;
  reliability?: number;
  verification?: string;
  geolocation?: string;
  /** GB. */
  diskSpace?: number;
  cudaMaxGood?: number;
  /** The lowest bid that wins the machine now, $/hour (interruptible rentals). */
  minBid?: number;
  rentable?: boolean;
  rented?: boolean;
  raw: Record<string, unknown>;
}

/** Answer to a prepayment: the months it covers and the discount it earned. */
export interface PrepayResult {
  /** Months of use the prepayment covers. */
  timescale?: number;
  /** Discount rate, 0 to 0.4. */
  discountRate?: number;
}

/** The prepaid balance of one instance (`GET /api/v0/instances/balance/{id}/`). */
export interface InstanceBalance {
  /** $ prepaid and not used yet. */
  refundableDeposit: number;
  /** $ of discount earned so far. */
  totalDiscount?: number;
  discountMonths?: number;
}

/**
 * Whether a new template is private when the caller does not say: the vendor's client creates
 * private templates, and a template's env may hold tokens. The client sends `private` only when
 * given, because a caller that compares the service's record with its inputs (the Template
 * resource) must apply the same default on its side.
 */
export const DEFAULT_TEMPLATE_PRIVATE = true;
