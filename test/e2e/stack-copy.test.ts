/**
 * Issue 33 item 2 under the real engine: `pulumi stack export | pulumi stack import` under
 * another stack name (the stack name in the URNs rewritten) gives the second stack the first
 * one's identity. Its `up` is refused
 * (naming both fully qualified names, as the CLI gives them on a self-managed backend) before
 * anything is made or found by marker; asked for a fresh nonce, it makes its own objects and
 * leaves the first stack's alone. The copy's state holds the first stack's objects by id (the
 * import copied them), so they are dropped from it with `pulumi state delete` first, as
 * docs/sharing-an-account.md says.
 */
import * as pulumi from "@pulumi/pulumi";
import { Stack } from "@pulumi/pulumi/automation";
import { ApiKey, Volume } from "pulumi-vastai";
import { startSimulator, type Simulator } from "pulumi-vastai/simulator";
import { describeE2E, e2eStack, simConfig, type E2EStack } from "./harness";

const PROJECT = "vastai-copy";

describeE2E("issue 33 item 2: a stack imported under another name", () => {
  let sim: Simulator;
  let first: E2EStack;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, bootMs: 0 });
    const program = async () => {
      const volume = new Volume("data", { offerId: 900001, sizeGb: 10, name: "data" });
      const key = new ApiKey("ci", { name: "ci", permissions: { instances: "read" } });
      return { volumeId: volume.volumeId as pulumi.Output<number>, keyId: key.id };
    };
    first = await e2eStack({ project: PROJECT, program, sim });
  });
  afterAll(async () => {
    await first?.close();
    await sim?.close();
  });

  test("33.2 the copy is refused until it asks for a fresh nonce; then it makes its own objects and the first stack's stay", async () => {
    const up = await first.up();
    const volumeId = Number(up.outputs.volumeId);
    const keyId = Number(up.outputs.keyId);

    // The copy: the first stack's deployment imported under another stack name, its URNs
    // rewritten to it (`pulumi stack import` refuses resources of another stack without --force).
    const copy = await Stack.create("copy", first.stack.workspace);
    await copy.setAllConfig(simConfig(sim));
    const exported = await first.stack.exportStack();
    await copy.importStack(JSON.parse(JSON.stringify(exported).replaceAll(`urn:pulumi:e2e::`, `urn:pulumi:copy::`)) as typeof exported);
    // Its state holds the first stack's objects by id: drop them, keeping the identity.
    for (const r of (await copy.exportStack()).deployment.resources as Array<{ urn: string; type: string }>) {
      if (/vastai:(Volume|ApiKey)$/.test(r.type)) {
        const dropped = await first.cli(["state", "delete", r.urn, "--stack", "copy", "--yes"]);
        expect(dropped.code).toBe(0);
      }
    }

    const refused = await copy.up({ color: "never" }).then(
      () => "succeeded",
      (error: Error) => error.message,
    );
    expect(refused).toContain(`this stack is organization/${PROJECT}/copy, but its identity was made for organization/${PROJECT}/e2e`);
    expect(refused).toContain(`pulumi config set vastai:renamedFrom organization/${PROJECT}/e2e`);
    const asked = /pulumi config set vastai:newStackIdentity (\S+?)`/.exec(refused)?.[1];
    expect(asked).toBeDefined();
    expect(sim.state().volumes.map((v) => Number(v.id))).toEqual([volumeId]);
    expect(sim.state().apiKeys.map((k) => k.id)).toContain(keyId);

    await copy.setConfig("vastai:newStackIdentity", { value: asked! });
    const copied = await copy.up({ color: "never" });
    expect(Number(copied.outputs.volumeId.value)).not.toBe(volumeId);
    expect(Number(copied.outputs.keyId.value)).not.toBe(keyId);
    await copy.destroy({ color: "never" });
    // The first stack's objects are live and unchanged.
    expect(sim.state().volumes.map((v) => Number(v.id))).toEqual([volumeId]);
    expect(sim.state().apiKeys.map((k) => k.id)).toContain(keyId);
    await first.up({ expectNoChanges: true });
    await first.destroy();
    expect(sim.state().volumes).toEqual([]);
  });
});
