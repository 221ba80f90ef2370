/**
 * `GET /_sim/state`: the live objects, so tests can look for orphans and duplicates. Secret
 * values, key values and registry passwords are left out.
 */
import { scheduledJobView } from "./routes/scheduled-jobs";
import type { SimContext } from "./context";
import { instanceView } from "./domain/instance-view";
import { maintenanceView } from "./domain/maintenance-view";
import { templateView } from "./domain/template-view";
import { volumeView } from "./domain/volumes";
import type { StateView } from "./state-view-types";

export type { StateView } from "./state-view-types";

export function stateView(ctx: SimContext): StateView {
  const d = ctx.store.data;
  return {
    instances: d.instances.map((i) => ({
      user_id: i.userId,
      ssh_key_ids: [...i.sshKeyIds],
      bid_price: i.bidPrice,
      prepaid: i.prepaid ?? 0,
      reboots: i.reboots ?? 0,
      recycles: i.recycles ?? 0,
      template_updates: i.templateUpdates ?? 0,
      ...instanceView(ctx, i),
    })),
    templates: d.templates.map((t) => templateView(t)),
    sshKeys: d.sshKeys.filter((k) => !k.deletedAt).map((k) => ({ id: k.id, user_id: k.userId, key: k.publicKey, created_at: k.createdAt / 1000 })),
    secrets: d.secrets.map((s) => ({ user_id: s.userId, name: s.name })),
    apiKeys: d.apiKeys
      .filter((k) => k.deletedAt === null)
      .map((k) => ({ id: k.id, user_id: k.userId, name: k.name, permissions: k.permissions, primary: k.primary })),
    maintenances: d.maintenances.filter((m) => m.cancelledAt === null).map((m) => ({ user_id: m.userId, ...maintenanceView(m) })),
    offerStates: { ...d.offerStates },
    webhooks: d.webhooks.map((w) => ({ id: w.id, user_id: w.userId, name: w.name, webhook_url: w.url, event_types: [...w.eventTypes] })),
    clusters: d.networks.clusters.map((c) => ({ id: c.id, user_id: c.userId, subnet: c.subnet, machine_ids: [...c.machineIds], manager_id: c.managerId })),
    overlays: d.networks.overlays.map((o) => ({ id: o.id, user_id: o.userId, cluster_id: o.clusterId, name: o.name, instance_ids: [...o.instanceIds] })),
    scheduledJobs: (d.scheduledJobs?.jobs ?? []).map(scheduledJobView),
    nextBoot: d.nextBoot ? { actual_status: d.nextBoot.actualStatus, remaining: d.nextBoot.remaining } : null,
    volumes: d.volumes.items.map((v) => ({ user_id: v.userId, ...volumeView(ctx, v) })),
    volumeListings: (d.volumes.listings ?? []).map((l) => ({ id: l.id, user_id: l.userId, kind: l.kind, machine_id: l.machineId, disk_id: l.diskId, size: l.sizeGb, price_disk: l.priceDisk, end_date: l.endDate })),
    endpoints: d.serverless.endpoints.map((e) => ({ id: e.id, user_id: e.userId, endpoint_name: e.name, max_workers: e.maxWorkers, cold_workers: e.coldWorkers })),
    teamRoles: d.teams.roles
      .filter((r) => r.deletedAt === null)
      .map((r) => ({
        id: r.id,
        user_id: d.teams.teams.find((t) => t.id === r.teamId)?.ownerUserId ?? 0,
        name: r.name,
        scopes: Object.keys((r.permissions.api as Record<string, unknown> | undefined) ?? {}).sort(),
        built_in: r.builtIn,
      })),
    ...teamViews(d),
    subaccounts: d.users.filter((u) => u.parentId !== null).map((u) => ({ id: u.id, parent_id: u.parentId as number, email: u.email, username: u.username })),
    machineListings: Object.entries(d.machineListings ?? {}).map(([id, l]) => ({ machine_id: Number(id), ...l })),
    workerGroups: d.serverless.workerGroups.map((g) => ({
      id: g.id,
      user_id: g.userId,
      endpoint_id: g.endpointId,
      search_params: g.searchParams,
      template_hash: g.templateHash,
      worker_ids: [...g.workerIds],
    })),
  };
}

/** Teams, their invitations and members, keyed to the owner's user id. */
function teamViews(d: SimContext["store"]["data"]): Pick<StateView, "teams" | "teamInvitations" | "teamMembers"> {
  const live = d.teams.teams.filter((t) => t.deletedAt === null);
  const ownerOf = (teamId: number) => live.find((t) => t.id === teamId)?.ownerUserId;
  const emailOf = (userId: number) => d.users.find((u) => u.id === userId)?.email ?? "";
  return {
    teams: live.map((t) => ({ id: t.id, user_id: t.ownerUserId, name: t.name })),
    teamInvitations: d.teams.invitations
      .filter((i) => ownerOf(i.teamId) !== undefined)
      .map((i) => ({ id: i.id, team_id: i.teamId, user_id: ownerOf(i.teamId) as number, email: i.email, role: i.role, accepted: i.acceptedAt !== null })),
    teamMembers: d.teams.memberships
      .filter((m) => m.removedAt === null && ownerOf(m.teamId) !== undefined)
      .map((m) => ({ team_id: m.teamId, user_id: ownerOf(m.teamId) as number, member_id: m.userId, email: emailOf(m.userId), role: m.role })),
  };
}
