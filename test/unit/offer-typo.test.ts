/** Issue 25 item 6: a misspelt name inside an object input gets the nearest real name. */
import { providers } from "../../provider/providers";
import { resetRuntime, setClientOptions } from "../../provider/context";

// check needs a configured key (a missing one fails at preview); nothing here calls the API.
beforeAll(() => setClientOptions({ apiKey: "unit-test-key", apiUrl: "http://127.0.0.1:9" }));
afterAll(() => resetRuntime());

describe("issue 25 item 6: a typo inside offer", () => {
  it.each([
    ["Instance", () => providers.instance.check!({}, { __provider: "p", offer: { gpuname: "RTX 4090" }, image: "pytorch/pytorch" })],
    ["Fleet", () => providers.fleet.check!({}, { __provider: "p", offer: { gpuname: "RTX 4090" }, image: "pytorch/pytorch", count: 1 })],
  ])("25.6 %s: offer.gpuname says did you mean gpuName", async (_type, check) => {
    const { failures } = await check();
    expect(failures).toEqual([{ property: "offer.gpuname", reason: "offer.gpuname: gpuname is not a property of offer; did you mean gpuName?" }]);
  });
});
