/** Maintenance windows as `GET /api/v0/machines/maintenances` lists them (times in Unix seconds). */
import type { MaintenanceRecord } from "../store/types";

export function maintenanceView(m: MaintenanceRecord): Record<string, unknown> {
  return {
    id: m.id,
    machine_id: m.machineId,
    start_time: m.startTime,
    duration_hours: m.durationHours,
    end_time: m.startTime + Math.round(m.durationHours * 3600),
    maintenance_category: m.category,
    maintenance_reason: m.reason,
    created_at: m.createdAt / 1000,
    cancelled_at: m.cancelledAt === null ? null : m.cancelledAt / 1000,
  };
}
