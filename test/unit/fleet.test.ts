/** Fleet: input rules, offer choice (claims, spread, bad hosts), the budget projection, costs. */
import { createClient } from "../../provider/client";
import { type Candidate, claim, countryOf, isClaimed, pickOffers, release, resetClaims } from "../../provider/resources/fleet/claims";
import { SPEC_KEYS, checkFleetInputs, minHealthyOf, typedFleetInputs } from "../../provider/resources/fleet/inputs";
import { inPlaceBatch, updatableInPlace } from "../../provider/resources/fleet/inplace";
import { FLEET_OUTPUT_KEYS, fleetOutputs, liveBadHosts, memberCost } from "../../provider/resources/fleet/outputs";
import { projection } from "../../provider/resources/fleet/reconcile";
import { specOf, type Member } from "../../provider/resources/fleet/members";

beforeEach(() => resetClaims());

const client = createClient({ apiKey: "unit-test-key", apiUrl: "http://127.0.0.1:9", pacing: false });

const offer = (id: number, machineId: number, country: string, pricePerHour: number): Candidate => ({ id, machineId, country, pricePerHour, storagePerHour: 0.01 });
const base = { count: 2, offer: { gpuName: "RTX 4090" }, image: "pytorch/pytorch" };
const reasons = (news: Record<string, unknown>) => (checkFleetInputs(news, FLEET_OUTPUT_KEYS).failures ?? []).map((f) => f.reason);

