/**
 * Property-based tests of every provider's `check`: arbitrary input never throws and never
 * reaches the service; valid input passes, and what check returns passes again unchanged
 * (so a second `pulumi up` sees the same inputs).
 */
import fc from "fast-check";
import type { ResourceKind } from "../../provider/runtime";
import { driven, PROVIDER_TEXT, type Props } from "./support/drive";
import { profile } from "./support/profile";
import { Rig, startRig } from "./support/rig";
import { VALID, arbitraryInputs } from "./support/valid-inputs";

const KINDS = Object.keys(VALID) as ResourceKind[];
const RUNS = { arbitrary: 300, valid: 150 };

let rig: Rig;
beforeAll(async () => {
  rig = await startRig(profile());
  await rig.clearRequests();
});
afterAll(() => rig?.close());

describe.each(KINDS.map((k) => [k] as const))("%s check", (kind) => {
  const provider = driven(kind);

  it("never throws on arbitrary inputs, answers with inputs and failures, and sends nothing", async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryInputs(kind), arbitraryInputs(kind), async (olds, news) => {
        const result = await provider.check(olds, { ...news, __provider: PROVIDER_TEXT });
        expect(Array.isArray(result.failures ?? [])).toBe(true);
        for (const f of result.failures ?? []) expect(typeof f.property === "string" && typeof f.reason === "string").toBe(true);
        expect((result.inputs as Props).__provider).toBe(PROVIDER_TEXT);
      }),
      { numRuns: RUNS.arbitrary },
    );
    expect(await rig.requests()).toEqual([]);
  });

  it("passes valid inputs, passes what it returned again unchanged, and sends nothing", async () => {
    await fc.assert(
      fc.asyncProperty(VALID[kind], async (news) => {
        const first = await provider.check({}, { __provider: PROVIDER_TEXT, ...news });
        expect(first.failures ?? []).toEqual([]);
        const again = await provider.check({}, first.inputs as Props);
        expect(again.failures ?? []).toEqual([]);
        expect(again.inputs).toEqual(first.inputs);
      }),
      { numRuns: RUNS.valid },
    );
    expect(await rig.requests()).toEqual([]);
  });
});

afterAll(() => {
  process.stdout.write(
    `\nProperty tests of check: ${KINDS.length} resources x (${RUNS.arbitrary} arbitrary + ${RUNS.valid} valid inputs); 0 requests reached the simulator\n`,
  );
});
