/**
 * The demo's reporting: how the Pulumi CLI's step events become outcomes, and the table.
 * (The CLI path itself needs the `pulumi` binary; these pin what it does with its events.)
 */
import * as fs from "fs";
import * as path from "path";
import type { EngineEvent, OpType } from "@pulumi/pulumi/automation";
import { cliFailureReason, outcomeOf } from "../../examples/demo/cli-engine";
import { STEPS } from "../../examples/demo/scenario";
import { formatTable, mergeOutcomes, type StepRow } from "pulumi-vastai/testing";

const urn = (type: string, name: string) => `urn:pulumi:demo::vastai-quickstart::${type}::${name}`;

function pre(op: OpType, type: string, name: string): EngineEvent {
  return { sequence: 1, timestamp: 0, resourcePreEvent: { metadata: { op, urn: urn(type, name), type, provider: "" } } } as EngineEvent;
}

const INSTANCE = "pulumi-nodejs:dynamic/vastai:Instance";
const TEMPLATE = "pulumi-nodejs:dynamic/vastai:Template";

test("a create-before-delete replacement's three steps count as one replacement", () => {
  const ops = ["create-replacement", "replace", "delete-replaced"].map((op) => outcomeOf(pre(op as OpType, INSTANCE, "gpu"))!);
  expect(mergeOutcomes(ops)).toEqual([{ type: "Instance", name: "gpu", outcome: "replaced" }]);
});

test("maps create, update, same and delete steps, and ignores the stack and non-step events", () => {
  expect(outcomeOf(pre("create", TEMPLATE, "pytorch"))).toEqual({ type: "Template", name: "pytorch", outcome: "created" });
  expect(outcomeOf(pre("update", TEMPLATE, "pytorch"))?.outcome).toBe("updated");
  expect(outcomeOf(pre("same", TEMPLATE, "pytorch"))?.outcome).toBe("unchanged");
  expect(outcomeOf(pre("delete", TEMPLATE, "pytorch"))?.outcome).toBe("deleted");
  expect(outcomeOf(pre("create", "pulumi:pulumi:Stack", "vastai-quickstart-demo"))).toBeUndefined();
  expect(outcomeOf({ sequence: 2, timestamp: 0, stdoutEvent: { message: "hi", color: "never" } } as EngineEvent)).toBeUndefined();
});

test("a CLI failure is reduced to its error lines", () => {
  const err = new Error(
    "code: 255\n stdout: Updating (demo):\n  pulumi:pulumi:Stack vastai-quickstart-demo running\n\n stderr: error: update failed\n    error: Instance: no offer matches the offer filters {\"gpuName\":\"X\"}\n",
  );
  expect(cliFailureReason(err)).toBe("error: update failed\nerror: Instance: no offer matches the offer filters {\"gpuName\":\"X\"}");
});

test("the table has one row per step and one column per resource, in order of appearance", () => {
  const table = formatTable([
    { title: "1. up", ms: 1234, outcomes: [{ type: "SshKey", name: "laptop", outcome: "created" }, { type: "Instance", name: "gpu", outcome: "created" }] },
    { title: "2. destroy", ms: 500, outcomes: [{ type: "Instance", name: "gpu", outcome: "deleted" }] },
  ]).split("\n");
  expect(table[0]).toBe("step        SshKey laptop  Instance gpu  time");
  expect(table[2]).toBe("1. up       created        created       1.2 s");
  expect(table[3]).toBe("2. destroy  -              deleted       0.5 s");
});

test("the README's demo table is the table the demo prints when every step does what it checks", () => {
  const readme = fs.readFileSync(path.join(__dirname, "..", "..", "README.md"), "utf8");
  const shown = /```\n(step {2}[\s\S]*?)\n```/.exec(readme)?.[1];
  if (!shown) throw new Error("README has no demo table (a block starting with `step`)");
  const lines = shown.split("\n");
  const steps = Object.values(STEPS);
  expect(lines).toHaveLength(2 + steps.length);
  // The times are the README's; titles, columns and outcomes are the scenario's checks.
  const rows: StepRow[] = steps.map((step, i) => {
    const time = /(\d+\.\d) s$/.exec(lines[2 + i])?.[1];
    if (!time) throw new Error(`README demo table row ${i + 1} has no time: ${lines[2 + i]}`);
    const outcomes = Object.entries(step.expect).map(([label, outcome]) => {
      const [type, name] = label.split(" ");
      return { type, name, outcome };
    });
    return { title: step.title, outcomes, ms: Math.round(Number(time) * 1000) };
  });
  expect(shown).toBe(formatTable(rows));
  // The fleet step: two members killed, the one up heals the fleet beside the replaced instance.
  expect(lines[3]).toMatch(/^2\. instance \+ 2 fleet members exited, up +unchanged +unchanged +replaced +updated +\d+\.\d s$/);
});
