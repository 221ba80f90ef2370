/**
 * The faults that once left objects behind or lost track of them: each cell of the fault matrix
 * that found a bug, with the outcome the fix gives (a cell with an orphan, a duplicate or a
 * state that differs from the live one has a problem as its outcome instead).
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

describe("a create or edit whose response was lost leaves nothing behind", () => {
  it.each([
    // The resend of identical content is answered with the template the lost request made.
    ["Template", "create", "drop-after", "adopted"],
    ["Template", "create", "slow", "adopted"],
    // The edit is made again on the live hash: the state records the hash the service holds.
    ["Template", "update", "drop-after", "retried-ok"],
    ["Template", "update", "slow", "retried-ok"],
    // Looked for over the look-up window, not once right away.
    ["SshKey", "create", "slow", "adopted"],
    ["EnvVar", "create", "drop-after", "adopted"],
    ["EnvVar", "create", "slow", "adopted"],
    // A key whose value was lost can never be used: it is deleted and made again.
    ["ApiKey", "create", "drop-after", "retried-ok"],
    ["ApiKey", "create", "slow", "retried-ok"],
    // Rotated again, so the keys in state are the ones that work.
    ["SubaccountKeyRotation", "create", "drop-after", "retried-ok"],
    ["SubaccountKeyRotation", "create", "slow", "retried-ok"],
    // The windows of a lost batch are waited for, so the rollback cancels them too.
    ["MaintenanceWindow", "create", "slow", "clear-error"],
  ] as const)("%s.%s under %s: %s", async (name, op, faultName, expected) => {
    // A cell with a problem (an orphan, a duplicate, a difference) has the problem as its outcome, and says why.
    const { outcome, detail } = await cell(name, op, faultName);
    expect({ outcome, detail }).toEqual({ outcome: expected, detail: expected === "clear-error" ? expect.any(String) : "" });
  });
});
