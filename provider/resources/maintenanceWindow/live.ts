/**
 * The shared reader of maintenance windows, by machine. The window list takes the machines to
 * list (`?machine_ids=[...]`): the machines asked for at about the same time, by one
 * MaintenanceWindow or by several, are listed together, 100 machines per call.
 */
import type { VastClient } from "../../client";
import type { MaintenanceWindow } from "../../client/types-account";
import { getClient } from "../../context";
import { readerFor } from "../kit";
import type { SharedList } from "../kit";

/** Machines per list call, as for scheduling and cancelling (spec: Limits). */
export const MACHINES_PER_LIST = 100;

/** The active windows of one machine. */
export interface MachineWindows {
  machineId: number;
  windows: MaintenanceWindow[];
}

/** Windows by machine id; every machine asked for gets an entry, empty when it has no window. */
export function liveMaintenance(client: VastClient = getClient()): SharedList<MachineWindows> {
  return readerFor<MachineWindows>(client, "maintenance", (c) => ({
    fetchKeys: async (keys) => {
      const ids = keys.map(Number);
      const byMachine = new Map<number, MaintenanceWindow[]>(ids.map((id) => [id, []]));
      for (let i = 0; i < ids.length; i += MACHINES_PER_LIST) {
        for (const w of await c.machines.listMaintenances(ids.slice(i, i + MACHINES_PER_LIST))) byMachine.get(w.machineId)?.push(w);
      }
      return [...byMachine].map(([machineId, windows]) => ({ machineId, windows }));
    },
    keyOf: (m) => String(m.machineId),
  }));
}

/** The active windows of these machines, read through the shared reader. */
export async function windowsOf(machineIds: readonly number[], client: VastClient = getClient()): Promise<MaintenanceWindow[]> {
  const reader = liveMaintenance(client);
  const found = await Promise.all([...new Set(machineIds)].map((id) => reader.get(String(id))));
  return found.flatMap((m) => m?.windows ?? []);
}
