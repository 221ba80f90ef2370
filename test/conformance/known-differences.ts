/**
 * Every remaining difference between what crosses the wire (client requests, simulator
 * responses) and the vendor's OpenAPI document, with the reason it stays. README.md in this
 * folder shows the same table; the conformance test fails on a finding not listed here and on
 * a listed difference that no longer occurs.
 */

export interface Finding {
  /** Endpoint key of the client's table (`METHOD /route`). */
  endpoint: string;
  kind: "undocumented" | "request" | "response" | "query";
  /** JSON pointer in the body (array positions as `*`), or the query parameter. */
  at: string;
  message: string;
}

export interface KnownDifference {
  id: string;
  endpoint: string;
  kind: Finding["kind"];
  /** Pointer the difference is at ("" for the whole body or operation). */
  at: string;
  reason: string;
  covers(f: Finding): boolean;
}

function known(id: string, endpoint: string, kind: Finding["kind"], at: string, reason: string): KnownDifference {
  return { id, endpoint, kind, at, reason, covers: (f) => f.endpoint === endpoint && f.kind === kind && f.at === at };
}

const UNDOCUMENTED = "the document has no such operation";

export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [
  // ---- endpoints the document does not describe -------------------------------------------
  known("instances-list-v0", "GET /api/v0/instances/", "undocumented", "", `${UNDOCUMENTED}; the unpaged list is in our spec and api-facts; the document (and the vendor's client) have only the paged /api/v1/instances/, which the client also offers (listPage, listAll)`),
  known("bundle-accept", "PUT /api/v0/bundles/{id}/", "undocumented", "", `${UNDOCUMENTED}; our spec describes it (disabled by the service, answers {})`),
  known("rsync", "PUT /api/v0/commands/rsync/", "undocumented", "", `${UNDOCUMENTED}; api-facts and the vendor's client use it when one side of a copy is local`),
  known("regenerate-keys", "PUT /api/v0/subaccounts/regenerate_keys/", "undocumented", "", `${UNDOCUMENTED}; our spec describes it`),
  known("machine-get", "GET /api/v0/machines/{machine_id}/", "undocumented", "", `${UNDOCUMENTED}; api-facts and the vendor's client (owner=me) use it`),
  known("maintenances-list", "GET /api/v0/machines/maintenances", "undocumented", "", `${UNDOCUMENTED}; api-facts and the vendor's client (owner=me, machine_ids) use it`),
  known("maintenances-schedule", "POST /api/v0/machines/maintenances/batch", "undocumented", "", `${UNDOCUMENTED}; our spec and api-facts describe it`),
  known("maintenances-cancel", "DELETE /api/v0/machines/maintenances/batch", "undocumented", "", `${UNDOCUMENTED}; our spec and api-facts describe it`),
  known("deployment-versions", "GET /api/v0/deployment/{id}/versions/", "undocumented", "", `${UNDOCUMENTED}; api-facts and the vendor's client use it`),
  known("autoscaler-templates", "GET /api/v0/users/{user_id}/templates/autoscaler/", "undocumented", "", `${UNDOCUMENTED}; our spec describes it`),
  known("network-volume-search", "POST /api/v0/network_volumes/search/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client searches network volume offers there (search network volumes), with the query of /volumes/search/`),
  known("network-volume-create", "PUT /api/v0/network_volumes/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client rents network volumes there ({id, size, name}, as /volumes/); they are listed and deleted through the documented /volumes/`),
  known("volume-listing-create", "POST /api/v0/volumes/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client lists disk on a machine for volumes there (list volume, list volumes: {size, machine, price_disk, end_date?}); the answer is not described (the client prints it whole)`),
  known("network-volume-listing-create", "POST /api/v0/network_volumes/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client lists space on a network disk there (list network volume: {disk_id, price_disk, size, end_date?}, answer printed as msg)`),
  known("network-volume-listing-unlist", "POST /api/v0/network_volumes/unlist/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client unlists a network volume offer there (unlist network volume: {id}, answer printed as msg), as the documented /volumes/unlist`),
  known("update-template", "PUT /api/v0/instances/update_template/{id}/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client (vastai update instance, vastai/api/instances.py update_instance) and its api_scopes.json (instance_write) use it; body {id, template_id, template_hash_id, image, args, env, onstart}, answer {success, updated_instance} or {success: false, msg}`),
  known("audit-logs", "GET /api/v0/audit_logs/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client reads it (show audit-logs: rows of ip_address, api_key_id, created_at, api_route, args)`),
  known("scheduled-jobs-list", "GET /api/v0/commands/schedule_job/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client lists scheduled jobs there (show scheduled-jobs: a bare list)`),
  known("scheduled-jobs-create", "POST /api/v0/commands/schedule_job/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client schedules bid changes, reboots, execute and cloud copy there (add_scheduled_job; 422 with scheduled_job_id when it exists)`),
  known("scheduled-jobs-update", "PUT /api/v0/commands/schedule_job/{id}/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client sends the whole job again there (update_scheduled_job)`),
  known("scheduled-jobs-delete", "DELETE /api/v0/commands/schedule_job/{id}/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client deletes a job there (delete scheduled-job)`),
  known("earnings-chart", "GET /api/v1/user/earnings/chart", "undocumented", "", `${UNDOCUMENTED}; our spec names this path; the vendor's client reads /users/me/machine-earnings instead (docs/limits-and-defaults.md: Limits of the service)`),

  // Clusters and overlay networks: the vendor's client (vastai/api/clusters.py, vast.py) is the evidence of these shapes (docs/clusters.md).
  known("clusters-list", "GET /api/v0/clusters/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client (show clusters) reads {clusters: {"<id>": {subnet, nodes: [{machine_id, is_cluster_manager, local_ip}]}}}`),
  known("cluster-create", "POST /api/v0/cluster/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client (create cluster) sends {subnet, manager_id} and prints msg`),
  known("cluster-join", "PUT /api/v0/cluster/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client (join cluster) sends {cluster_id, machine_ids}`),
  known("cluster-delete", "DELETE /api/v0/cluster/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client (delete cluster) sends {cluster_id}`),
  known("cluster-remove-machine", "DELETE /api/v0/cluster/remove_machine/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client (remove-machine-from-cluster) sends {cluster_id, machine_id, new_manager_id?}`),
  known("overlays-list", "GET /api/v0/overlay/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client (show overlays) reads a list of {overlay_id, name, internal_subnet, cluster_id, instances}`),
  known("overlay-create", "POST /api/v0/overlay/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client (create overlay) sends {cluster_id, name} and prints msg`),
  known("overlay-join", "PUT /api/v0/overlay/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client (join overlay) sends {name, instance_id}`),
  known("overlay-delete", "DELETE /api/v0/overlay/", "undocumented", "", `${UNDOCUMENTED}; the vendor's client (delete overlay) sends {overlay_id} or {overlay_name}`),

  // ---- requests ----------------------------------------------------------------------------
  known("offer-type-spelling", "POST /api/v0/bundles/", "request", "/type", "the schema's enum spells on-demand `ondemand`, but the document's own example and the vendor's client send `on-demand`; the client sends what the vendor's client sends"),
  known("offer-order-items", "POST /api/v0/bundles/", "request", "/order", "the schema puts minItems/maxItems 2 on the list of sort pairs instead of on each pair, so one pair ([[\"score\", \"desc\"]], the vendor client's default) fails it; the description says each entry has two elements"),
  known("instance-env-object", "PUT /api/v0/asks/{id}/", "request", "/env", "the schema types env as a Docker flag string; the vendor's client and api-facts send an object {KEY: value, \"-p A:B\": \"1\"}; the client sends the object (the simulator takes both)"),

  // ---- responses ---------------------------------------------------------------------------
  known("ssh-key-malformed", "POST /api/v0/ssh/", "response", "/error", "the document lists only `no_ssh_key` (no key given) for a 400; a key that is not an OpenSSH public key is refused by the simulator with `invalid_args` naming the rule, a case the document does not cover"),
  known("instance-extra-env", "GET /api/v0/instances/{id}/", "response", "/instances/extra_env/*", "the one-instance schema types extra_env as strings while the paged list (same document) and api-facts give [key, value] pairs; the simulator gives pairs"),
  known("instance-ports", "GET /api/v0/instances/{id}/", "response", "/instances/ports", "the one-instance schema types ports as an array while the paged list (same document) gives the Docker object {\"22/tcp\": [{HostIp, HostPort}]}; the simulator gives the object"),
  known("instance-onstart-null", "GET /api/v1/instances/", "response", "/instances/*/onstart", "the simulator answers null for an instance created without onstart; the document types it as a string (example only). The client reads both (null stays null)"),
  known("instance-volume-info", "GET /api/v1/instances/", "response", "/instances/*/volume_info", "the paged list types volume_info as an array, while instance creation sends an object and our spec lists an object or null; the simulator echoes the object (or null)"),
  known("machine-id-type", "GET /api/v0/machines/", "response", "/machines/*/id", "the schema types the machine id as a string; every other machine id in the document (machine_id) and api-facts are integers; the simulator sends integers and the client takes both"),
];

/**
 * Commands of the vendor's own client (`vastai`, vendor-client.test.ts) that the simulator
 * still answers differently from what the client expects, each with the reason it stays. The
 * test runs each and fails when its output no longer holds `fails` (the difference is gone:
 * remove the row). README.md in this folder shows the same rows.
 */
export interface VendorClientDifference {
  id: string;
  /** The words after `vastai` (the test adds --url, --api-key and --raw). */
  command: string[];
  /** Text the command's output (stdout or stderr) holds while the difference remains. */
  fails: string;
  reason: string;
}

export const VENDOR_CLIENT_DIFFERENCES: readonly VendorClientDifference[] = [
  {
    id: "show-api-key",
    command: ["show", "api-key", "1"],
    fails: "\"status_code\": 404",
    reason: "the client reads one key at GET /api/v0/auth/apikeys/{id}/, which the document does not describe (it has only DELETE there) and no resource of ours uses (ApiKey reads the list); the simulator does not serve it rather than guess its answer",
  },
  {
    id: "delete-template-by-hash",
    command: ["delete", "template", "--hash-id", "0123456789abcdef0123456789abcdef"],
    fails: "400 Client Error",
    reason: "the client can send {hash_id} to DELETE /api/v0/template/; the document requires template_id and says \"not hash_id\", and the simulator follows it (400 naming template_id). The Template resource and `vastai delete template --template-id` use the id",
  },
];
