/** Volume and NetworkVolume check and diff, the volume offer query and the volume wire schemas. */
import { buildVolumeOfferQuery } from "../../provider/client/wire/volume-filters";
import { volumeCreateResponse, volumeListResponse } from "../../provider/client/schemas-volumes";
import { provider as volume } from "../../provider/resources/volume/provider";
import { provider as networkVolume } from "../../provider/resources/networkVolume/provider";
import { serviceName, carriesMarker } from "../../provider/resources/volume/impl";
import { UNKNOWN } from "../../provider/resources/kit";

const reasons = async (news: Record<string, unknown>, p = volume) => ((await p.check({}, news)).failures ?? []).map((f) => f.reason);

describe("Volume check", () => {
  it("accepts an offer id or filters, and applies the default size of 15 GB", async () => {
    const result = await volume.check({}, { offerId: 900001 });
    expect(result.failures).toEqual([]);
    expect(result.inputs).toEqual({ offerId: 900001, sizeGb: 15 });
    expect(await reasons({ offer: { maxPricePerGbMonth: 0.1, minReliability: 0.99, location: ["US", "SE"], verified: true, machineId: 30001 }, sizeGb: 100, name: "data" })).toEqual([]);
  });

  it("needs exactly one of offerId and offer", async () => {
    expect(await reasons({})).toEqual([expect.stringMatching(/^offerId: give offerId \(a volume offer, from searchVolumeOffers\) or offer filters/)]);
    expect(await reasons({ offerId: 1, offer: {} })).toEqual(["offer: give either offerId or offer filters, not both"]);
    expect(await reasons({ offerId: UNKNOWN })).toEqual([]);
  });

  it("names the field, the rule and the value of bad input", async () => {
    expect(await reasons({ offerId: 1, sizeGb: 1.5 })).toEqual(["sizeGb: must be a whole number (got 1.5)"]);
    expect(await reasons({ offerId: 1, sizeGb: 0 })).toEqual(["sizeGb: must be greater than 0 (got 0)"]);
    expect(await reasons({ offerId: 1, sizeGb: 2_000_000 })).toEqual(["sizeGb: must be at most 1000000 (GB) (got 2000000)"]);
    expect(await reasons({ offerId: "900001" })).toEqual([expect.stringMatching(/^offerId: must be a number/)]);
    expect(await reasons({ offerId: 1, name: "" })).toEqual(['name: must not be empty (got "")']);
    expect(await reasons({ offer: { maxPricePerGbMonth: -1 } })).toEqual(["offer.maxPricePerGbMonth: must be greater than 0 ($ per GB per month, maximum) (got -1)"]);
    expect(await reasons({ offer: { minReliability: 2 } })).toEqual(["offer.minReliability: must be between 0 and 1 (got 2)"]);
  });

  it("refuses unknown properties with the nearest name", async () => {
    expect(await reasons({ offerId: 1, sizeGB: 10 })).toEqual([expect.stringMatching(/sizeGB is not a Volume property; did you mean sizeGb\?/)]);
    // 25.6: inside offer too, the names it takes (no near miss to suggest).
    expect(await reasons({ offer: { clusterId: 4 } })).toEqual([expect.stringMatching(/^offer\.clusterId: clusterId is not a property of offer; it takes .*machineId/)]);
  });

  it("NetworkVolume takes clusterId, not machineId, and names itself in messages", async () => {
    expect(await reasons({ offer: { clusterId: 42 } }, networkVolume)).toEqual([]);
    expect(await reasons({ offerId: 1, size: 5 }, networkVolume)).toEqual([expect.stringMatching(/size is not a NetworkVolume property; did you mean sizeGb\?/)]);
    expect(await reasons({}, networkVolume)).toEqual([expect.stringMatching(/network volume offer, from searchNetworkVolumeOffers/)]);
  });
});

describe("Volume diff", () => {
  const olds = { offerId: 900001, sizeGb: 15, name: "a", volumeId: 7, serviceName: "a [x]", attachedInstanceIds: [1] };
  it("replaces on every input, ignores outputs and bookkeeping", async () => {
    expect(await volume.diff("7", olds, { offerId: 900001, sizeGb: 15, name: "a", __identity: "p/s/Volume/v" })).toMatchObject({ changes: false });
    expect(await volume.diff("7", olds, { offerId: 900001, sizeGb: 20, name: "a" })).toMatchObject({ changes: true, replaces: ["sizeGb"] });
    expect(await volume.diff("7", olds, { offer: { machineId: 3 }, sizeGb: 15, name: "a" })).toMatchObject({ changes: true, replaces: ["offer", "offerId"] });
  });
});

describe("the service's name carries the marker", () => {
  it("appends the marker to the name (or to 'volume'), and recognizes it", () => {
    expect(serviceName("data", "0123456789abcdef")).toBe("data [0123456789abcdef]");
    expect(serviceName(undefined, "0123456789abcdef")).toBe("volume [0123456789abcdef]");
    expect(serviceName("data", undefined)).toBe("data");
    expect(carriesMarker("data [0123456789abcdef]", "0123456789abcdef")).toBe(true);
    expect(carriesMarker("data", "0123456789abcdef")).toBe(false);
    expect(carriesMarker(null, "0123456789abcdef")).toBe(false);
  });
});

describe("volume offer query", () => {
  it("sends snake_case fields, days as seconds, and refuses unknown fields and directions", () => {
    expect(buildVolumeOfferQuery({ filters: { storageCost: { lte: 0.1 }, durationDays: { gte: 30 }, geolocation: { in: ["US", "SE"] }, verified: true }, order: [["storageCost", "asc"]], limit: 5 })).toEqual({
      storage_cost: { lte: 0.1 },
      duration: { gte: 30 * 86400 },
      geolocation: { in: ["US", "SE"] },
      verified: { eq: true },
      order: [["storage_cost", "asc"]],
      limit: 5,
    });
    expect(() => buildVolumeOfferQuery({ filters: { gpuName: "RTX 4090" } as never })).toThrow(/volume offer filter "gpuName" is not searchable; use one of id, machineId/);
    expect(() => buildVolumeOfferQuery({ order: [["storageCost", "up" as never]] })).toThrow(/direction must be "asc" or "desc"/);
    expect(() => buildVolumeOfferQuery({ limit: 0 })).toThrow(/limit must be a positive integer, got 0/);
  });
});

describe("volume wire schemas", () => {
  it("reads the id from volume_name V.<id>", () => {
    expect(volumeCreateResponse.parse({ success: true, volume_name: "V.20118481" })).toEqual({ id: 20118481, volumeName: "V.20118481" });
    expect(volumeCreateResponse.parse({ success: true })).toEqual({ id: null, volumeName: null });
  });

  it("reads a listed volume: label as name, instances as ids, the kind from type", () => {
    const [v] = volumeListResponse.parse({
      volumes: [{ id: 5, type: "network_volume", label: "shared", disk_space: 100, status: "active", cluster_id: 42, instances: [8000001, { id: 8000002 }], start_date: 1700000000 }],
    });
    expect(v).toMatchObject({ id: 5, kind: "network", name: "shared", sizeGb: 100, clusterId: 42, machineId: null, instanceIds: [8000001, 8000002], startDate: 1700000000 });
  });
});
