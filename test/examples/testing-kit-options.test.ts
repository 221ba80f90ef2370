/**
 * Issue 25 items 1 and 2: the offline engine of `pulumi-vastai/testing` honours resource options
 * as `pulumi up` does (or refuses clearly what it cannot), and a failed step says what was done,
 * which resource failed (`Type name`) and why. Through Pulumi's real plugin in a project with the
 * packed package installed, against the simulator over HTTP on 127.0.0.1.
 */
import * as pulumi from "@pulumi/pulumi";
import { EnvVar, Instance, Template } from "pulumi-vastai";
import { StepFailedError, startTestStack, type StepReport, type TestStack } from "pulumi-vastai/testing";
import { scratchProject } from "../contract/harness";
import { FAST_PLUGIN_CONFIG } from "../support/plugin-timing";
import { simControl } from "../support/control";

interface Logged {
  method: string;
  path: string;
}

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ cwd: scratchProject().dir, project: "opts", stack: "dev", config: FAST_PLUGIN_CONFIG });
}, 180_000);
afterAll(() => stack?.close());
afterEach(async () => {
  // Leave nothing for the next test, whatever options the last program set. A stack whose
  // state is empty (the test ended with a destroy) has nothing to remove: each step would only
  // start a plugin process (issue 28 item 6).
  if ((stack.engine as unknown as { state: unknown[] }).state.length === 0) return;
  await stack.up(() => ({})).catch(() => undefined);
  await stack.destroy().catch(() => undefined);
});

const outcomes = (r: StepReport) => r.outcomes.map((o) => `${o.type} ${o.name}: ${o.outcome}`).sort();
const secretNames = () => stack.sim.state().secrets.map((s) => s.name).sort();
/** The templates these tests made (the simulator also holds seeded public ones). */
const templates = () => (stack.sim.state().templates as { name: string; tag: string; hash_id: string }[]).filter((t) => t.name.startsWith("opts-"));

async function failureOf(step: Promise<unknown>): Promise<StepFailedError> {
  const err = await step.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(StepFailedError);
  return err as StepFailedError;
}

async function writes(during: () => Promise<unknown>): Promise<string[]> {
  await simControl(stack.sim.url, "DELETE", "/requests");
  await during();
  const log = await simControl<Logged[]>(stack.sim.url, "GET", "/requests");
  return log.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
}