describe("inputs", () => {
  it("accepts a fleet and applies the defaults", () => {
    const { inputs, failures } = checkFleetInputs(base, FLEET_OUTPUT_KEYS);
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({ badHostMinutes: 60, runningTimeoutMinutes: 10, maxCreateAttempts: 3 });
    expect(minHealthyOf(typedFleetInputs(inputs!))).toBe(2);
    expect(minHealthyOf(typedFleetInputs({ ...inputs, minHealthy: 1 }))).toBe(1);
  });

  it("uses Instance's offer filter rules and names", () => {
    expect(reasons({ ...base, offer: { gpuName: "RTX 4090", gpuRamGB: 24 } }).join()).toMatch(/gpuRamGB/);
    expect(reasons({ ...base, offer: { minReliability: 2 } })).toEqual([expect.stringMatching(/^offer\.minReliability: must be between 0 and 1/)]);
  });

  it("names field, rule and value for its own inputs", () => {
    expect(reasons({ ...base, count: 1.5 })).toEqual([expect.stringMatching(/^count: must be a whole number/)]);
    expect(reasons({ ...base, count: -1 })).toEqual([expect.stringMatching(/^count: must be at least 0/)]);
    expect(reasons({ ...base, spread: { by: "rack", max: 1 } })).toEqual([expect.stringMatching(/^spread\.by: must be one of machine, country/)]);
    expect(reasons({ ...base, spread: { by: "machine", max: 0 } })).toEqual([expect.stringMatching(/^spread\.max: must be at least 1/)]);
    expect(reasons({ ...base, maxHourlyCost: 0 })).toEqual([expect.stringMatching(/^maxHourlyCost: must be greater than 0 \(\$\/hour for the whole fleet/)]);
    expect(reasons({ ...base, minHealthy: 3 })).toEqual(["minHealthy: must be at most count (2), got 3"]);
    expect(reasons({ count: 1, offer: {} })).toEqual(["image: is required when no templateHashId is given"]);
    expect(reasons({ ...base, maxHourlyCst: 3 })).toEqual([expect.stringMatching(/maxHourlyCst is not a Fleet property; did you mean maxHourlyCost\?/)]);
  });

  it("never shows an env value in a failure", () => {
    const all = reasons({ ...base, env: { PULUMI_VASTAI_MARKER: "hunter2-secret" } }).join("\n");
    expect(all).toMatch(/PULUMI_VASTAI_MARKER is reserved/);
    expect(all).not.toContain("hunter2-secret");
  });

  it("takes Instance's readiness and updatePolicy with Instance's rules", () => {
    expect(reasons({ ...base, ports: ["8000:8000"], readiness: { httpPath: "/health", timeoutMinutes: 2 }, updatePolicy: "replace" })).toEqual([]);
    expect(reasons({ ...base, readiness: { timeoutMinutes: 1 } })).toEqual(["readiness.tcpPort: is required when ports has no TCP mapping to probe"]);
    expect(reasons({ ...base, readiness: { tcpPort: 8000, timeoutMinutes: 0 } })).toEqual([expect.stringMatching(/^readiness\.timeoutMinutes: must be greater than 0/)]);
    expect(reasons({ ...base, updatePolicy: "later" })).toEqual([expect.stringMatching(/^updatePolicy: must be one of "in-place", "replace"/)]);
  });

  it("updates a member in place only when it was made with the inputs in state and only template inputs changed", () => {
    const olds = { ...base, image: "a", env: { A: "1" } };
    const member = { spec: specOf(olds, SPEC_KEYS) } as Member;
    expect(updatableInPlace(member, olds, { ...olds, image: "b", env: { A: "2" } })).toBe(true);
    expect(updatableInPlace(member, olds, { ...olds, image: "b", diskGb: 20 })).toBe(false);
    expect(updatableInPlace(member, olds, { ...olds, image: "b", updatePolicy: "replace" })).toBe(false);
    expect(updatableInPlace({ ...member, spec: "older" }, olds, { ...olds, image: "b" })).toBe(false);
    expect(updatableInPlace(member, undefined, { ...olds, image: "b" })).toBe(false);
    expect([inPlaceBatch(3, 3, 3), inPlaceBatch(4, 3, 3), inPlaceBatch(5, 2, 2), inPlaceBatch(2, 3, 1)]).toEqual([0, 1, 2, 0]);
  });

  it("takes a new volume per member by Instance's rules, and refuses a link or a volume offer id", () => {
    const volume = { createNew: true, size: 20, mountPath: "/data" };
    expect(reasons({ ...base, volume })).toEqual([]);
    expect(reasons({ ...base, volume: { createNew: true, mountPath: "/data" } })).toEqual(["volume.size: is required (GB) when createNew is true"]);
    expect(reasons({ ...base, volume: { ...volume, mountPath: "data" } })).toEqual([expect.stringMatching(/^volume\.mountPath: must be an absolute path/)]);
    expect(reasons({ ...base, volume: { createNew: false, volumeId: 7, mountPath: "/data" } })).toEqual([
      expect.stringMatching(/^volume\.createNew: must be true: .*cannot be shared by N members\) \(got false\)$/),
      "volume.volumeId: a fleet cannot link one existing volume to N members; use createNew: true with size, or an Instance to link it (got 7)",
    ]);
    expect(reasons({ ...base, volume: { ...volume, volumeId: 900001 } })).toEqual([expect.stringMatching(/^volume\.volumeId: is not accepted on a fleet: .*\(got 900001\)$/)]);
  });

  it("a volume rolls the fleet, and members made before volumes existed keep their spec", () => {
    expect(specOf({ image: "a" }, SPEC_KEYS)).toBe(specOf({ image: "a" }, SPEC_KEYS.filter((k) => k !== "volume")));
    expect(specOf({ image: "a", volume: { createNew: true, size: 20, mountPath: "/d" } }, SPEC_KEYS)).not.toBe(specOf({ image: "a" }, SPEC_KEYS));
    expect(specOf({ image: "a", volume: { createNew: true, size: 20, mountPath: "/d" } }, SPEC_KEYS)).not.toBe(
      specOf({ image: "a", volume: { createNew: true, size: 30, mountPath: "/d" } }, SPEC_KEYS),
    );
  });

  it("rolls on the template inputs only", () => {
    expect(specOf({ image: "a", count: 1 }, ["image"])).toBe(specOf({ image: "a", count: 5 }, ["image"]));
    expect(specOf({ image: "a" }, ["image"])).not.toBe(specOf({ image: "b" }, ["image"]));
  });
});

