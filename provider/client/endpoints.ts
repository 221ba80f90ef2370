import { PACING_MARGIN } from "./pacing";

/**
 * Every endpoint the client calls, with whether a resend is safe and its default pacing
 * interval. Paths are the service's route table form: the trailing slash wherever the service's
 * routes have one (a slashless path may be answered with a redirect, which the transport follows
 * only when it keeps the method).
 *
 * `idempotent: false` marks calls that may create or change something in a way a second send
 * would repeat (a second instance, a second key, another rotation). When their response is lost
 * they are reported (ResponseLostError), never resent.
 *
 * Intervals (api-facts: Rate limits): the strictest endpoints allow about one call a second
 * (instance update, SSH keys, the paged instance list); instance creation, reads and destroys
 * about five; the rest about ten. The simulator's realistic table models the same values.
 */

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** One entry of `ENDPOINTS`. */
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
  /**
   * Described only in this package's own description of the API, not in the vendor's document
   * or client: a 404/405/501 says the endpoint may not exist on the service (core.ts).
   */
  specOnly?: boolean;
}

// Each endpoint is paced PACING_MARGIN (3%) slower than its limit, rounded up to a whole ms:
// close enough that a burst runs at the service's pace, with room for the spread between sending
// and arrival (the pacer itself never sends two calls closer than the interval, counted from
// when each was written, and a refusal widens its lane at once: pacing.ts). Pacing further
// above the limit would only make every large stack slower.
const paced = (limitMs: number) => Math.ceil(limitMs * (1 + PACING_MARGIN));
/** Endpoints without a stricter limit of their own (about ten calls a second). */
const ANY = paced(100);
/** Instance creation, the unpaged list, one-instance reads and destroys (about five a second). */
const INSTANCE = paced(200);
/** Instance updates, SSH keys, the paged list, key rotation, maintenance, worker logs (about one a second). */
const STRICT = paced(1000);

function ep(method: HttpMethod, route: string, idempotent: boolean, intervalMs: number, base: "api" | "run" = "api"): Endpoint {
  return { method, route, base, idempotent, intervalMs };
}

/** An endpoint known only from this package's own API description (see `Endpoint.specOnly`). */
const specOnly = (e: Endpoint): Endpoint => ({ ...e, specOnly: true });