describe("issue 25 item 1: resource options in the offline engine", () => {
  it("25.1 protect: destroy and removing the resource fail, naming it, and nothing is deleted", async () => {
    const guarded = (protect: boolean) => () => void new EnvVar("token", { key: "KEEP_ME", value: "v" }, { protect });
    await stack.up(guarded(true));

    const destroyed = await failureOf(stack.destroy());
    expect(destroyed.message).toMatch(/EnvVar token: it is protected \(protect: true\)/);
    expect(destroyed.report.outcomes).toEqual([expect.objectContaining({ type: "EnvVar", name: "token", outcome: "failed" })]);
    const removed = await failureOf(stack.up(() => ({})));
    expect(removed.message).toMatch(/EnvVar token: .*protect: false, run up/);
    expect(secretNames()).toEqual(["KEEP_ME"]);

    await stack.up(guarded(false));
    await stack.destroy();
    expect(secretNames()).toEqual([]);
  }, 60_000);

  it("25.1 protect: a change that replaces a protected resource fails before touching it", async () => {
    await stack.up(() => void new EnvVar("token", { key: "OLD_NAME", value: "v" }, { protect: true }));
    const err = await failureOf(stack.up(() => void new EnvVar("token", { key: "NEW_NAME", value: "v" }, { protect: true })));
    expect(err.message).toContain("pulumi would refuse to replace it");
    expect(secretNames()).toEqual(["OLD_NAME"]);
    await stack.up(() => void new EnvVar("token", { key: "OLD_NAME", value: "v" }));
  }, 60_000);

  it("25.1 retainOnDelete: destroy removes it from the stack and leaves it on the service", async () => {
    await stack.up(() => void new EnvVar("kept", { key: "RETAINED", value: "v" }, { retainOnDelete: true }));
    const destroyed = await stack.destroy();
    expect(destroyed.outcomes).toEqual([expect.objectContaining({ name: "kept", outcome: "deleted", retained: true })]);
    expect(secretNames()).toEqual(["RETAINED"]);
    expect(stack.engine.ids()).toEqual({});
    await simControl(stack.sim.url, "POST", "/reset").catch(() => undefined);
  }, 60_000);

  it("25.1 ignoreChanges: an ignored property keeps its deployed value; others still update", async () => {
    const program = (tag: string, env: string) => () =>
      void new Template("base", { name: "opts-base", image: "pytorch/pytorch", tag, env: { MODE: env } }, { ignoreChanges: ["tag"] });
    await stack.up(program("2.4.0", "a"));
    const ignored = await stack.up(program("2.5.0", "a"));
    expect(outcomes(ignored)).toEqual(["Template base: unchanged"]);
    expect(templates().map((t) => t.tag)).toEqual(["2.4.0"]);
    const other = await stack.up(program("2.5.0", "b"));
    expect(outcomes(other)).toEqual(["Template base: updated"]);
    expect(templates().map((t) => t.tag)).toEqual(["2.4.0"]);
  }, 60_000);

  it("25.1 replaceOnChanges: a change the provider applies in place replaces the resource", async () => {
    const program = (tag: string) => () => void new Template("base", { name: "opts-roc", image: "pytorch/pytorch", tag }, { replaceOnChanges: ["tag"] });
    await stack.up(program("2.4.0"));
    const before = templates()[0].hash_id;
    const replaced = await stack.up(program("2.5.0"));
    expect(outcomes(replaced)).toEqual(["Template base: replaced"]);
    const after = templates();
    expect(after.map((t) => t.tag)).toEqual(["2.5.0"]);
    expect(after[0].hash_id).not.toBe(before);
  }, 60_000);

  it("25.1 deleteBeforeReplace: the old object is deleted before the new one is created", async () => {
    const program = (key: string, deleteBeforeReplace: boolean) => () => void new EnvVar("swap", { key, value: "v" }, { deleteBeforeReplace });
    await stack.up(program("FIRST", false));
    const createFirst = await writes(() => stack.up(program("SECOND", false)));
    expect(createFirst.map((w) => w.split(" ")[0])).toEqual(["POST", "DELETE"]);
    const deleteFirst = await writes(() => stack.up(program("THIRD", true)));
    expect(deleteFirst.map((w) => w.split(" ")[0])).toEqual(["DELETE", "POST"]);
    expect(secretNames()).toEqual(["THIRD"]);
  }, 60_000);

  it("25.1 dependsOn: created after, deleted before what it depends on", async () => {
    const program = () => {
      const first = new EnvVar("first", { key: "FIRST_VAR", value: "v" });
      new EnvVar("second", { key: "SECOND_VAR", value: "v" }, { dependsOn: [first] });
    };
    const created = await writes(() => stack.up(program));
    expect(created).toHaveLength(2);
    const log = await simControl<(Logged & { body: { key?: string } })[]>(stack.sim.url, "GET", "/requests");
    expect(log.filter((r) => r.method === "POST").map((r) => r.body?.key)).toEqual(["FIRST_VAR", "SECOND_VAR"]);
    const destroyed = await stack.destroy();
    expect(destroyed.outcomes.map((o) => o.name)).toEqual(["second", "first"]);
  }, 60_000);

  it("25.1 parent: the child of a component is deployed and destroyed with the stack", async () => {
    class Workspace extends pulumi.ComponentResource {
      constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
        super("acme:index:Workspace", name, {}, opts);
        new EnvVar(`${name}-var`, { key: "IN_COMPONENT", value: "v" }, { parent: this });
        this.registerOutputs({});
      }
    }
    const up = await stack.up(() => void new Workspace("ws"));
    expect(outcomes(up)).toEqual(["EnvVar ws-var: created"]);
    expect(secretNames()).toEqual(["IN_COMPONENT"]);
    const again = await stack.up(() => void new Workspace("ws"));
    expect(outcomes(again)).toEqual(["EnvVar ws-var: unchanged"]);
    const destroyed = await stack.destroy();
    expect(outcomes(destroyed)).toEqual(["EnvVar ws-var: deleted"]);
    expect(secretNames()).toEqual([]);
  }, 60_000);

  it("25.1 aliases: renaming with an alias keeps the object (unchanged, same id)", async () => {
    await stack.up(() => void new EnvVar("old-name", { key: "ALIASED", value: "v" }));
    const id = stack.engine.ids()["EnvVar::old-name"];
    const renamed = await stack.up(() => void new EnvVar("new-name", { key: "ALIASED", value: "v" }, { aliases: [{ name: "old-name" }] }));
    expect(outcomes(renamed)).toEqual(["EnvVar new-name: unchanged"]);
    expect(stack.engine.ids()).toEqual({ "EnvVar::new-name": id });
    expect(secretNames()).toEqual(["ALIASED"]);
  }, 60_000);

  it("25.1 options it cannot honour (import) fail the step and say so", async () => {
    const err = await failureOf(stack.up(() => void new EnvVar("adopted", { key: "ADOPT", value: "v" }, { import: "ADOPT" })));
    expect(err.message).toMatch(/EnvVar adopted: the import resource option \(or get\) with id "ADOPT" cannot reach a dynamic provider.*take the object over with the input importId/);
    expect(secretNames()).toEqual([]);
  }, 60_000);
});

describe("issue 25 item 2: a failed step returns its report", () => {
  it("25.2 up that fails part-way: what was done, which resource failed (Type name) and why", async () => {
    const program = () => {
      const template = new Template("base", { name: "opts-fail", image: "pytorch/pytorch", tag: "2.4.0" });
      new Instance("gpu", { offerId: 999_999_999, templateHashId: template.hashId, label: "nowhere" });
    };
    const err = await failureOf(stack.up(program));
    expect(err.step).toBe("up");
    expect(err.report.outcomes).toEqual([
      expect.objectContaining({ type: "Template", name: "base", outcome: "created" }),
      expect.objectContaining({ type: "Instance", name: "gpu", outcome: "failed", error: expect.any(String) }),
    ]);
    expect(err.message).toMatch(/^up failed:\n {2}Instance gpu: .+\ndone before the failure: Template base created$/);
    expect(err.message).not.toMatch(/Instance gpu: Instance/);
    // What was made stays in state, so destroy removes it.
    await stack.destroy();
    expect(templates()).toEqual([]);
  }, 60_000);
});
