/**
 * The shape of `GET /_sim/state`, apart from the code that builds it, so that the redaction of
 * the request log can name it without importing the simulator's context.
 */
/** A read-only view of the simulator's state, for assertions. */
export interface StateView {
  instances: Record<string, unknown>[];
  templates: Record<string, unknown>[];
  sshKeys: { id: number; user_id: number; key: string; created_at: number }[];
  secrets: { user_id: number; name: string }[];
  apiKeys: { id: number; user_id: number; name: string; permissions: Record<string, unknown> | null; primary: boolean }[];
  maintenances: Record<string, unknown>[];
  offerStates: Record<string, string>;
  nextBoot: { actual_status: string; remaining: number } | null;
  volumes: Record<string, unknown>[];
  /** Hosts' volume listings (`kind` local or network), wire names. */
  volumeListings?: { id: number; user_id: number; kind: string; machine_id: number | null; disk_id: number | null; size: number; price_disk: number; end_date: number }[];
  /** Serverless endpoints and worker groups (without their API keys). */
  endpoints: { id: number; user_id: number; endpoint_name: string; max_workers: number; cold_workers: number }[];
  workerGroups: { id: number; user_id: number; endpoint_id: number; search_params: string; template_hash: string | null; worker_ids: number[] }[];
  webhooks: { id: number; user_id: number; name: string | null; webhook_url: string; event_types: string[] }[];
  /** Physical clusters and overlay networks. */
  clusters: { id: number; user_id: number; subnet: string; machine_ids: number[]; manager_id: number }[];
  overlays: { id: number; user_id: number; cluster_id: number; name: string; instance_ids: number[] }[];
  /** Roles of live teams, with the owner's user id and the scopes granted (issue 27 item 1). */
  teamRoles: { id: number; user_id: number; name: string; scopes: string[]; built_in: boolean }[];
  /** Scheduled jobs in the vendor client's shape (`GET /api/v0/commands/schedule_job/`). */
  scheduledJobs?: Record<string, unknown>[];
  /** Live teams, with the owner's user id (issue 27 item 1). */
  teams?: { id: number; user_id: number; name: string }[];
  /** Invitations of live teams; `accepted` once the person joined. */
  teamInvitations?: { id: number; team_id: number; user_id: number; email: string; role: string; accepted: boolean }[];
  /** Members of live teams (removed ones left out), with the owner's user id. */
  teamMembers?: { team_id: number; user_id: number; member_id: number; email: string; role: string }[];
  /** Subaccounts: users with a parent account. */
  subaccounts?: { id: number; parent_id: number; email: string; username: string }[];
  /** Listings of hosted machines made through the API (wire names of the listing record). */
  machineListings?: ({ machine_id: number } & Record<string, unknown>)[];
}