/** Every endpoint the client calls: method, route, whether a resend is safe, and its default minimum interval. */
export const ENDPOINTS = {
  templatesSearch: ep("GET", "/api/v0/template/", true, ANY),
  templatesCreate: ep("POST", "/api/v0/template/", false, ANY),
  // An edit gives the template a new hash_id, so a resend with the old one would fail.
  templatesEdit: ep("PUT", "/api/v0/template/", false, ANY),
  templatesDelete: ep("DELETE", "/api/v0/template/", true, ANY),

  instancesList: specOnly(ep("GET", "/api/v0/instances/", true, INSTANCE)),
  instancesListPage: ep("GET", "/api/v1/instances/", true, STRICT),
  instancesGet: ep("GET", "/api/v0/instances/{id}/", true, INSTANCE),
  instancesCreate: ep("PUT", "/api/v0/asks/{id}/", false, INSTANCE),
  instancesDestroy: ep("DELETE", "/api/v0/instances/{id}/", true, INSTANCE),
  instancesUpdate: ep("PUT", "/api/v0/instances/{id}/", true, STRICT),
  // Adding the same public key again leaves the instance as it was.
  instancesAttachSshKey: ep("POST", "/api/v0/instances/{id}/ssh/", true, STRICT),
  // Detaching a detached key answers 404: the caller takes the service's 404 as done.
  instancesDetachSshKey: ep("DELETE", "/api/v0/instances/{id}/ssh/{keyId}/", true, STRICT),
  // Sets the bid to a value: a resend sets the same value.
  instancesChangeBid: ep("PUT", "/api/v0/instances/bid_price/{id}/", true, STRICT),
  // A resent reboot or recycle restarts the container once more; nothing is made or paid twice.
  instancesReboot: ep("PUT", "/api/v0/instances/reboot/{id}/", true, STRICT),
  instancesRecycle: ep("PUT", "/api/v0/instances/recycle/{id}/", true, STRICT),
  // Each call pays: a resend would pay twice.
  instancesPrepay: ep("PUT", "/api/v0/instances/prepay/{id}/", false, STRICT),
  instancesBalance: ep("GET", "/api/v0/instances/balance/{id}/", true, INSTANCE),
  // Sets image/template/env/onstart/args to values: a resend recreates the container once more.
  instancesUpdateTemplate: ep("PUT", "/api/v0/instances/update_template/{id}/", true, STRICT),

  offersSearch: ep("POST", "/api/v0/bundles/", true, ANY),
  bundlesAccept: ep("PUT", "/api/v0/bundles/{id}/", false, ANY),

  sshKeysCreate: ep("POST", "/api/v0/ssh/", false, STRICT),
  sshKeysList: ep("GET", "/api/v0/ssh/", true, STRICT),
  sshKeysUpdate: ep("PUT", "/api/v0/ssh/{id}/", true, STRICT),
  sshKeysDelete: ep("DELETE", "/api/v0/ssh/{id}/", true, STRICT),

  secretsList: ep("GET", "/api/v0/secrets/", true, ANY),
  secretsAdd: ep("POST", "/api/v0/secrets/", false, ANY),
  secretsUpdate: ep("PUT", "/api/v0/secrets/", true, ANY),
  secretsDelete: ep("DELETE", "/api/v0/secrets/", true, ANY),

  apiKeysCreate: ep("POST", "/api/v0/auth/apikeys/", false, ANY),
  apiKeysList: ep("GET", "/api/v0/auth/apikeys/", true, ANY),
  apiKeysDelete: ep("DELETE", "/api/v0/auth/apikeys/{id}/", true, ANY),

  usersCurrent: ep("GET", "/api/v0/users/current/", true, ANY),

  // Each call rotates keys again, and the lost response would hold the only copy of them.
  subaccountsRegenerateKeys: specOnly(ep("PUT", "/api/v0/subaccounts/regenerate_keys/", false, STRICT)),

  machinesList: ep("GET", "/api/v0/machines/", true, ANY),
  machinesGet: ep("GET", "/api/v0/machines/{machine_id}/", true, ANY),
  maintenancesSchedule: specOnly(ep("POST", "/api/v0/machines/maintenances/batch", false, STRICT)),
  maintenancesList: ep("GET", "/api/v0/machines/maintenances", true, ANY),
  maintenancesCancel: specOnly(ep("DELETE", "/api/v0/machines/maintenances/batch", true, STRICT)),
  // A host's listing: the asks (create or update all terms at once; a resend sets the same terms),
  // the minimum bid, the default job (background bids) and the unlist.
  machineAsksCreate: ep("PUT", "/api/v0/machines/create_asks/", true, ANY),
  machineAsksDelete: ep("DELETE", "/api/v0/machines/{machine_id}/asks/", true, ANY),
  machineMinBid: ep("PUT", "/api/v0/machines/{machine_id}/minbid/", true, ANY),
  machineDefaultJobCreate: ep("PUT", "/api/v0/machines/create_bids/", true, ANY),
  machineDefaultJobDelete: ep("DELETE", "/api/v0/machines/{machine_id}/defjob/", true, ANY),

  copyRsync: ep("PUT", "/api/v0/commands/rsync/", false, ANY),
  copyDirect: ep("PUT", "/api/v0/commands/copy_direct/", false, ANY),

  // Volumes (local and network): searched, rented from an offer, listed together, deleted by id.
  volumeOffersSearch: ep("POST", "/api/v0/volumes/search/", true, ANY),
  networkVolumeOffersSearch: ep("POST", "/api/v0/network_volumes/search/", true, ANY),
  volumesList: ep("GET", "/api/v0/volumes/", true, ANY),
  volumesCreate: ep("PUT", "/api/v0/volumes/", false, ANY),
  networkVolumesCreate: ep("PUT", "/api/v0/network_volumes/", false, ANY),
  volumesDelete: ep("DELETE", "/api/v0/volumes/", true, ANY),
  // A host's volume listings: disk on a machine, or space on a network disk, listed for volumes.
  // A second list of the same machine may make a second listing on the service: never resent.
  volumeListingCreate: ep("POST", "/api/v0/volumes/", false, ANY),
  networkVolumeListingCreate: ep("POST", "/api/v0/network_volumes/", false, ANY),
  // The vendor document and client spell this path without the trailing slash.
  volumeListingDelete: ep("POST", "/api/v0/volumes/unlist", true, ANY),
  networkVolumeListingDelete: ep("POST", "/api/v0/network_volumes/unlist/", true, ANY),

  workerGroupLogs: ep("POST", "/get_workergroup_logs", true, STRICT, "run"),
  deploymentVersions: ep("GET", "/api/v0/deployment/{id}/versions/", true, ANY),
  autoscalerTemplates: specOnly(ep("GET", "/api/v0/users/{user_id}/templates/autoscaler/", true, ANY)),
  earningsChart: specOnly(ep("GET", "/api/v1/user/earnings/chart", true, ANY)),

  // Serverless endpoint groups and worker groups (areas/serverless.ts).
  endpointsList: ep("GET", "/api/v0/endptjobs/", true, ANY),
  endpointsCreate: ep("POST", "/api/v0/endptjobs/", false, ANY),
  endpointsUpdate: ep("PUT", "/api/v0/endptjobs/{id}/", true, ANY),
  endpointsDelete: ep("DELETE", "/api/v0/endptjobs/{id}/", true, ANY),
  workerGroupsList: ep("GET", "/api/v0/workergroups/", true, ANY),
  workerGroupsCreate: ep("POST", "/api/v0/workergroups/", false, ANY),
  workerGroupsUpdate: ep("PUT", "/api/v0/workergroups/{id}/", true, ANY),
  workerGroupsDelete: ep("DELETE", "/api/v0/workergroups/{id}/", true, ANY),
  workerGroupWorkers: ep("POST", "/get_workergroup_workers", true, STRICT, "run"),
  // Clusters and overlay networks: not in the vendor's document; the vendor's client
  // (vastai/api/clusters.py) is the evidence. A create answers only {msg}: not resent.
  clustersList: ep("GET", "/api/v0/clusters/", true, ANY),
  clusterCreate: ep("POST", "/api/v0/cluster/", false, ANY),
  clusterJoin: ep("PUT", "/api/v0/cluster/", true, ANY),
  clusterDelete: ep("DELETE", "/api/v0/cluster/", true, ANY),
  clusterRemoveMachine: ep("DELETE", "/api/v0/cluster/remove_machine/", true, ANY),
  overlaysList: ep("GET", "/api/v0/overlay/", true, ANY),
  overlayCreate: ep("POST", "/api/v0/overlay/", false, ANY),
  overlayJoin: ep("PUT", "/api/v0/overlay/", true, ANY),
  overlayDelete: ep("DELETE", "/api/v0/overlay/", true, ANY),
  // Notification webhooks. A lost create may still land: not resent (the provider looks for it).
  webhooksList: ep("GET", "/api/v0/webhooks/", true, ANY),
  webhooksCreate: ep("POST", "/api/v0/webhooks/", false, ANY),
  webhooksUpdate: ep("PUT", "/api/v0/webhooks/{id}/", true, ANY),
  webhooksDelete: ep("DELETE", "/api/v0/webhooks/{id}/", true, ANY),
  // Each rotation voids the secret before it: a lost one that lands after a resend would void
  // the secret the resend returned, so the caller waits out the lost request before rotating again.
  webhooksRotateSecret: ep("POST", "/api/v0/webhooks/{id}/rotate-secret/", false, ANY),
  // A resend would deliver the test event twice.
  webhooksTest: ep("POST", "/api/v0/webhooks/{id}/test/", false, ANY),
  notificationTypes: ep("GET", "/api/v0/notification-types/", true, ANY),

  // Teams: the key's team, its roles and members. Creating a team, a role or an invitation
  // is not resent (a second invitation within 300 s is refused with 429).
  teamCreate: ep("POST", "/api/v0/team/", false, ANY),
  teamDestroy: ep("DELETE", "/api/v0/team/", true, ANY),
  teamRolesList: ep("GET", "/api/v0/team/roles-full/", true, ANY),
  teamRoleGet: ep("GET", "/api/v0/team/roles/{name}/", true, ANY),
  teamRoleCreate: ep("POST", "/api/v0/team/roles/", false, ANY),
  teamRoleUpdate: ep("PUT", "/api/v0/team/roles/{id}/", true, ANY),
  teamRoleDelete: ep("DELETE", "/api/v0/team/roles/{name}/", true, ANY),
  teamInvite: ep("POST", "/api/v0/team/invite/", false, ANY),
  teamMembersList: ep("GET", "/api/v0/team/members/", true, ANY),
  teamMemberRemove: ep("DELETE", "/api/v0/team/members/{id}/", true, ANY),
  // Subaccounts: listed (`owner=me`) and created as users with `parent_id: "me"`.
  subaccountsList: ep("GET", "/api/v0/subaccounts", true, ANY),
  subaccountsCreate: ep("POST", "/api/v0/users/", false, ANY),
  // The audit log: in the vendor's client (`show audit-logs`), not in its document.
  auditLogs: ep("GET", "/api/v0/audit_logs/", true, ANY),
  // Scheduled jobs (not in the vendor document; the vendor's client). A lost create may still
  // land: not resent (the area finds it by instance, endpoint and slot).
  scheduledJobsList: ep("GET", "/api/v0/commands/schedule_job/", true, ANY),
  scheduledJobsCreate: ep("POST", "/api/v0/commands/schedule_job/", false, ANY),
  scheduledJobsUpdate: ep("PUT", "/api/v0/commands/schedule_job/{id}/", true, ANY),
  scheduledJobsDelete: ep("DELETE", "/api/v0/commands/schedule_job/{id}/", true, ANY),

  // Billing history (paged with after_token).
  chargesList: ep("GET", "/api/v0/charges/", true, ANY),
  invoicesList: ep("GET", "/api/v1/invoices/", true, ANY),
} as const satisfies Record<string, Endpoint>;

/** The name of an entry of `ENDPOINTS`. */
export type EndpointName = keyof typeof ENDPOINTS;

/** The pacing key of an endpoint: method and route pattern. */
export function endpointKey(e: Pick<Endpoint, "method" | "route">): string {
  return `${e.method} ${e.route}`;
}

/** Default interval per endpoint key, from the table above. */
export const DEFAULT_INTERVALS_MS: Readonly<Record<string, number>> = Object.fromEntries(
  Object.values(ENDPOINTS).map((e) => [endpointKey(e), e.intervalMs]),
);

/** For an endpoint this table does not know (`client.request` with an endpoint of one's own). */
export const DEFAULT_INTERVAL_MS = 500;

/** Fill `{name}` placeholders of a route, encoding each value. */
export function fillRoute(route: string, params: Record<string, string | number> = {}): string {
  return route.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`route ${route} needs the parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
