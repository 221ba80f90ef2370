/**
 * Every endpoint the client calls, with whether a resend is safe and its default pacing
 * interval. Paths follow the official client (trailing slash on most; the service accepts both).
 *
 * `idempotent: false` marks calls that may create or change something in a way a second send
 * would repeat (a second instance, a second key, another rotation). When their response is lost
 * they are reported (ResponseLostError), never resent.
 *
 * Intervals (api-facts: Rate limits): the strictest endpoints allow about one call a second
 * (instance update, SSH keys, the paged instance list); instance creation is looser; reads are
 * cheap. The values stay a little above the published rough thresholds.
 */

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface Endpoint {
  method: HttpMethod;
  /** Route pattern with `{name}` placeholders. */
  route: string;
  /** Which base URL: the management API or the serverless API. */
  base: "api" | "run";
  /** A resend after a lost response cannot do harm. */
  idempotent: boolean;
  /** Default minimum interval between calls, ms. */
  intervalMs: number;
}

// Well above the thresholds (reads 1.5x, strict 1.1x), so jitter between sending and arrival
// rarely makes two paced calls arrive too close together; retries handle the rest.
const READ = 300;
const WRITE = 500;
const STRICT = 1100;

function ep(method: HttpMethod, route: string, idempotent: boolean, intervalMs: number, base: "api" | "run" = "api"): Endpoint {
  return { method, route, base, idempotent, intervalMs };
}

export const ENDPOINTS = {
  templatesSearch: ep("GET", "/api/v0/template/", true, READ),
  templatesCreate: ep("POST", "/api/v0/template/", false, WRITE),
  // An edit gives the template a new hash_id, so a resend with the old one would fail.
  templatesEdit: ep("PUT", "/api/v0/template/", false, WRITE),
  templatesDelete: ep("DELETE", "/api/v0/template/", true, WRITE),

  instancesList: ep("GET", "/api/v0/instances/", true, READ),
  instancesListPage: ep("GET", "/api/v1/instances/", true, STRICT),
  instancesGet: ep("GET", "/api/v0/instances/{id}/", true, READ),
  instancesCreate: ep("PUT", "/api/v0/asks/{id}/", false, WRITE),
  instancesDestroy: ep("DELETE", "/api/v0/instances/{id}/", true, WRITE),
  instancesUpdate: ep("PUT", "/api/v0/instances/{id}/", true, STRICT),
  // Adding the same public key again leaves the instance as it was.
  instancesAttachSshKey: ep("POST", "/api/v0/instances/{id}/ssh/", true, STRICT),

  offersSearch: ep("POST", "/api/v0/bundles/", true, READ),
  bundlesAccept: ep("PUT", "/api/v0/bundles/{id}", false, WRITE),

  sshKeysCreate: ep("POST", "/api/v0/ssh/", false, STRICT),
  sshKeysList: ep("GET", "/api/v0/ssh/", true, STRICT),
  sshKeysUpdate: ep("PUT", "/api/v0/ssh/{id}/", true, STRICT),
  sshKeysDelete: ep("DELETE", "/api/v0/ssh/{id}", true, STRICT),

  secretsList: ep("GET", "/api/v0/secrets", true, READ),
  secretsAdd: ep("POST", "/api/v0/secrets/", false, WRITE),
  secretsUpdate: ep("PUT", "/api/v0/secrets/", true, WRITE),
  secretsDelete: ep("DELETE", "/api/v0/secrets/", true, WRITE),

  apiKeysCreate: ep("POST", "/api/v0/auth/apikeys/", false, WRITE),
  apiKeysList: ep("GET", "/api/v0/auth/apikeys/", true, READ),
  apiKeysDelete: ep("DELETE", "/api/v0/auth/apikeys/{id}/", true, WRITE),

  usersCurrent: ep("GET", "/api/v0/users/current/", true, READ),

  // Each call rotates keys again, and the lost response would hold the only copy of them.
  subaccountsRegenerateKeys: ep("PUT", "/api/v0/subaccounts/regenerate_keys", false, STRICT),

  machinesList: ep("GET", "/api/v0/machines/", true, READ),
  machinesGet: ep("GET", "/api/v0/machines/{machine_id}", true, READ),
  maintenancesSchedule: ep("POST", "/api/v0/machines/maintenances/batch", false, STRICT),
  maintenancesList: ep("GET", "/api/v0/machines/maintenances", true, READ),
  maintenancesCancel: ep("DELETE", "/api/v0/machines/maintenances/batch", true, STRICT),

  copyRsync: ep("PUT", "/api/v0/commands/rsync/", false, WRITE),

  workerGroupLogs: ep("POST", "/get_workergroup_logs", true, STRICT, "run"),
  deploymentVersions: ep("GET", "/api/v0/deployment/{id}/versions/", true, READ),
  autoscalerTemplates: ep("GET", "/api/v0/users/{user_id}/templates/autoscaler", true, READ),
  earningsChart: ep("GET", "/api/v1/user/earnings/chart", true, READ),
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

/** The pacing key of an endpoint: method and route pattern. */
export function endpointKey(e: Pick<Endpoint, "method" | "route">): string {
  return `${e.method} ${e.route}`;
}

/** Default interval per endpoint key, from the table above. */
export const DEFAULT_INTERVALS_MS: Readonly<Record<string, number>> = Object.fromEntries(
  Object.values(ENDPOINTS).map((e) => [endpointKey(e), e.intervalMs]),
);

export const DEFAULT_INTERVAL_MS = WRITE;

/** Fill `{name}` placeholders of a route, encoding each value. */
export function fillRoute(route: string, params: Record<string, string | number> = {}): string {
  return route.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`route ${route} needs the parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
