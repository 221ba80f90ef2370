/** Machines, maintenance, copy, serverless, deployments, autoscaler and earnings over HTTP. */
import { SEED } from "pulumi-vastai/simulator";
import { BadRequestError, VastApiError, VastOperationError } from "../../provider/client";
import { useSimulator } from "../support/simulator";

const h = useSimulator();

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe("machines and maintenance", () => {
  it("lists hosted machines and reads one", async () => {
    const machines = await h.client.machines.list();
    expect(machines.map((m) => m.id)).toEqual(SEED.hostedMachineIds);
    const one = await h.client.machines.get(SEED.hostedMachineIds[0]);
    expect(one).toMatchObject({ id: SEED.hostedMachineIds[0], gpuName: expect.any(String), raw: expect.any(Object) });
  });

  it("reads a machine owned by another host as null", async () => {
    await expect(h.client.machines.get(SEED.foreignMachineId)).resolves.toBeNull();
  });

  it("schedules 100 machines in one call, lists the windows and cancels them", async () => {
    const ids = SEED.hostedMachineIds.slice(0, 100);
    const results = await h.client.machines.scheduleMaintenance({ machineIds: ids, startTime: new Date(inAnHour() * 1000), durationHours: 2, category: "gpu" });
    expect(results).toHaveLength(100);
    expect(results.every((r) => r.success && typeof r.notificationsSent === "number")).toBe(true);
    const windows = await h.client.machines.listMaintenances(ids.slice(0, 3));
    expect(windows.map((w) => w.machineId).sort()).toEqual(ids.slice(0, 3));
    expect(windows[0]).toMatchObject({ durationHours: 2, category: "gpu" });
    const cancelled = await h.client.machines.cancelMaintenances(windows.map((w) => w.id));
    expect(cancelled.every((c) => c.success)).toBe(true);
    await expect(h.client.machines.listMaintenances(ids.slice(0, 3))).resolves.toEqual([]);
  });

  it("reports a machine not owned as a not_found entry beside the scheduled ones", async () => {
    const results = await h.client.machines.scheduleMaintenance({ machineIds: [SEED.hostedMachineIds[0], SEED.foreignMachineId], startTime: inAnHour() });
    expect(results).toEqual([
      expect.objectContaining({ success: true, machineId: SEED.hostedMachineIds[0] }),
      { success: false, machineId: SEED.foreignMachineId, error: "not_found", message: "No such machine id or not owned", notificationsSent: undefined },
    ]);
  });

  it("passes the service's refusal of a past start time", async () => {
    const e = await h.client.machines.scheduleMaintenance({ machineIds: [SEED.hostedMachineIds[0]], startTime: 1000 }).catch((x) => x);
    expect(e).toBeInstanceOf(BadRequestError);
    expect(e.serverMessage).toMatch(/^sdate must be in the future/);
  });

  it("refuses more than 100 machines before sending", async () => {
    await expect(h.client.machines.scheduleMaintenance({ machineIds: SEED.hostedMachineIds.slice(0, 101), startTime: inAnHour() })).rejects.toThrow(
      /machineIds must hold 1 to 100 ids, got 101/,
    );
  });
});

describe("copy", () => {
  it("starts an rsync between two instances and returns the connection details", async () => {
    const a = await h.client.instances.create(SEED.offerIds[0], { image: "ubuntu" });
    const b = await h.client.instances.create(SEED.offerIds[1], { image: "ubuntu" });
    const result = await h.client.copy.rsync({ srcId: a.id, dstId: b.id, srcPath: "/workspace/", dstPath: "/data/" });
    expect(result).toMatchObject({ success: true, srcPort: expect.any(Number), dstPort: expect.any(Number), dstAddr: expect.any(String) });
  });

  it("turns the 200 invalid_args answer for a bad path into VastOperationError", async () => {
    const a = await h.client.instances.create(SEED.offerIds[0], { image: "ubuntu" });
    const e = await h.client.copy.rsync({ srcId: a.id, dstId: a.id, srcPath: "/x; rm -rf /", dstPath: "/y" }).catch((x) => x);
    expect(e).toBeInstanceOf(VastOperationError);
    expect(e).toMatchObject({ code: "invalid_args", serverMessage: "Invalid src_path." });
    const d = await h.client.copy.rsync({ srcId: a.id, dstId: a.id, srcPath: "/x", dstPath: "" }).catch((x) => x);
    expect(d).toMatchObject({ code: "invalid_args", serverMessage: "Invalid dst_path." });
  });
});

describe("serverless", () => {
  it("reads the last lines of worker-group logs from the run URL with the key in header and body", async () => {
    const { logs } = await h.client.serverless.workerGroupLogs({ workerGroupId: SEED.workerGroup.id, tail: 5 });
    expect(logs.split("\n")).toHaveLength(5);
    const sent = (await h.requests()).find((r) => r.path === "/run/get_workergroup_logs");
    expect(sent?.body).toEqual({ id: SEED.workerGroup.id, api_key: h.sim.apiKey, tail: 5 });
  });

  it("reads the {error_msg} failure shape", async () => {
    const e = await h.client.serverless.workerGroupLogs({ workerGroupId: SEED.workerGroup.id, tail: 0 }).catch((x) => x);
    expect(e).toBeInstanceOf(BadRequestError);
    expect(e.serverMessage).toMatch(/^tail must be an integer from 1 to 10000/);
    expect(e.message).not.toContain(h.sim.apiKey);
  });

  it("lists deployment versions newest first", async () => {
    const versions = await h.client.deployments.versions(SEED.deployment.id);
    expect(versions.map((v) => v.id)).toEqual(SEED.deployment.versionIds);
    expect(versions[0]).toMatchObject({ fileHash: expect.any(String), versionLabel: expect.any(String), fileSize: expect.any(Number), createdAt: expect.any(Number) });
  });

  it("gives 404 for another account's deployment", async () => {
    await expect(h.client.deployments.versions(SEED.foreignDeploymentId)).rejects.toMatchObject({ status: 404, serverMessage: `Deployment ${SEED.foreignDeploymentId} not found.` });
  });

  it("lists autoscaler templates of the user and the recommended ones", async () => {
    const t = await h.client.autoscaler.templates(h.sim.userId);
    expect(t.autoscaler.map((x) => x.id)).toEqual(SEED.autoscalerTemplateIds);
    expect(t.recommended.map((x) => x.id)).toEqual(SEED.recommendedAutoscalerTemplateIds);
  });
});

describe("earnings", () => {
  it("reads the chart with query parameters passed through", async () => {
    const end = Math.floor(Date.now() / 1000);
    const chart = await h.client.earnings.chart({ start: end - 7 * 86400, end, bucket: "day" });
    expect(chart.success).toBe(true);
    expect(chart.raw).toMatchObject({ bucket: "day", series: expect.any(Array) });
  });

  it("reads the {detail} failure shape", async () => {
    const e = await h.client.earnings.chart({ bucket: "fortnight" }).catch((x) => x);
    expect(e).toBeInstanceOf(VastApiError);
    expect(e).toMatchObject({ status: 422, serverMessage: 'bucket must be one of hour, day, week (got "fortnight")' });
  });
});
