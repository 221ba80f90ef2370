/**
 * issue 24 item 2: examples/quickstart under the real Pulumi CLI, against the simulator:
 * preview, up, up with no changes, a dead instance replaced by `up --refresh` (the fleet healed
 * in the same run), a template tag change in place, drift shown by `pulumi refresh`, the stack
 * export free of plain secrets, and destroy leaving nothing.
 */
import { startSimulator, type Simulator } from "pulumi-vastai/simulator";
import { describeE2E, e2eStack, exampleProgram, PUBLIC_KEY, requestLog, simControl, type E2EStack } from "./harness";
import { expectNoPlainSecrets } from "./secrets";

const PROJECT = "vastai-quickstart";
const FLEET_SIZE = 2;

describeE2E("issue 24 item 2: quickstart under the real engine", () => {
  let sim: Simulator;
  let stack: E2EStack;
  let before: { instances: number; templates: number; sshKeys: number };
  let instanceId: string;
  let members: string[];

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, bootMs: 50, marketOffers: 16 });
    const s = sim.state();
    before = { instances: s.instances.length, templates: s.templates.length, sshKeys: s.sshKeys.length };
    stack = await e2eStack({
      project: PROJECT,
      program: exampleProgram("quickstart"),
      sim,
      config: { [`${PROJECT}:sshPublicKey`]: PUBLIC_KEY, [`${PROJECT}:fleetSize`]: String(FLEET_SIZE) },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  test("24.2 preview shows every resource as a create and writes nothing to the service", async () => {
    await simControl(sim, "DELETE", "/requests");
    const { ops } = await stack.preview();
    expect(ops).toEqual({ "StackIdentity stack": ["create"], "SshKey laptop": ["create"], "Template pytorch": ["create"], "Instance gpu": ["create"], "Fleet workers": ["create"] });
    const writes = (await requestLog(sim)).filter((r) => r.method !== "GET" && !/\/bundles\/?$|\/search\//.test(r.path));
    expect(writes).toEqual([]);
    expect(sim.state().instances).toHaveLength(before.instances);
  });

  test("24.2 up creates the stack; the instance and the fleet run on the simulator", async () => {
    const up = await stack.up();
    expect(up.ops).toEqual({ "StackIdentity stack": ["create"], "SshKey laptop": ["create"], "Template pytorch": ["create"], "Instance gpu": ["create"], "Fleet workers": ["create"] });
    instanceId = String(up.outputs.instanceId);
    members = (up.outputs.fleetMembers as number[]).map(String);
    expect(members).toHaveLength(FLEET_SIZE);
    expect(up.outputs.fleetHealthy).toBe(FLEET_SIZE);
    const live = new Map(sim.state().instances.map((i) => [String(i.id), i]));
    for (const id of [instanceId, ...members]) expect(live.get(id)?.actual_status).toBe("running");
  });

  test("24.2 a second up with --expect-no-changes passes: every resource is the same", async () => {
    const up = await stack.up({ expectNoChanges: true });
    expect(new Set(Object.values(up.ops).flat())).toEqual(new Set(["same"]));
  });

  test("24.2 stack export: the API key is encrypted, and __provider holds no secret", async () => {
    const text = await stack.exportText();
    expectNoPlainSecrets(text, [sim.apiKey]);
  });

  test("24.2 an instance killed through the control API is replaced by up --refresh, and the fleet heals in the same run", async () => {
    const killedMember = members[0];
    for (const id of [instanceId, killedMember]) await simControl(sim, "POST", `/instances/${id}/status`, { actual_status: "exited" });
    const up = await stack.up({ refresh: true });
    expect(up.ops["Instance gpu"]).toEqual(expect.arrayContaining(["refresh", "replace"]));
    expect(up.ops["Template pytorch"]).toEqual(["refresh", "same"]);
    const newId = String(up.outputs.instanceId);
    expect(newId).not.toBe(instanceId);
    const after = (up.outputs.fleetMembers as number[]).map(String);
    expect(after).toHaveLength(FLEET_SIZE);
    expect(after).not.toContain(killedMember);
    expect(up.outputs.fleetHealthy).toBe(FLEET_SIZE);
    const live = new Map(sim.state().instances.map((i) => [String(i.id), i]));
    expect(live.has(instanceId)).toBe(false); // the dead one is destroyed, not orphaned
    expect(live.get(newId)?.actual_status).toBe("running");
    instanceId = newId;
    members = after;
  });

  test("24.2 a new template tag updates the template and the instance in place (same id)", async () => {
    await stack.stack.setConfig(`${PROJECT}:imageTag`, { value: "2.5.1-cuda12.4-cudnn9-runtime" });
    const up = await stack.up();
    expect(up.ops["Template pytorch"]).toEqual(["update"]);
    expect(up.ops["Instance gpu"]).toEqual(["update"]);
    expect(up.ops["Fleet workers"]).toEqual(["same"]);
    expect(String(up.outputs.instanceId)).toBe(instanceId);
  });

  test("24.2 a changed offer filter replaces the live instance: a new instance runs, the old one is deleted", async () => {
    // Another GPU: the simulator's one RTX 4090 is held by the live instance until the replacement runs.
    await stack.stack.setConfig(`${PROJECT}:gpuName`, { value: "RTX A6000" });
    const up = await stack.up();
    expect(up.ops["Instance gpu"]).toEqual(["create-replacement", "replace", "delete-replaced"]);
    const newId = String(up.outputs.instanceId);
    expect(newId).not.toBe(instanceId);
    const live = new Map(sim.state().instances.map((i) => [String(i.id), i]));
    expect(live.get(newId)?.actual_status).toBe("running");
    expect(live.has(instanceId)).toBe(false);
    instanceId = newId;
  });

  test("24.2 an out-of-band label change shows as drift in pulumi refresh", async () => {
    const res = await fetch(`${sim.url}/api/v0/instances/${instanceId}/`, {
      method: "PUT",
      headers: { authorization: `Bearer ${sim.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ label: "changed-by-hand" }),
    });
    expect(res.ok).toBe(true);
    const refreshed = await stack.refresh();
    expect(refreshed.changes.update).toBe(1);
    expect(refreshed.stdout).toMatch(/Instance gpu updated .*\[diff: ~label\]/);
    // The next up puts the declared label back.
    const up = await stack.up();
    expect(up.ops["Instance gpu"]).toEqual(["update"]);
    expect(sim.state().instances.find((i) => String(i.id) === instanceId)?.label).toBe("quickstart");
  });

  test("24.2 destroy deletes everything and leaves nothing on the simulator", async () => {
    const { ops } = await stack.destroy();
    expect(new Set(Object.values(ops).flat())).toEqual(new Set(["delete"]));
    const s = sim.state();
    expect({ instances: s.instances.length, templates: s.templates.length, sshKeys: s.sshKeys.length }).toEqual(before);
  });
});
