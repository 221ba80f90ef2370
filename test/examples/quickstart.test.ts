import { DEMO_PUBLIC_KEY } from "../../examples/demo/scenario";
import { runExample, type ExampleRun } from "./run-example";

let run: ExampleRun;

beforeAll(async () => {
  run = await runExample({
    project: "vastai-quickstart",
    config: { "vastai-quickstart:sshPublicKey": DEMO_PUBLIC_KEY },
    load: () => require("../../examples/quickstart/index"),
  });
});

test("by default registers an SSH key, a template and one instance, and no fleet", () => {
  expect(run.registrations.map((r) => `${r.type} ${r.name}`).sort()).toEqual(["Instance gpu", "SshKey laptop", "Template pytorch"]);
  expect(run.outputs.fleetMembers).toBeUndefined();
  expect(run.outputs.fleetHealthy).toBeUndefined();
  expect(run.get("SshKey", "laptop").inputs.publicKey).toBe(DEMO_PUBLIC_KEY);
});

test("the template is an SSH pytorch image with the default tag", () => {
  const template = run.get("Template", "pytorch").inputs;
  expect(template).toMatchObject({ image: "pytorch/pytorch", tag: "2.4.0-cuda12.4-cudnn9-runtime", runtype: "ssh", useSsh: true });
});

test("the instance rents from offer filters and uses the template's hashId and the key's id", () => {
  const instance = run.get("Instance", "gpu").inputs;
  expect(instance.offer).toEqual({ gpuName: "RTX 4090", numGpus: 1, maxPricePerHour: 0.5, minReliability: 0.98 });
  expect(instance.offerId).toBeUndefined();
  expect(instance.templateHashId).toBe("hash-of-pytorch");
  expect(instance.sshKeyIds).toEqual([run.get("SshKey", "laptop").outputs.keyId]);
});

test("exports the SSH command built from the instance's host and port", () => {
  expect(run.outputs.sshCommand).toMatch(/^ssh -p \d+ root@203\.0\.113\.7$/);
  expect(run.outputs.instanceId).toBe(run.get("Instance", "gpu").outputs.instanceId);
});

test("34 the instance stops itself after 30 idle minutes (autostop), and exports who stopped it", () => {
  const instance = run.get("Instance", "gpu").inputs;
  expect(instance.autostop).toEqual({ idleMinutes: 30, gpuUtilBelowPercent: 5, action: "stop" });
  expect(instance.wake).toBeUndefined();
  expect("stoppedBy" in run.outputs).toBe(true);
});
