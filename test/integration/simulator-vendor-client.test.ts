/**
 * Issue 24 item 5: what the vendor's own client (`vastai`) sends, as plain HTTP, so that the
 * simulator's answers to it are covered where Python is absent too
 * (test/conformance/vendor-client.test.ts runs the client itself).
 */
import { SEED } from "pulumi-vastai/simulator";
import { manualClock, openSimulator } from "./simulator-support";
import { useSimulator } from "../support/simulator";

const clock = manualClock(Date.UTC(2026, 5, 1));
const nowS = () => Math.floor(clock.now() / 1000);
const h = useSimulator({ start: openSimulator, simulator: { now: clock.now } });
const MACHINE = SEED.hostedMachineIds[0];

async function newInstance(offerIndex: number): Promise<number> {
  const r = await h.call("PUT", `/api/v0/asks/${SEED.offerIds[offerIndex]}/`, { client_id: "me", image: "pytorch/pytorch", disk: 10 });
  expect(r.status).toBe(200);
  return r.body.new_contract as number;
}

describe("issue 24 item 5: the simulator answers what the vendor's client sends", () => {
  it("24.5 labels JSON answers application/json with no charset (vastai search offers compares the header)", async () => {
    const r = await h.call("POST", "/api/v0/bundles/", { limit: 1 });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    const refused = await h.call("GET", "/api/v0/instances/1/", undefined, { key: "not-a-key" });
    expect(refused.headers.get("content-type")).toBe("application/json");
  });

  it("24.5 creates an instance with the space-separated runtype of --ssh --direct", async () => {
    for (const runtype of ["ssh_direc ssh_proxy", "jupyter_direc ssh_direc ssh_proxy", "ssh_proxy"]) {
      const r = await h.call("PUT", `/api/v0/asks/${SEED.offerIds[1]}/`, { client_id: "me", image: "pytorch/pytorch", runtype });
      expect({ runtype, status: r.status, msg: r.body.msg }).toEqual({ runtype, status: 200, msg: undefined });
      await h.call("DELETE", `/api/v0/instances/${r.body.new_contract}/`);
    }
    const bad = await h.call("PUT", `/api/v0/asks/${SEED.offerIds[0]}/`, { client_id: "me", image: "pytorch/pytorch", runtype: "ssh_direc vnc" });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/^runtype must be .*space-separated .*\(got "ssh_direc vnc"\)$/);
  });

  it("24.5 takes a template's recommended_disk_space as decimal text (--disk_space 20 sends \"20\")", async () => {
    const r = await h.call("POST", "/api/v0/template/", { name: "t", image: "pytorch/pytorch", recommended_disk_space: "20.5" });
    expect(r.status).toBe(200);
    expect(r.body.template.recommended_disk_space).toBe(20.5);
    const bad = await h.call("POST", "/api/v0/template/", { name: "u", image: "pytorch/pytorch", recommended_disk_space: "lots" });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('recommended_disk_space must be a number (got "lots")');
  });

  it("24.5 edits a template through PUT /api/v1/template/ with its id and hash_id", async () => {
    const made = (await h.call("POST", "/api/v0/template/", { name: "t", image: "pytorch/pytorch", tag: "2.4" })).body.template;
    const r = await h.call("PUT", "/api/v1/template/", { id: made.id, hash_id: made.hash_id, name: "t", image: "pytorch/pytorch", tag: "2.5", href: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, template: { id: made.id, tag: "2.5" } });
    expect(r.body.template.hash_id).not.toBe(made.hash_id);
    const noId = await h.call("PUT", "/api/v1/template/", { hash_id: r.body.template.hash_id, name: "t" });
    expect(noId.status).toBe(400);
    expect(noId.body.msg).toMatch(/^id must be the template's numeric id/);
    const other = await h.call("PUT", "/api/v1/template/", { id: made.id + 1, hash_id: r.body.template.hash_id });
    expect(other.status).toBe(400);
    expect(other.body.msg).toMatch(/name different templates$/);
  });

  it("24.5 schedules and cancels one machine's maintenance (dnotify, cancel_maint), seen by the batch list", async () => {
    const sdate = nowS() + 3600;
    const r = await h.call("PUT", `/api/v0/machines/${MACHINE}/dnotify/`, { client_id: "me", sdate: sdate + 0.5, duration: 2, maintenance_category: "power" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, you_sent: expect.stringMatching(/^\d+ notifications sent$/) });
    const listed = await h.call("GET", `/api/v0/machines/maintenances?owner=me&machine_ids=[${MACHINE}]`);
    expect(listed.body).toEqual([expect.objectContaining({ machine_id: MACHINE, duration_hours: 2, maintenance_category: "power" })]);
    const cancelled = await h.call("PUT", `/api/v0/machines/${MACHINE}/cancel_maint/`, { client_id: "me", machine_id: MACHINE });
    expect(cancelled.body).toMatchObject({ success: true, machine_id: MACHINE, msg: `deleted 1 scheduled maintenance window(s) on machine ${MACHINE}` });
    expect((await h.call("GET", `/api/v0/machines/maintenances?machine_ids=[${MACHINE}]`)).body).toEqual([]);
  });

  it("24.5 refuses dnotify on a machine the caller does not own, and a window in the past", async () => {
    const foreign = await h.call("PUT", `/api/v0/machines/${SEED.foreignMachineId}/dnotify/`, { sdate: nowS() + 3600, duration: 1, maintenance_category: "gpu" });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ error: "not_found", msg: "No such machine id or not owned" });
    const past = await h.call("PUT", `/api/v0/machines/${MACHINE}/dnotify/`, { sdate: nowS() - 10, duration: 1, maintenance_category: "gpu" });
    expect(past.status).toBe(400);
    expect(past.body.msg).toMatch(/^sdate must be in the future/);
  });

  it("24.5 cancels a copy into an instance (DELETE copy_direct) and names an unknown one", async () => {
    const id = await newInstance(0);
    const r = await h.call("DELETE", "/api/v0/commands/copy_direct/", { client_id: "me", dst_id: String(id) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true });
    const unknown = await h.call("DELETE", "/api/v0/commands/copy_direct/", { client_id: "me", dst_id: "999999" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toBe("No instance 999999 on this account.");
  });

  it("24.5 answers copy_direct with one local side with the connection fields (vastai copy local:data C.<id>:/workspace)", async () => {
    const id = await newInstance(0);
    const inst = (await h.call("GET", `/api/v0/instances/${id}/`)).body.instances;
    const up = await h.call("PUT", "/api/v0/commands/copy_direct/", { client_id: "me", src_id: "local", dst_id: `C.${id}`, src_path: "data/", dst_path: "/workspace/" });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ success: true, dst_port: inst.ssh_port, dst_addr: inst.public_ipaddr, src_port: null, src_addr: null });
    const down = await h.call("PUT", "/api/v0/commands/copy_direct/", { client_id: "me", src_id: `C.${id}`, dst_id: "local", src_path: "/workspace/", dst_path: "out/" });
    expect(down.body).toMatchObject({ success: true, src_port: inst.ssh_port, src_addr: inst.public_ipaddr });
    const neither = await h.call("PUT", "/api/v0/commands/copy_direct/", { client_id: "me", src_id: "local", dst_id: "local", src_path: "a/", dst_path: "b/" });
    expect(neither.status).toBe(400);
  });
});
