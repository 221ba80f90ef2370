/** Machines the caller hosts (spec: Host machines; api-facts: Host machines). */
import type { FastifyInstance } from "fastify";
import type { SimContext } from "../context";
import { account } from "../http/auth";
import { notFound } from "../http/errors";
import { idParam } from "../http/validate";
import { machineById, machinesOwnedBy, machineView, type MachineSeed } from "../seed/machines";

export const NOT_OWNED_MSG = "No such machine id or not owned";

export function registerMachines(app: FastifyInstance, ctx: SimContext): void {
  const view = (m: MachineSeed) => machineView(m, ctx.store.data.machineListings?.[String(m.id)]);
  app.get("/api/v0/machines", (req) => ({ machines: machinesOwnedBy(account(req).user.id).map(view) }));
  app.get<{ Params: { id: string } }>("/api/v0/machines/:id", (req) => {
    const id = idParam(req.params.id, "machine_id");
    const m = machineById(id);
    if (!m || m.ownerId !== account(req).user.id) throw notFound("not_found", NOT_OWNED_MSG);
    // One machine, returned as a list of one (spec: GET /api/v0/machines/{machine_id}).
    return [view(m)];
  });
}
