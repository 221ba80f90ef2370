/**
 * The quickstart with `fleetSize` set (as the demo sets it): a Fleet beside the instance, on an
 * image of its own, spread one member per machine. (Without it, quickstart.test.ts: no fleet.)
 */
import { DEMO_PUBLIC_KEY, FLEET_SIZE } from "../../examples/demo/scenario";
import { runExample, type ExampleRun } from "./run-example";

let run: ExampleRun;

beforeAll(async () => {
  run = await runExample({
    project: "vastai-quickstart",
    config: { "vastai-quickstart:sshPublicKey": DEMO_PUBLIC_KEY, "vastai-quickstart:fleetSize": String(FLEET_SIZE) },
    load: () => require("../../examples/quickstart/index"),
  });
});

test("registers a fleet of fleetSize members beside the key, the template and the instance", () => {
  expect(run.registrations.map((r) => `${r.type} ${r.name}`).sort()).toEqual(["Fleet workers", "Instance gpu", "SshKey laptop", "Template pytorch"]);
  expect(run.get("Fleet", "workers").inputs.count).toBe(FLEET_SIZE);
});

test("the fleet rents cheap single-GPU offers, one member per machine, under a per-member and a fleet budget", () => {
  expect(run.get("Fleet", "workers").inputs).toMatchObject({
    offer: { numGpus: 1, maxPricePerHour: 0.3, minReliability: 0.95 },
    spread: { by: "machine", max: 1 },
    maxPricePerHour: 0.3,
    maxHourlyCost: 0.9,
    sshKeyIds: [run.get("SshKey", "laptop").outputs.keyId],
  });
});

test("the fleet runs an image of its own, not the template, so a new imageTag leaves it as it is", () => {
  const fleet = run.get("Fleet", "workers").inputs;
  expect(fleet.templateHashId).toBeUndefined();
  expect(fleet.image).toBe("nvidia/cuda:12.4.1-base-ubuntu22.04");
  expect(String(fleet.image)).not.toContain(String(run.get("Template", "pytorch").inputs.tag));
});

test("exports the members' instance ids and how many run", () => {
  const members = run.get("Fleet", "workers").outputs.members as { id: number }[];
  expect(members).toHaveLength(FLEET_SIZE);
  expect(run.outputs.fleetMembers).toEqual(members.map((m) => m.id));
  expect(run.outputs.fleetHealthy).toBe(FLEET_SIZE);
});
