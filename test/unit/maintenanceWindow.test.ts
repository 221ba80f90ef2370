import * as context from "../../provider/context";
import { UNKNOWN, setTiming, type Timing } from "../../provider/resources/kit";
import { provider } from "../../provider/resources/maintenanceWindow/provider";
import type { Transport } from "../../provider/client/transport";

const NOW_MS = Date.parse("2030-01-01T00:00:00Z");
const NOW = NOW_MS / 1000;
const DAY = 24 * 3600;

// A fixed clock, and a client whose every call fails the test: check and diff never call the API.
let previousTiming: Timing;
const calls: string[] = [];
const noCalls: Transport = async (exchange) => {
  calls.push(`${exchange.method} ${exchange.url}`);
  throw new Error("check and diff must not call the API");
};
beforeAll(() => {
  previousTiming = setTiming({ now: () => NOW_MS });
  context.setClientOptions({ apiKey: "maintenance-window-unit-key", apiUrl: "http://127.0.0.1:9", transport: noCalls, maxAttempts: 1 });
});
afterEach(() => expect(calls).toEqual([]));
afterAll(() => {
  setTiming(previousTiming);
  context.resetRuntime();
});

const ids = (n: number, first = 50001) => Array.from({ length: n }, (_, i) => first + i);
const base = { machineIds: [50001, 50002], startTime: NOW + DAY };

async function failures(news: Record<string, unknown>, olds: Record<string, unknown> = {}) {
  return (await provider.check(olds, news)).failures ?? [];
}

describe("MaintenanceWindow check: shape rules", () => {
  it("accepts valid inputs, adds the defaults and keeps __provider", async () => {
    const result = await provider.check({}, { ...base, __provider: "serialized" });
    expect(result.failures).toEqual([]);
    expect(result.inputs).toEqual({ ...base, __provider: "serialized", durationHours: 1, category: "other", allowPartial: false });
  });

  it("accepts any number of machines (batched later) and duplicate ids", async () => {
    expect(await failures({ ...base, machineIds: ids(250) })).toEqual([]);
    expect(await failures({ ...base, machineIds: [50001, 50001, 50002] })).toEqual([]);
  });

  it("rejects an empty machine list", async () => {
    expect(await failures({ ...base, machineIds: [] })).toEqual([
      { property: "machineIds", reason: "machineIds: must list at least one machine id (got [])" },
    ]);
  });

  it("rejects machine ids that are not positive whole numbers, naming the entry", async () => {
    const got = await failures({ ...base, machineIds: [50001, 1.5, 0, "50004"] });
    expect(got).toEqual([
      { property: "machineIds.1", reason: "machineIds.1: must be a whole number (got 1.5)" },
      { property: "machineIds.2", reason: "machineIds.2: must be a positive machine id (got 0)" },
      { property: "machineIds.3", reason: 'machineIds.3: must be a number (got "50004")' },
    ]);
  });

  it("rejects a duration under one hour", async () => {
    expect(await failures({ ...base, durationHours: 0.5 })).toEqual([
      { property: "durationHours", reason: "durationHours: must be at least 1 (hours) (got 0.5)" },
    ]);
    expect(await failures({ ...base, durationHours: 1.5 })).toEqual([]);
  });

  it("rejects a category outside the service's list", async () => {
    const [f] = await failures({ ...base, category: "network" });
    expect(f.property).toBe("category");
    expect(f.reason).toBe('category: must be one of power, internet, disk, gpu, software, other (got "network")');
    for (const category of ["power", "internet", "disk", "gpu", "software", "other"]) {
      expect(await failures({ ...base, category })).toEqual([]);
    }
  });

  it("takes the start as ISO 8601 with a zone or as Unix seconds", async () => {
    expect(await failures({ ...base, startTime: "2030-01-02T00:00:00Z" })).toEqual([]);
    expect(await failures({ ...base, startTime: "2030-01-02T03:00:00+02:00" })).toEqual([]);
    const [noZone] = await failures({ ...base, startTime: "2030-01-02T00:00:00" });
    expect(noZone.reason).toMatch(/^startTime: must be an ISO 8601 date-time with a time zone/);
    const [millis] = await failures({ ...base, startTime: (NOW + DAY) * 1000 });
    expect(millis.reason).toMatch(/^startTime: must be Unix seconds, not milliseconds/);
    const [fraction] = await failures({ ...base, startTime: NOW + 0.5 });
    expect(fraction.reason).toMatch(/^startTime: must be Unix seconds: a positive whole number/);
  });

  it("does not judge values unknown during preview", async () => {
    expect(await failures({ ...base, machineIds: UNKNOWN, startTime: UNKNOWN })).toEqual([]);
  });
});

