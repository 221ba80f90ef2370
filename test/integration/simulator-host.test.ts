import { SEED } from "pulumi-vastai/simulator";
import { manualClock, openSimulator } from "./simulator-support";
import { useSimulator } from "../support/simulator";

const clock = manualClock(Date.UTC(2026, 5, 1));
const nowS = () => Math.floor(clock.now() / 1000);
const h = useSimulator({ start: openSimulator, simulator: { now: clock.now } });

const MINE = SEED.hostedMachineIds;

describe("host machines", () => {
  it("lists at least 150 machines hosted by the default account", async () => {
    const r = await h.call("GET", "/api/v0/machines/");
    expect(r.body.machines.length).toBeGreaterThanOrEqual(150);
    expect(r.body.machines.map((m: { id: number }) => m.id)).toEqual([...MINE]);
  });

  it("returns one machine as a list of one", async () => {
    const r = await h.call("GET", `/api/v0/machines/${MINE[0]}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([expect.objectContaining({ id: MINE[0], gpu_name: expect.any(String) })]);
  });

  it("answers {error, msg} for a machine the caller does not own", async () => {
    const r = await h.call("GET", `/api/v0/machines/${SEED.foreignMachineId}/`);
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: "not_found", msg: "No such machine id or not owned" });
  });
});

describe("POST /api/v0/machines/maintenances/batch", () => {
  const schedule = (body: Record<string, unknown>) => h.call("POST", "/api/v0/machines/maintenances/batch", body);

  it("schedules owned machines and reports not_found for the others", async () => {
    const r = await schedule({ machine_ids: [MINE[0], MINE[1], SEED.foreignMachineId, 1], sdate: nowS() + 3600, duration: 2, maintenance_category: "gpu" });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.results).toEqual([
      { success: true, machine_id: MINE[0], notifications_sent: expect.any(Number) },
      { success: true, machine_id: MINE[1], notifications_sent: expect.any(Number) },
      { success: false, machine_id: SEED.foreignMachineId, error: "not_found", msg: "No such machine id or not owned" },
      { success: false, machine_id: 1, error: "not_found", msg: "No such machine id or not owned" },
    ]);
    const list = await h.call("GET", `/api/v0/machines/maintenances?machine_ids=[${MINE[0]}]`);
    expect(list.body).toEqual([
      expect.objectContaining({ machine_id: MINE[0], start_time: nowS() + 3600, duration_hours: 2, maintenance_category: "gpu", cancelled_at: null }),
    ]);
  });

  it("accepts 100 machines and defaults duration 1 and category other; shorter windows count as 1 hour", async () => {
    const r = await schedule({ machine_ids: MINE.slice(0, 100), sdate: nowS() + 60, duration: 0.25 });
    expect(r.body.results.filter((x: { success: boolean }) => x.success)).toHaveLength(100);
    const list = await h.call("GET", "/api/v0/machines/maintenances");
    expect(list.body).toHaveLength(100);
    expect(list.body[0]).toMatchObject({ duration_hours: 1, maintenance_category: "other" });
  });

  it.each([
    ["an empty machine_ids", { machine_ids: [] }, "machine_ids must be a non-empty list"],
    ["machine_ids not a list", { machine_ids: "50001" }, "machine_ids must be a non-empty list"],
    ["101 machine_ids", { machine_ids: MINE.slice(0, 101) }, "machine_ids must contain at most 100 entries"],
    ["duration 0", { duration: 0 }, "duration must be a positive number"],
    ["a duration that is not a number", { duration: "long" }, "duration must be a positive number"],
    ["an unknown category", { maintenance_category: "cooling" }, "maintenance_category must be one of: disk, gpu, internet, other, power, software"],
  ])("answers 400 for %s", async (_name, patch, msg) => {
    const r = await schedule({ machine_ids: [MINE[0]], sdate: nowS() + 3600, ...patch });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: "invalid_args", msg });
  });

  it("refuses an sdate in the past, now, or more than a year ahead", async () => {
    for (const sdate of [nowS() - 10, nowS(), nowS() + 367 * 86400]) {
      const r = await schedule({ machine_ids: [MINE[0]], sdate });
      expect(r.status).toBe(400);
      expect(r.body.msg).toMatch(/sdate must be (in the future|within 1 year)/);
    }
    expect((await schedule({ machine_ids: [MINE[0]], sdate: nowS() + 360 * 86400 })).status).toBe(200);
  });

  it("answers {error, msg} when no machine could be scheduled", async () => {
    const r = await schedule({ machine_ids: [SEED.foreignMachineId], sdate: nowS() + 3600 });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: "not_found", msg: expect.any(String) });
  });

  it("cancels windows in a batch and reports unknown ids", async () => {
    await schedule({ machine_ids: [MINE[0], MINE[1]], sdate: nowS() + 3600 });
    const [w] = (await h.call("GET", "/api/v0/machines/maintenances/")).body;
    const r = await h.call("DELETE", "/api/v0/machines/maintenances/batch/", { maintenance_ids: [w.id, 999] });
    expect(r.body).toEqual({
      success: true,
      results: [
        { success: true, maintenance_id: w.id, msg: expect.any(String) },
        { success: false, maintenance_id: 999, msg: expect.any(String) },
      ],
    });
    expect((await h.call("GET", "/api/v0/machines/maintenances")).body).toHaveLength(1);
    expect((await h.call("DELETE", "/api/v0/machines/maintenances/batch", { maintenance_ids: [] })).status).toBe(400);
  });
});

describe("serverless", () => {
  it("lists deployment versions newest first", async () => {
    const r = await h.call("GET", `/api/v0/deployment/${SEED.deployment.id}/versions/`);
    expect(r.body.success).toBe(true);
    expect(r.body.versions.map((v: { id: number }) => v.id)).toEqual([...SEED.deployment.versionIds]);
    const created = r.body.versions.map((v: { created_at: number }) => v.created_at);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(Object.keys(r.body.versions[0]).sort()).toEqual(["created_at", "file_hash", "file_size", "id", "last_used_at", "version_label"]);
  });

  it("answers 400 Invalid deployment ID and 404 Deployment N not found.", async () => {
    const bad = await h.call("GET", "/api/v0/deployment/abc/versions");
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe("Invalid deployment ID");
    const other = await h.call("GET", `/api/v0/deployment/${SEED.foreignDeploymentId}/versions`);
    expect(other.status).toBe(404);
    expect(other.body.msg).toBe(`Deployment ${SEED.foreignDeploymentId} not found.`);
  });

  it("returns the tail of the worker group logs with the key in the Bearer header or the body", async () => {
    const r = await h.run("/get_workergroup_logs", { id: SEED.workerGroup.id, tail: 5 });
    expect(r.status).toBe(200);
    expect(r.body.logs.split("\n")).toHaveLength(5);
    const byBody = await h.run("/get_workergroup_logs/", { id: SEED.workerGroup.id, api_key: h.sim.apiKey, tail: 2 }, { key: null });
    expect(byBody.status).toBe(200);
    expect(byBody.body.logs.split("\n")).toEqual(r.body.logs.split("\n").slice(-2));
  });

  it("answers worker group log errors as {error_msg}", async () => {
    const noKey = await h.run("/get_workergroup_logs", { id: SEED.workerGroup.id }, { key: null });
    expect(noKey.status).toBe(401);
    expect(noKey.body).toEqual({ error_msg: expect.any(String) });
    const badKey = await h.run("/get_workergroup_logs", { id: SEED.workerGroup.id, api_key: "nope" }, { key: null });
    expect(badKey.status).toBe(401);
    // An unknown group is answered HTTP 200 with a bare error string (vendor document).
    const missing = await h.run("/get_workergroup_logs", { id: 9999 });
    expect(missing.status).toBe(200);
    expect(missing.body).toBe("authenticate_workergroup_apikey: invalid api_key or workergroup 9999 not found");
    const badTail = await h.run("/get_workergroup_logs", { id: SEED.workerGroup.id, tail: -1 });
    expect(badTail.status).toBe(400);
    expect(badTail.body.error_msg).toContain("tail");
  });

  it("lists the user's autoscaler templates and the recommended ones", async () => {
    const r = await h.call("GET", `/api/v0/users/${SEED.user.id}/templates/autoscaler/`);
    expect(r.body).toMatchObject({ success: true });
    expect(r.body.autoscaler.map((t: { id: number }) => t.id)).toEqual([...SEED.autoscalerTemplateIds]);
    expect(r.body.recommended.map((t: { id: number }) => t.id)).toEqual([...SEED.recommendedAutoscalerTemplateIds]);
    expect((await h.call("GET", `/api/v0/users/${SEED.unapprovedUser.id}/templates/autoscaler`)).status).toBe(403);
  });
});

describe("GET /api/v1/user/earnings/chart", () => {
  it("returns a bucketed series with success", async () => {
    const end = nowS();
    const r = await h.call("GET", `/api/v1/user/earnings/chart?start=${end - 7 * 86400}&end=${end}&bucket=day`);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.series.length).toBeGreaterThanOrEqual(7);
    expect(r.body.total).toBeGreaterThan(0);
  });

  it("answers a malformed query with {detail} and an impossible window with {error, msg}", async () => {
    const bad = await h.call("GET", "/api/v1/user/earnings/chart?start=yesterday");
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ detail: expect.stringContaining("start") });
    const reversed = await h.call("GET", "/api/v1/user/earnings/chart?start=2000&end=1000");
    expect(reversed.status).toBe(400);
    expect(reversed.body).toMatchObject({ error: "invalid_args", msg: expect.stringContaining("start") });
  });
});
