/**
 * The guard's start command refuses a plan it cannot carry out, naming the field, the rule and
 * the value (the provider's check refuses these first; this is the last line).
 */
import { guardedArgs, guardedArgsStr, guardedOnstart } from "../../provider/resources/instance/guard/script";
import type { GuardPlan } from "../../provider/resources/instance/guard/plan";

const API = "https://console.vast.ai";

describe("guardedOnstart refuses a plan it cannot carry out", () => {
  it.each<[string, GuardPlan, string]>([
    ["an apiUrl that is no http(s) URL", { apiUrl: "console.vast.ai" }, 'guard apiUrl must be an http(s) URL (got "console.vast.ai")'],
    ["an apiUrl with a quote", { apiUrl: "https://a'b" }, `guard apiUrl must be an http(s) URL (got "https://a'b")`],
    ["an expiresAt that is no time", { apiUrl: API, expiresAt: "tomorrow" }, 'expiresAt must be an ISO-8601 time (got "tomorrow")'],
    ["an idle time of 0", { apiUrl: API, autostop: { idleMinutes: 0, gpuUtilBelowPercent: 5, action: "stop" } }, "autostop.idleMinutes must be a whole number >= 1 (got 0)"],
    ["a percent over 100", { apiUrl: API, autostop: { idleMinutes: 5, gpuUtilBelowPercent: 101, action: "stop" } }, "autostop.gpuUtilBelowPercent must be 0-100 (got 101)"],
    ["an action not offered", { apiUrl: API, autostop: { idleMinutes: 5, gpuUtilBelowPercent: 5, action: "pause" as "stop" } }, 'autostop.action must be "stop" or "destroy" (got "pause")'],
    ["an expire action not offered", { apiUrl: API, expiresAt: "2030-01-01T00:00:00Z", expireAction: "sleep" as "stop" }, 'expireAction must be "stop" or "destroy" (got "sleep")'],
  ])("%s", (_name, plan, message) => {
    expect(() => guardedOnstart("echo hi", plan)).toThrow(message);
  });

  it("refuses an empty command for args and argsStr", () => {
    expect(() => guardedArgs([], { apiUrl: API })).toThrow("args must name a command to run when autostop or a TTL is set (got an empty list)");
    expect(() => guardedArgsStr("  ", { apiUrl: API })).toThrow("argsStr must name a command to run when autostop or a TTL is set (got an empty string)");
  });

  it("keeps the user's onstart unchanged at its end, and fixes the deadline as an absolute time", () => {
    const user = "#!/bin/bash\nset -e\npython train.py \"$@\"\n";
    const script = guardedOnstart(user, { apiUrl: `${API}/`, expiresAt: "2026-11-29T06:00:00.000Z" });
    expect(script.endsWith(`\n${user}`)).toBe(true);
    expect(script).toContain("A='https://console.vast.ai' E=1795932000 EI=2026-11-29T06:00:00Z X=destroy I= ");
  });
});
