/**
 * The faults that once left objects behind or lost track of them, one test each: each cell of
 * the fault matrix that found a bug, with the outcome the fix gives.
 */
import { SEED } from "pulumi-vastai/simulator";
import { VastOperationError } from "../../provider/client";
import { getClient } from "../../provider/context";
import { FAULTS, type FaultKind } from "./support/faults";
import { runCell } from "./support/matrix";
import { profile } from "./support/profile";
import { Rig, startRig } from "./support/rig";
import { SCENARIOS, SECRET_VALUES } from "./support/scenarios";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig(profile(), { apiKey: SECRET_VALUES.apiKey });
});
afterAll(() => rig?.close());
beforeEach(async () => {
  await rig.reset();
  rig.freshClient();
});

const scenario = (name: string) => SCENARIOS.find((s) => s.name === name)!;
const fault = (name: string): FaultKind => FAULTS.find((f) => f.name === name)!;

async function cell(name: string, op: "create" | "read" | "update" | "delete", faultName: string) {
  const s = scenario(name);
  const result = await runCell(rig, s, op, s.targets[op], fault(faultName));
  return { outcome: result.outcome, detail: result.detail ?? "" };
}

describe("template search", () => {
  it("reads a refusal with an error code as a failure, not as 'no templates'", async () => {
    await rig.fault({ method: "GET", path: "/api/v0/template", status: 200, body: { success: false, error: "internal_error", msg: "Try again" } });
    const error = await getClient().templates.search({ id: { eq: SEED.publicTemplates[0].id } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VastOperationError);
    expect((error as Error).message).toMatch(/^GET \/api\/v0\/template\/ failed: the service answered success=false internal_error: Try again/);
  });

  it("still reads 'No templates found' as an empty result", async () => {
    await expect(getClient().templates.search({ name: { eq: "no such template" } })).resolves.toEqual([]);
  });

  it("keeps a live template in state when its refresh is refused", async () => {
    expect(await cell("Template", "read", "success-false")).toEqual({ outcome: "clear-error", detail: expect.stringContaining("success=false internal_error") });
  });
});
