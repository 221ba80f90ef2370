import { resetRuntime, setting } from "../../provider/context";
import { setProviderSettings } from "pulumi-vastai";

const ENV = "VASTAI_TEST_ONLY_SETTING";

afterEach(() => resetRuntime());

describe("setProviderSettings", () => {
  it("is consulted before the environment, by the setting's config name", () => {
    // PATH is set in any test process: it stands for a variable the user exported.
    expect(setting("testOnlySetting", "PATH")).toBe(process.env.PATH);
    setProviderSettings({ testOnlySetting: 5 });
    expect(setting("testOnlySetting", "PATH")).toBe("5");
  });

  it("keeps earlier values, and undefined removes one", () => {
    setProviderSettings({ a: "1", b: 2 });
    setProviderSettings({ b: undefined, c: "3" });
    expect([setting("a", ENV), setting("b", ENV), setting("c", ENV)]).toEqual(["1", undefined, "3"]);
  });

  it("is forgotten by resetRuntime", () => {
    setProviderSettings({ pollIntervalMs: 5 });
    resetRuntime();
    expect(setting("pollIntervalMs", ENV)).toBeUndefined();
  });
});
