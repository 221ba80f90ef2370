import { checkFleetInputs } from "../../provider/resources/fleet/inputs";
import { FLEET_OUTPUT_KEYS } from "../../provider/resources/fleet/outputs";
import { checkInstanceInputs } from "../../provider/resources/instance/inputs";

const gpuFailures = (result: { failures?: { property: string; reason: string }[] }) =>
  (result.failures ?? []).filter((f) => f.property === "offer.gpuName").map((f) => f.reason);
const instance = (gpuName: string) => gpuFailures(checkInstanceInputs({ image: "pytorch/pytorch", offer: { gpuName } }));
const fleet = (gpuName: string) => gpuFailures(checkFleetInputs({ count: 2, image: "pytorch/pytorch", offer: { gpuName } }, FLEET_OUTPUT_KEYS));

describe.each([
  ["Instance", instance],
  ["Fleet", fleet],
])("%s check of offer.gpuName", (_type, failuresOf) => {
  test("a known name written differently is refused with the name as the market writes it", () => {
    expect(failuresOf("RTX4090")).toEqual(['offer.gpuName: "RTX4090" is not a GPU name the market lists; did you mean RTX 4090?']);
    expect(failuresOf("rtx_4090")[0]).toMatch(/did you mean RTX 4090\?/);
  });
  test("a near miss is refused with the suggestion", () => {
    expect(failuresOf("RTX 4009")).toEqual([]); // two edits: not judged a typo
    expect(failuresOf("RTX 409")[0]).toMatch(/"RTX 409".*did you mean RTX 4090\?/);
  });
  test("a known name and a name far from every known one pass", () => {
    expect(failuresOf("RTX 4090")).toEqual([]);
    expect(failuresOf("RTX 4080")).toEqual([]);
    expect(failuresOf("Zephyr X9 Hyperion")).toEqual([]);
  });
});
