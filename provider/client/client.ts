/** `createClient`: the typed client of the GPU cloud API, one object per API area. */
import { ApiKeysApi, SecretsApi, SshKeysApi, SubaccountsApi, UsersApi } from "./areas/account";
import { InstanceActionsApi } from "./areas/instance-actions";
import { InstancesApi } from "./areas/instances";
import { MachinesApi } from "./areas/machines";
import { EndpointGroupsApi, WorkerGroupsApi } from "./areas/serverless";
import { AutoscalerApi, BundlesApi, CopyApi, DeploymentsApi, EarningsApi, ServerlessApi } from "./areas/misc";
import { OffersApi } from "./areas/offers";
import { TemplatesApi } from "./areas/templates";
import { VolumeListingsApi } from "./areas/volume-listings";
import { VolumesApi } from "./areas/volumes";
import { WebhooksApi } from "./areas/webhooks";
import { ClustersApi } from "./areas/clusters";
import { AuditLogsApi, SubaccountListApi, TeamsApi } from "./areas/teams";
import { ScheduledJobsApi } from "./areas/scheduled-jobs";
import { BillingApi } from "./areas/billing";
import type { Logger, RequestSpec } from "./core";
import { DEFAULT_INTERVALS_MS, DEFAULT_INTERVAL_MS } from "./endpoints";
import { VastValidationError } from "./errors";
import { Pacer, PacingOptions } from "./pacing";
import { registerSecret } from "./redact";
import { DEFAULT_RETRY_POLICY } from "./retry";
import { Transport, gotTransport } from "./transport";
import type { BackoffOptions } from "./backoff";
import { AnnouncingCore, type WriteListener } from "./writes";

/** The service's API base URL, used when neither `vastai:apiUrl` nor `VAST_URL` is set. */
export const DEFAULT_API_URL = "https://console.vast.ai";
/** The serverless API base URL, used when neither `vastai:runUrl` nor `VAST_RUN_URL` is set. */
export const DEFAULT_RUN_URL = "https://run.vast.ai";
/** Per request, as the official CLI. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/**
 * Requests in flight at once per process. Pacing already keeps each endpoint at the service's
 * rate; the cap bounds what a large stack has open at once (sockets, and calls whose timeout
 * runs while the service queues them), while still letting a burst keep every lane it uses busy.
 */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 16;
/** The largest answer read; the longest real lists (offers, instances) are a few MB. */
export const DEFAULT_MAX_RESPONSE_MB = 64;

/** Options of `createClient`: the key, the URLs, timeouts, retries, pacing and the injectable clock, logger and transport. */
export interface ClientOptions {
  /** The API key (sent as `Authorization: Bearer`). Resolve it with `resolveConfig` (provider/config). */
  apiKey: string;
  /** Management API base URL, default `https://console.vast.ai`. */
  apiUrl?: string;
  /** Serverless API base URL, default `https://run.vast.ai`. */
  runUrl?: string;
  /** Per-request timeout, ms; default 120000. */
  timeoutMs?: number;
  /** Attempts in all for a retryable failure (429, 502, 503, 504, connection, timeout); default 4. */
  maxAttempts?: number;
  /** Total time budget of one call across its attempts and waits, ms; default 600000. */
  deadlineMs?: number;
  /** Backoff between attempts (full jitter), ms; default base 500, cap 20000. */
  backoff?: Partial<BackoffOptions>;
  /** Minimum intervals per endpoint, shared by every client of the process; false turns pacing off. */
  pacing?: PacingOptions | false;
  /**
   * Factor on every endpoint's interval: 2 halves the request rate (a key shared by several
   * programs, or an account with a stricter limit). A finite number > 0; default 1.
   */
  rateLimitScale?: number;
  /** Requests in flight at once in this process, across endpoints. An integer >= 1; default 16. */
  maxConcurrentRequests?: number;
  /** Injectable for tests: a clock in ms, a sleep, a random source in [0, 1). */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Receives retry warnings and one debug line per response (never secrets). */
  logger?: Logger;
  /** Replace the HTTP transport (tests). */
  transport?: Transport;
  /** Most MB (2^20 bytes) of one response body; a larger answer is ResponseTooLargeError naming the endpoint. Default 64. */
  maxResponseMB?: number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new VastValidationError(`${name} must be a positive number, got ${value}`);
  return value;
}

/** The typed API client: one object per API area (`offers`, `instances`, `templates`, ...). Make one with `createClient`. */
export class VastClient {
  readonly templates: TemplatesApi;
  readonly instances: InstancesApi;
  /** Bid, reboot, recycle and prepayment of one instance. */
  readonly instanceActions: InstanceActionsApi;
  readonly offers: OffersApi;
  readonly sshKeys: SshKeysApi;
  readonly secrets: SecretsApi;
  readonly apiKeys: ApiKeysApi;
  readonly subaccounts: SubaccountsApi;
  readonly users: UsersApi;
  readonly machines: MachinesApi;
  readonly copy: CopyApi;
  readonly bundles: BundlesApi;
  readonly serverless: ServerlessApi;
  readonly deployments: DeploymentsApi;
  readonly autoscaler: AutoscalerApi;
  readonly earnings: EarningsApi;
  readonly volumes: VolumesApi;
  /** A host's volume and network-volume listings. */
  readonly volumeListings: VolumeListingsApi;
  /** Serverless endpoint groups and worker groups. */
  readonly endpointGroups: EndpointGroupsApi;
  readonly workerGroups: WorkerGroupsApi;
  readonly webhooks: WebhooksApi;
  /** Physical clusters and overlay networks (not in the vendor document; the vendor client's shapes). */
  readonly clusters: ClustersApi;
  /** Calls the service makes itself at set times. */
  readonly scheduledJobs: ScheduledJobsApi;
  readonly billing: BillingApi;
  /** The key's team: its roles and members. */
  readonly teams: TeamsApi;
  /** Subaccounts of the caller: listed and created. */
  readonly subaccountAccounts: SubaccountListApi;
  /** The account's audit log. */
  readonly auditLogs: AuditLogsApi;
  /** The base URLs in use. */
  readonly apiUrl: string;
  readonly runUrl: string;
  /** The pacing settings in use (see ClientOptions). */
  readonly rateLimitScale: number;
  readonly maxConcurrentRequests: number;
  private readonly core: AnnouncingCore;

