/**
 * The notification types webhooks may subscribe to. The vendor document names
 * `client:low_credit`, `client:outbid` and `host:machine_offline` in its examples; the others
 * are the simulator's own, in the same `<context>:<slug>` form.
 */
export interface NotificationTypeSeed {
  key: string;
  context: "client" | "host";
  topic: string | null;
  category: string;
  displayName: string;
}

const t = (context: "client" | "host", slug: string, category: string, displayName: string): NotificationTypeSeed => ({
  key: `${context}:${slug}`,
  context,
  topic: category,
  category,
  displayName,
});

export const NOTIFICATION_TYPES: readonly NotificationTypeSeed[] = [
  t("client", "low_credit", "billing", "Low balance notifications"),
  t("client", "outbid", "instances", "Outbid on an interruptible instance"),
  t("client", "maintenance_scheduled", "instances", "Maintenance scheduled on a machine you rent"),
  t("host", "machine_offline", "machines", "A hosted machine went offline"),
  t("host", "machine_online", "machines", "A hosted machine came back online"),
  t("host", "rental_started", "earnings", "A client rented a hosted machine"),
];
