/** The pure parts of bids, readiness and the live outputs (no HTTP). */
import type { Instance } from "../../provider/client";
import { checkInstanceInputs } from "../../provider/resources/instance/inputs";
import { isOutbid, outbidDiff, rebidPrice, spotFailures, withinBid } from "../../provider/resources/instance/bid";
import { probedPort, publishedPort } from "../../provider/resources/instance/readiness";
import { envNamesOf, portMappingsOf } from "../../provider/resources/instance/spot-outputs";
import { UNKNOWN } from "../../provider/resources/kit";

const inst = (over: Partial<Instance>): Instance => ({ id: 1, actualStatus: "running", intendedStatus: "running", raw: {}, ...over });

describe("bids", () => {
  it("outbid is a bid the service stopped while the renter wants it running", () => {
    expect(isOutbid(inst({ isBid: true, actualStatus: "stopped" }))).toBe(true);
    expect(isOutbid(inst({ isBid: true, actualStatus: " STOPPED " }))).toBe(true);
    expect(isOutbid(inst({ isBid: true, actualStatus: "stopped", intendedStatus: "stopped" }))).toBe(false);
    expect(isOutbid(inst({ isBid: false, actualStatus: "stopped" }))).toBe(false);
    expect(isOutbid(inst({ isBid: true }))).toBe(false);
  });

  it("the diff follows onOutbid: replace (default) names outbid, rebid updates, keep does nothing", () => {
    const outbid = inst({ isBid: true, actualStatus: "stopped" });
    expect(outbidDiff({ bidPricePerHour: 1 }, outbid)).toBe("outbid");
    expect(outbidDiff({ bidPricePerHour: 1, onOutbid: "rebid" }, outbid)).toBe("update");
    expect(outbidDiff({ bidPricePerHour: 1, onOutbid: "keep" }, outbid)).toBeUndefined();
    expect(outbidDiff({ bidPricePerHour: 1 }, inst({ isBid: true }))).toBeUndefined();
  });

  it("a rebid offers the going price rounded up to a cent, never less than the current bid", () => {
    expect(rebidPrice(inst({ minBid: 0.401 }), 0.25)).toBe(0.41);
    expect(rebidPrice(inst({ minBid: 0.4 }), 0.25)).toBe(0.4);
    expect(rebidPrice(inst({ minBid: 0.1 }), 0.25)).toBe(0.25);
    expect(rebidPrice(inst({ minBid: null }), 0.25)).toBeUndefined();
  });

  it("offers whose going price is above the bid are left out", () => {
    const offers = [{ id: 1, minBid: 0.2, raw: {} }, { id: 2, minBid: 0.6, raw: {} }, { id: 3, raw: {} }];
    expect(withinBid(offers, 0.5).map((o) => o.id)).toEqual([1, 3]);
  });

  it("cross-field rules are skipped for values unknown in preview", () => {
    expect(spotFailures({ onOutbid: "rebid", bidPricePerHour: UNKNOWN, maxBidPricePerHour: 1 })).toEqual([]);
    expect(spotFailures({ onOutbid: UNKNOWN })).toEqual([]);
    expect(spotFailures({ bidPricePerHour: 0.5, maxBidPricePerHour: UNKNOWN, onOutbid: "rebid" })).toEqual([]);
  });

  it("check accepts a full spot configuration", () => {
    const { failures } = checkInstanceInputs({ offerId: 1, image: "x", bidPricePerHour: 0.3, onOutbid: "rebid", maxBidPricePerHour: 0.6, cancelUnavailable: true, rebootTrigger: { at: 1 }, prepayAmount: 10 });
    expect(failures).toEqual([]);
  });
});

describe("readiness", () => {
  it("probes tcpPort, else the first TCP entry of ports", () => {
    expect(probedPort({ tcpPort: 22, timeoutMinutes: 1 }, ["8000:8000"])).toBe(22);
    expect(probedPort({ timeoutMinutes: 1 }, ["5000:5000/udp", "8080:80/tcp"])).toBe(80);
    expect(probedPort({ timeoutMinutes: 1 }, ["9000"])).toBe(9000);
    expect(probedPort({ timeoutMinutes: 1 }, undefined)).toBeUndefined();
  });

  it("finds the published host port at the public address, or says what is missing", () => {
    const ports = { "8000/tcp": [{ HostIp: "0.0.0.0", HostPort: "41234" }] };
    expect(publishedPort(inst({ publicIpaddr: "1.2.3.4", ports }), 8000)).toEqual({ host: "1.2.3.4", port: 41234 });
    expect(publishedPort(inst({ publicIpaddr: null, ports }), 8000)).toBe("the service shows no public address yet");
    expect(publishedPort(inst({ publicIpaddr: "1.2.3.4", ports }), 9000)).toBe("the service shows no published port for 9000/tcp yet");
  });

  it("check never throws on a readiness or ports of the wrong shape (found by the property test)", () => {
    expect(() => checkInstanceInputs({ ports: [{}], readiness: [] })).not.toThrow();
    expect(() => checkInstanceInputs({ ports: [{}], readiness: { timeoutMinutes: 1 } })).not.toThrow();
  });

  it("check refuses a bad readiness with the property named", () => {
    const { failures } = checkInstanceInputs({ offerId: 1, image: "x", readiness: { tcpPort: 70000, httpPath: "health", timeoutMinutes: 0 } });
    expect((failures ?? []).map((f) => f.property).sort()).toEqual(["readiness.httpPath", "readiness.tcpPort", "readiness.timeoutMinutes"]);
  });
});

describe("outputs", () => {
  it("port mappings as container port -> host port, bad entries left out", () => {
    expect(portMappingsOf({ "22/tcp": [{ HostPort: "10001" }], "8000/tcp": [{ HostPort: "x" }], "53/udp": [] })).toEqual({ "22/tcp": 10001 });
    expect(portMappingsOf(null)).toEqual({});
  });

  it("env names without values, port flags or the marker, sorted and unique", () => {
    const env: Array<[string, string]> = [["B", "secret"], ["A", "1"], ["-p 8000:8000", "1"], ["PULUMI_VASTAI_MARKER", "m"], ["A", "2"]];
    expect(envNamesOf(inst({ extraEnv: env }))).toEqual(["A", "B"]);
  });
});
