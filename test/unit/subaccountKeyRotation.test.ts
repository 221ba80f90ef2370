/** SubaccountKeyRotation check and diff: exactly one target, and what rotates again. */
import { PROVIDER_KEY, UNKNOWN } from "../../provider/resources/kit";
import { provider as impl } from "../../provider/resources/subaccountKeyRotation/provider";

describe("check", () => {
  it.each([
    ["one subaccount", { subaccountUserId: 10002 }],
    ["all", { all: true }],
    ["one subaccount with all: false", { subaccountUserId: 10002, all: false }],
  ])("accepts %s", async (_what, news) => {
    expect((await impl.check({}, news)).failures).toEqual([]);
  });

  it("refuses both, naming both properties", async () => {
    const { failures } = await impl.check({}, { subaccountUserId: 10002, all: true });
    expect(failures).toEqual([
      { property: "subaccountUserId", reason: "subaccountUserId, all: give exactly one of subaccountUserId or all: true (both were given)" },
    ]);
  });

  it.each([
    ["nothing", {}],
    ["all: false alone", { all: false }],
  ])("refuses neither (%s), naming both properties", async (_what, news) => {
    const { failures } = await impl.check({}, news);
    expect(failures).toEqual([
      { property: "subaccountUserId", reason: "subaccountUserId, all: give exactly one of subaccountUserId or all: true (neither was given)" },
    ]);
  });

  it("refuses a subaccount id that is not a positive integer", async () => {
    const { failures } = await impl.check({}, { subaccountUserId: 1.5 });
    expect(failures).toEqual([{ property: "subaccountUserId", reason: "subaccountUserId: must be an integer (got 1.5)" }]);
  });

  it("does not judge the target while it is unknown (preview)", async () => {
    expect((await impl.check({}, { subaccountUserId: UNKNOWN })).failures).toEqual([]);
    expect((await impl.check({}, { all: UNKNOWN })).failures).toEqual([]);
  });
});

describe("diff", () => {
  const olds = { [PROVIDER_KEY]: "p", all: true, triggers: "2025-05", regeneratedKeys: [{ userId: 1 }], rotatedAt: "2025-05-01T00:00:00.000Z" };

  it("ignores the outputs and the provider code", async () => {
    expect(await impl.diff("r", olds, { [PROVIDER_KEY]: "q", all: true, triggers: "2025-05" })).toMatchObject({ changes: false });
  });

  it("replaces (rotates again) when triggers change", async () => {
    expect(await impl.diff("r", olds, { all: true, triggers: "2025-06" })).toMatchObject({ changes: true, replaces: ["triggers"] });
  });

  it("replaces when the target changes", async () => {
    expect(await impl.diff("r", olds, { subaccountUserId: 10002, triggers: "2025-05" })).toMatchObject({
      changes: true,
      replaces: ["all", "subaccountUserId"],
    });
  });
});