  constructor(options: ClientOptions) {
    if (typeof options.apiKey !== "string" || options.apiKey.trim() === "") {
      throw new VastValidationError("apiKey is empty: pass the API key (see resolveConfig for the ways to set it)");
    }
    const apiKey = options.apiKey.trim();
    registerSecret(apiKey);
    const apiUrl = (options.apiUrl ?? DEFAULT_API_URL).replace(/\/+$/, "");
    const runUrl = (options.runUrl ?? DEFAULT_RUN_URL).replace(/\/+$/, "");
    const now = options.now ?? Date.now;
    const sleep = options.sleep ?? realSleep;
    const rateLimitScale = positive("rateLimitScale", options.rateLimitScale, 1);
    const maxConcurrentRequests = positive("maxConcurrentRequests", options.maxConcurrentRequests, DEFAULT_MAX_CONCURRENT_REQUESTS);
    if (!Number.isInteger(maxConcurrentRequests)) {
      throw new VastValidationError(`maxConcurrentRequests must be a whole number of requests (1 or more), got ${maxConcurrentRequests}`);
    }
    const core = new AnnouncingCore({
      apiKey,
      apiUrl,
      runUrl,
      timeoutMs: positive("timeoutMs", options.timeoutMs, DEFAULT_TIMEOUT_MS),
      retry: {
        maxAttempts: Math.floor(positive("maxAttempts", options.maxAttempts, DEFAULT_RETRY_POLICY.maxAttempts)),
        deadlineMs: positive("deadlineMs", options.deadlineMs, DEFAULT_RETRY_POLICY.deadlineMs),
        backoff: { ...DEFAULT_RETRY_POLICY.backoff, ...options.backoff },
      },
      pacer: new Pacer(apiUrl, apiKey, { intervalsMs: DEFAULT_INTERVALS_MS, defaultIntervalMs: DEFAULT_INTERVAL_MS }, options.pacing ?? {}, now, {
        sleep,
        rateLimitScale,
        maxConcurrentRequests,
      }),
      rateLimitScale,
      clock: { now, sleep, random: options.random ?? Math.random },
      transport: options.transport ?? gotTransport,
      logger: options.logger,
      userAgent: "pulumi-vastai",
      maxResponseBytes: Math.floor(positive("maxResponseMB", options.maxResponseMB, DEFAULT_MAX_RESPONSE_MB) * 1024 * 1024),
    });
    this.core = core;
    this.apiUrl = apiUrl;
    this.runUrl = runUrl;
    this.rateLimitScale = rateLimitScale;
    this.maxConcurrentRequests = maxConcurrentRequests;
    this.templates = new TemplatesApi(core, options.logger);
    this.instances = new InstancesApi(core);
    this.instanceActions = new InstanceActionsApi(core);
    this.offers = new OffersApi(core, options.logger);
    this.sshKeys = new SshKeysApi(core);
    this.secrets = new SecretsApi(core);
    this.apiKeys = new ApiKeysApi(core);
    this.subaccounts = new SubaccountsApi(core);
    this.users = new UsersApi(core);
    this.machines = new MachinesApi(core, async () => (await this.users.current()).id);
    this.copy = new CopyApi(core);
    this.bundles = new BundlesApi(core);
    this.serverless = new ServerlessApi(core, apiKey);
    this.deployments = new DeploymentsApi(core);
    this.autoscaler = new AutoscalerApi(core);
    this.earnings = new EarningsApi(core);
    this.volumes = new VolumesApi(core, options.logger);
    this.volumeListings = new VolumeListingsApi(core, this.volumes);
    this.endpointGroups = new EndpointGroupsApi(core);
    this.workerGroups = new WorkerGroupsApi(core);
    this.webhooks = new WebhooksApi(core);
    this.clusters = new ClustersApi(core);
    this.scheduledJobs = new ScheduledJobsApi(core);
    this.billing = new BillingApi(core);
    this.teams = new TeamsApi(core);
    this.subaccountAccounts = new SubaccountListApi(core);
    this.auditLogs = new AuditLogsApi(core);
  }

  /**
   * How far the service's clock is ahead of this machine's (ms; negative when behind), from the
   * Date header of the last response; undefined before the first response. Judge the service's
   * schedules by the local clock plus this: the local clock may be off by hours.
   */
  serverClockSkewMs(): number | undefined {
    return this.core.serverClockSkewMs();
  }

  /**
   * Low-level escape hatch: one paced, retried, validated call of any endpoint. Prefer the area
   * methods; this exists for endpoints or fields they do not model.
   */
  request<T>(spec: RequestSpec<T>): Promise<T> {
    return this.core.request(spec);
  }

  /**
   * Calls `listener` after every call that may have changed objects (settled either way), with
   * the kind and the keys it names (undefined: any object of the kind). Returns an unsubscribe.
   */
  onWrite(listener: WriteListener): () => void {
    return this.core.onWrite(listener);
  }
}

/** Create a client. Throws VastValidationError for an empty key or a bad numeric option. */
export function createClient(options: ClientOptions): VastClient {
  return new VastClient(options);
}