describe("MaintenanceWindow check: the start must lie ahead only when a window is scheduled", () => {
  it("refuses a new window that starts in the past or now", async () => {
    const [f] = await failures({ ...base, startTime: NOW - 60 });
    expect(f.property).toBe("startTime");
    expect(f.reason).toBe("startTime: must be in the future for a new window (got 2029-12-31T23:59:00.000Z, now 2030-01-01T00:00:00.000Z)");
    expect(await failures({ ...base, startTime: NOW })).toHaveLength(1);
  });

  it("refuses a new window more than a year ahead", async () => {
    const [f] = await failures({ ...base, startTime: "2031-01-02T00:00:00Z" });
    expect(f.reason).toBe("startTime: must be within one year from now, at the latest 2031-01-01T00:00:00.000Z (got 2031-01-02T00:00:00.000Z)");
    expect(await failures({ ...base, startTime: NOW + 364 * DAY })).toEqual([]);
  });

  it("lets a window whose start has passed pass on later runs", async () => {
    const past = { machineIds: [50002, 50001], startTime: NOW - 10 * DAY, durationHours: 1, category: "other", allowPartial: false };
    expect(await failures(past, past)).toEqual([]);
    // The same instant written another way, and defaults left out, are no change either.
    const sameWindow = { machineIds: [50001, 50002, 50001], startTime: new Date((NOW - 10 * DAY) * 1000).toISOString() };
    expect(await failures(sameWindow, past)).toEqual([]);
  });

  it("lets allowPartial change on a past window", async () => {
    const past = { ...base, startTime: NOW - DAY, allowPartial: false };
    expect(await failures({ ...past, allowPartial: true }, past)).toEqual([]);
  });

  it("refuses a past start when a change schedules the window again, naming the change", async () => {
    const past = { ...base, startTime: NOW - DAY, durationHours: 1 };
    const [f] = await failures({ ...past, durationHours: 2 }, past);
    expect(f.reason).toMatch(/^startTime: must be in the future for a window scheduled again because durationHours changed/);
    const [g] = await failures({ ...past, machineIds: [50003] }, past);
    expect(g.reason).toMatch(/because machineIds changed/);
  });
});

describe("MaintenanceWindow diff", () => {
  const olds = { machineIds: [50001, 50002], startTime: NOW + DAY, durationHours: 1, category: "other", allowPartial: false, __provider: "a" };

  it("sees no change in order, duplicates, notation of the start, defaults or the serialized provider", async () => {
    const news = { machineIds: [50002, 50001, 50002], startTime: new Date((NOW + DAY) * 1000).toISOString(), __provider: "b" };
    expect(await provider.diff("id", olds, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: undefined });
  });

  it.each([
    ["machineIds", [50001, 50003]],
    ["startTime", NOW + 2 * DAY],
    ["durationHours", 4],
    ["category", "disk"],
  ])("replaces the window, deleting first, when %s changes", async (key, value) => {
    expect(await provider.diff("id", olds, { ...olds, [key]: value })).toEqual({ changes: true, replaces: [key], deleteBeforeReplace: true });
  });

  it("updates in place when only allowPartial changes", async () => {
    expect(await provider.diff("id", olds, { ...olds, allowPartial: true })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: undefined });
  });

  it("replaces when a value that forces replacement is unknown during preview", async () => {
    const d = await provider.diff("id", olds, { ...olds, machineIds: UNKNOWN });
    expect(d.replaces).toEqual(["machineIds"]);
  });

  it("replaces a window whose create failed and left windows it could not cancel", async () => {
    const d = await provider.diff("id", { ...olds, incompleteCreate: true }, olds);
    expect(d).toEqual({ changes: true, replaces: ["machineIds"], deleteBeforeReplace: true });
  });
});
