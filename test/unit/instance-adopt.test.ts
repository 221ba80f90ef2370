import type { Instance } from "../../provider/client";
import { oldsFromService, rebuiltInputs, replaceOnlyMismatches } from "../../provider/resources/instance/adopt";
import { diffOfInputs } from "../../provider/resources/instance/diff";
import { checkInstanceInputs } from "../../provider/resources/instance/inputs";

const inst = (over: Partial<Instance> = {}): Instance =>
  ({
    id: 5, actualStatus: "running", intendedStatus: "running", imageUuid: "nginx:latest", templateHashId: null, onstart: "echo hi",
    extraEnv: [["A", "1"], ["PULUMI_VASTAI_MARKER", "mk"], ["-p 8000:8000", "1"]], diskSpace: 20, label: "outside", isBid: false, dphTotal: 0.3, raw: {},
    ...over,
  }) as Instance;

describe("importId", () => {
  it("check: digits only, offer and image optional with it", () => {
    expect(checkInstanceInputs({ importId: "7" }).failures).toEqual([]);
    expect(checkInstanceInputs({ importId: "x7" }).failures).toEqual([
      { property: "importId", reason: expect.stringMatching(/^importId: must be digits only .*"x7"/) },
    ]);
    expect(checkInstanceInputs({}).failures?.map((f) => f.property)).toEqual(["offerId", "image"]);
  });

  it("rebuilds the inputs the service shows (marker and port entries left out)", () => {
    expect(rebuiltInputs(inst())).toEqual({ image: "nginx:latest", env: { A: "1" }, onstart: "echo hi", diskGb: 20, label: "outside", targetState: "running" });
    expect(rebuiltInputs(inst({ isBid: true, dphTotal: 0.25, templateHashId: "h" }))).toMatchObject({ bidPricePerHour: 0.25, templateHashId: "h" });
  });

  it("names replace-only mismatches with both values, never secret values", () => {
    expect(replaceOnlyMismatches({ diskGb: 20, image: "nginx" }, inst())).toEqual([]);
    expect(replaceOnlyMismatches({ diskGb: 40, bidPricePerHour: 0.2 }, inst())).toEqual([
      "diskGb: declared 40, the service shows 20",
      "bidPricePerHour: declared 0.2, the service shows an on-demand rental",
    ]);
    const m = replaceOnlyMismatches({ updatePolicy: "replace", env: { A: "s3cret" }, image: "nginx" }, inst({ extraEnv: [["A", "other-s3cret"]] }));
    expect(m).toEqual(["env (updatePolicy \"replace\"): declared (value not shown), the service shows (value not shown)"]);
    expect(m.join()).not.toMatch(/s3cret/);
  });

  it("the old side of the import is what the service shows; triggers are taken as declared", () => {
    const olds = oldsFromService({ image: "redis", label: "mine", rebootTrigger: "1", targetState: "running" }, inst({ label: "outside", intendedStatus: "stopped" }));
    expect(olds).toMatchObject({ image: "nginx:latest", label: "outside", targetState: "stopped", rebootTrigger: "1", marker: "mk", instanceId: 5 });
  });

  it("an imported instance records offer changes; importId changes are recorded", () => {
    const state = { ...checkInstanceInputs({ importId: "5", image: "nginx" }).inputs, imported: true };
    const news = checkInstanceInputs({ importId: "6", image: "nginx", offerId: 700001 }).inputs;
    expect(diffOfInputs(state, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    const rented = checkInstanceInputs({ offerId: 700002, image: "nginx" }).inputs;
    expect(diffOfInputs(rented, { ...rented, offerId: 700001 }).replaces).toEqual(["offerId"]);
  });
});