describe("offer choice", () => {
  const offers = [offer(1, 10, "US", 0.1), offer(2, 10, "US", 0.2), offer(3, 11, "US", 0.3), offer(4, 12, "SE", 0.4), offer(5, 13, "DE", 0.5)];

  it("claims per process (its client): a claimed offer is never picked twice until released", () => {
    const a = pickOffers(client, {}, offers, 2, [], new Set());
    const b = pickOffers(client, {}, offers, 2, [], new Set());
    expect(a.map((o) => o.id)).toEqual([1, 2]);
    expect(b.map((o) => o.id)).toEqual([3, 4]);
    expect(claim(client, 1)).toBe(false);
    release(client, 1);
    expect(isClaimed(client, 1)).toBe(false);
    // Another process (another client) holds its own claims.
    const other = createClient({ apiKey: "unit-test-key", apiUrl: "http://127.0.0.1:9", pacing: false });
    expect(pickOffers(other, {}, offers, 1, [], new Set()).map((o) => o.id)).toEqual([1]);
  });

  it("keeps at most k per machine, counting the members already placed", () => {
    expect(pickOffers(client, { spread: { by: "machine", max: 1 } }, offers, 3, [], new Set()).map((o) => o.id)).toEqual([1, 3, 4]);
    resetClaims();
    expect(pickOffers(client, { spread: { by: "machine", max: 1 } }, offers, 2, [{ machineId: 10, country: "US" }], new Set()).map((o) => o.id)).toEqual([3, 4]);
  });

  it("keeps at most k per country", () => {
    expect(pickOffers(client, { spread: { by: "country", max: 2 } }, offers, 4, [], new Set()).map((o) => o.id)).toEqual([1, 2, 4, 5]);
  });

  it("skips machines remembered as bad", () => {
    expect(pickOffers(client, {}, offers, 2, [], new Set([10])).map((o) => o.id)).toEqual([3, 4]);
  });

  it("reads the country from the last part of the geolocation", () => {
    expect(countryOf("Sweden, SE")).toBe("SE");
    expect(countryOf("US")).toBe("US");
    expect(countryOf("California, US")).toBe("US");
    expect(countryOf(null)).toBe("?");
  });
});

describe("costs", () => {
  const member = (status: string, pricePerHour: number) => ({ status, pricePerHour, storagePerHour: 0.02 });

  it("projects new offers, kept members and the storage of stopped ones", () => {
    const kept = [member("running", 0.5), member("stopped", 0.9)] as never[];
    const p = projection(kept, [offer(7, 1, "US", 0.25)]);
    expect(p.total).toBeCloseTo(0.77, 6);
    expect(p.breakdown).toBe("1 new member(s) 0.25 (offer 7 0.25) + 1 kept member(s) 0.5 + storage of 1 stopped member(s) 0.02");
  });

  it("counts a member's volume in every state, and a new member's volume in the projection", () => {
    expect(memberCost({ ...member("running", 0.5), volumePerHour: 0.01 })).toBeCloseTo(0.51, 9);
    expect(memberCost({ ...member("stopped", 0.5), volumePerHour: 0.01 })).toBeCloseTo(0.03, 9);
    expect(memberCost({ ...member("gone", 0.5), volumePerHour: 0.01 })).toBeCloseTo(0.01, 9);
    const p = projection([], [{ ...offer(7, 1, "US", 0.25), volumeOfferId: 9, volumePerHour: 0.005 }]);
    expect(p.total).toBeCloseTo(0.255, 9);
    expect(p.breakdown).toBe("1 new member(s) 0.255 (offer 7 0.25 + volume 0.005) + 0 kept member(s) 0 + storage of 0 stopped member(s) 0");
  });

  it("costs a stopped member its disk, a dead one nothing", () => {
    expect(memberCost(member("running", 0.5))).toBe(0.5);
    expect(memberCost(member("stopped", 0.5))).toBe(0.02);
    expect(memberCost(member("exited", 0.5))).toBe(0);
  });

  it("outputs the members, their cost and how many run; expired bad hosts are forgotten", () => {
    const m = { id: 1, machineId: 2, country: "US", offerId: 3, pricePerHour: 0.5, storagePerHour: 0.01, status: "running", ready: null, sshHost: "h", sshPort: 22, marker: "k.x.3", spec: "s", volumeId: null, volumePerHour: 0 };
    expect(fleetOutputs("k", [m, { ...m, id: 2, status: "loading" }], {})).toMatchObject({ fleetKey: "k", hourlyCost: 1, healthy: 1 });
    // With readiness, a running member that is not ready is not healthy.
    const ready = { ...m, ready: true };
    expect(fleetOutputs("k", [ready, { ...ready, id: 2, ready: false }], {})).toMatchObject({ hourlyCost: 1, healthy: 1 });
    expect(liveBadHosts({ "1": 50, "2": 150, "3": "x" }, 100)).toEqual({ "2": 150 });
  });
});
