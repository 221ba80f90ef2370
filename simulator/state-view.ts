/**
 * `GET /_sim/state`: the live objects, so tests can look for orphans and duplicates. Secret
 * values, key values and registry passwords are left out.
 */
import type { SimContext } from "./context";
import { instanceView } from "./domain/instance-view";
import { maintenanceView } from "./domain/maintenance-view";
import { templateView } from "./domain/template-view";

export interface StateView {
  instances: Record<string, unknown>[];
  templates: Record<string, unknown>[];
  sshKeys: { id: number; user_id: number; key: string; created_at: number }[];
  secrets: { user_id: number; name: string }[];
  apiKeys: { id: number; user_id: number; name: string; permissions: Record<string, unknown> | null; primary: boolean }[];
  maintenances: Record<string, unknown>[];
  offerStates: Record<string, string>;
  nextBoot: { actual_status: string; remaining: number } | null;
}

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
    nextBoot: d.nextBoot ? { actual_status: d.nextBoot.actualStatus, remaining: d.nextBoot.remaining } : null,
  };
}
