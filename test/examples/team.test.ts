/** examples/team through the testing kit's mocks: a cluster, an overlay on it and a two-member Fleet joined to it. */
import { runExample, type ExampleRun } from "./run-example";
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import * as pulumi from "@pulumi/pulumi";
import * as vastai from "pulumi-vastai";
import { startTestStack, type TestStack } from "pulumi-vastai/testing";
import { scratchProject } from "../contract/harness";
import { SEED } from "pulumi-vastai/simulator";

let run: ExampleRun;

beforeAll(async () => {
  run = await runExample({
    project: "vastai-team",
    config: { "vastai-team:managerMachineId": "50001", "vastai-team:workerMachineId": "50002" },
    load: () => require("../../examples/team/index"),
  });
});

test("27.2 declares a cluster of two hosted machines and an overlay network on it", () => {
  const cluster = run.get("Cluster", "rack");
  expect(cluster.inputs).toMatchObject({ subnet: "10.10.0.0/24", managerMachineId: 50001 });
  expect(run.get("ClusterMember", "node-2").inputs).toMatchObject({ clusterId: cluster.outputs.clusterId, machineId: 50002 });
  expect(run.get("Overlay", "team-net").inputs).toMatchObject({ clusterId: cluster.outputs.clusterId, name: "team-net" });
});

test("27.2 declares a two-member Fleet whose members join the overlay, and exports what a team needs", () => {
  const fleet = run.get("Fleet", "trainers");
  expect(fleet.inputs).toMatchObject({ count: 2, overlay: run.get("Overlay", "team-net").outputs.name, spread: { by: "machine", max: 1 } });
  expect(run.ofType("Instance").map((r) => r.name)).toEqual(["notebook"]);
  expect(run.outputs).toMatchObject({ clusterId: run.get("Cluster", "rack").outputs.clusterId, overlayId: run.get("Overlay", "team-net").outputs.overlayId, healthy: 2 });
  expect(run.outputs.memberIds).toHaveLength(2);
});

test("27.1/27.5 declares a team with a role and an invited member, and weekday office hours for the interruptible notebook", () => {
  expect(run.get("Team", "ml-team").inputs).toMatchObject({ name: "ml-research" });
  expect(run.get("TeamRole", "researcher").inputs).toMatchObject({ name: "researcher", permissions: { instances: "write", user: "read", billing: "read" } });
  expect(run.get("TeamMember", "ana").inputs).toMatchObject({ email: "ana@example.com", role: "researcher" });
  const notebook = run.get("Instance", "notebook");
  expect(notebook.inputs).toMatchObject({ bidPricePerHour: 0.25, schedule: { days: ["mon", "tue", "wed", "thu", "fri"], start: "08:00", end: "20:00", timeZone: "Europe/Berlin" } });
  expect(run.ofType("ScheduledJob")).toEqual([]);
});

// ---- the same program through the testing kit, against the simulator ----------------------


/** examples/team/index.ts as a program, compiled as written, its imports served from the package under test. */
function teamProgram(): () => Record<string, unknown> {
  const dir = path.join(__dirname, "..", "..", "examples", "team");
  const js = ts.transpileModule(fs.readFileSync(path.join(dir, "index.ts"), "utf8"), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText;
  const modules: Record<string, unknown> = { "pulumi-vastai": vastai, "@pulumi/pulumi": pulumi };
  return () => {
    const exports: Record<string, unknown> = {};
    new Function("require", "exports", js)((id: string) => modules[id], exports);
    return exports;
  };
}

let stack: TestStack | undefined;
afterAll(async () => {
  await stack?.close();
});

test("27.2 runs through the testing kit on the simulator: the fleet's two members are on the overlay, and destroy leaves nothing", async () => {
  stack = await startTestStack({ cwd: scratchProject().dir, project: "vastai-team", config: { "vastai:pollIntervalMs": "5" } });
  // The fleet trains on cluster 41, a cluster of the market's hosts (its members can be rented there: two of its machines within 1.5 $/h).
  const up = await stack.up(teamProgram(), { "vastai-team:managerMachineId": "50001", "vastai-team:workerMachineId": "50002", "vastai-team:siteClusterId": String(SEED.marketClusters[0].id), "vastai-team:maxPricePerHour": "1.5" });
  expect(up.outcomes.filter((o) => o.outcome === "failed")).toEqual([]);
  expect(up.outcomes.map((o) => `${o.type} ${o.name}`).sort()).toEqual(expect.arrayContaining(["Cluster rack", "ClusterMember node-2", "Fleet trainers", "Overlay team-net", "Team ml-team", "TeamRole researcher", "TeamMember ana", "Instance notebook"]));
  const client = vastai.createClient({ apiKey: stack.sim.apiKey, apiUrl: stack.sim.url, runUrl: stack.sim.runUrl, pacing: false });
  expect((await client.clusters.list()).map((c) => c.nodes.map((n) => n.machineId))).toEqual([[50001, 50002]]);
  expect([up.outputs.managerIp, up.outputs.node2Ip]).toEqual(["10.10.0.1", "10.10.0.2"]);
  const [overlay] = await client.clusters.overlays();
  expect(overlay.name).toBe("team-net");
  expect([...overlay.instanceIds].sort()).toEqual([...(up.outputs.memberIds as number[])].sort());
  expect(overlay.instanceIds).toHaveLength(2);
  // The team: its role, the invitation pending until accepted; the notebook's office hours (a daily stop, a start per weekday).
  expect((await client.teams.roles()).map((r) => r.name)).toContain("researcher");
  expect(up.outputs.memberPending).toBe(true);
  const jobs = await client.scheduledJobs.list();
  expect(jobs.filter((j) => j.instanceId === up.outputs.notebookId)).toHaveLength(6);
  await stack.destroy();
  expect(stack.sim.state().instances).toEqual([]);
  expect(await client.clusters.list()).toEqual([]);
  expect(await client.clusters.overlays()).toEqual([]);
  expect(await client.scheduledJobs.list()).toEqual([]);
}, 300_000);
