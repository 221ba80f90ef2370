/** Issue 25 item 6: a misspelt name inside an object input gets the nearest real name. */
import { providers } from "../../provider/providers";

describe("issue 25 item 6: a typo inside offer", () => {
  it.each([
    ["Instance", () => providers.instance.check!({}, { __provider: "p", offer: { gpuname: "RTX 4090" }, image: "pytorch/pytorch" })],
    ["Fleet", () => providers.fleet.check!({}, { __provider: "p", offer: { gpuname: "RTX 4090" }, image: "pytorch/pytorch", count: 1 })],
  ])("25.6 %s: offer.gpuname says did you mean gpuName", async (_type, check) => {
    const { failures } = await check();
    expect(failures).toEqual([{ property: "offer.gpuname", reason: "offer.gpuname: gpuname is not a property of offer; did you mean gpuName?" }]);
  });
});
