/** The volume lookups against the simulator: what they send, what they return, what they refuse. */
import type * as pulumi from "@pulumi/pulumi";
import { getVolumes, getVolumesOutput, searchNetworkVolumeOffers, searchVolumeOffers, searchVolumeOffersOutput } from "../../provider/lookups";
import { useSimulator } from "../support/simulator";

const h = useSimulator({ providers: true });

function firstValueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((v) => resolve(v)));
}

describe("searchVolumeOffers", () => {
  it("sends the vendor client's defaults and query, and returns local offers with their units", async () => {
    const offers = await searchVolumeOffers({ filters: { storageCost: { lte: 0.1 } }, order: [["storageCost", "asc"]], allocatedStorageGb: 100 });
    expect(offers.map((o) => o.id)).toEqual([900003, 900002, 900001]);
    expect(offers[0]).toMatchObject({ machineId: 30005, clusterId: null, diskSpaceGb: 200, storageCostPerGbMonth: 0.05, verified: true, durationDays: 30 });
    expect(offers[0].storageTotalCostPerHour).toBeCloseTo((0.05 * 100) / 720, 9);
    const sent = (await h.requests()).find((r) => r.path === "/api/v0/volumes/search/");
    expect(sent?.body).toEqual({
      verified: { eq: true },
      external: { eq: false },
      disk_space: { gte: 1 },
      storage_cost: { lte: 0.1 },
      order: [["storage_cost", "asc"]],
      allocated_storage: 100,
    });
  });

  it("drops the defaults with noDefaults (the unverified offer shows), best score first by default", async () => {
    const offers = await searchVolumeOffers({ noDefaults: true });
    expect(offers.map((o) => o.id)).toContain(900006);
    const scores = offers.map((o) => o.raw.score as number);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it("refuses an unknown argument or filter before any request, naming the nearest", async () => {
    await expect(searchVolumeOffers({ filter: {} } as never)).rejects.toThrow(/filter is not a searchVolumeOffers property; did you mean filters\?/);
    await expect(searchVolumeOffers({ filters: { gpuName: "x" } as never })).rejects.toThrow(/volume offer filter "gpuName" is not searchable/);
    expect((await h.requests()).filter((r) => r.path.includes("volumes"))).toEqual([]);
  });

  it("has an Output variant", async () => {
    const offers = await firstValueOf(searchVolumeOffersOutput({ filters: { machineId: 30001 } }));
    expect(offers.map((o) => o.id)).toEqual([900001]);
  });
});

describe("searchNetworkVolumeOffers", () => {
  it("searches the network volume offers, with their clusters", async () => {
    const offers = await searchNetworkVolumeOffers({ filters: { clusterId: { in: [41, 43] } } });
    expect(offers.map((o) => [o.id, o.clusterId, o.machineId])).toEqual([
      [950003, 43, null],
      [950001, 41, null],
    ]);
    expect((await h.requests()).some((r) => r.method === "POST" && r.path === "/api/v0/network_volumes/search/")).toBe(true);
  });
});

describe("getVolumes", () => {
  it("lists the account's volumes by type, with the instances using each", async () => {
    await h.client.volumes.create("local", { offerId: 900001, sizeGb: 10, name: "a" });
    await h.client.volumes.create("network", { offerId: 950001, sizeGb: 20, name: "b" });
    expect((await getVolumes()).map((v) => [v.name, v.kind, v.sizeGb])).toEqual([
      ["a", "local", 10],
      ["b", "network", 20],
    ]);
    expect((await getVolumes({ type: "network" })).map((v) => v.name)).toEqual(["b"]);
    expect((await firstValueOf(getVolumesOutput({ type: "local" }))).map((v) => v.name)).toEqual(["a"]);
    const list = (await h.requests()).filter((r) => r.method === "GET" && r.path === "/api/v0/volumes/");
    expect(list.map((r) => r.query)).toEqual([
      { owner: "me", type: "all_volume" },
      { owner: "me", type: "network_volume" },
      { owner: "me", type: "local_volume" },
    ]);
    await expect(getVolumes({ type: "nfs" as never })).rejects.toThrow(/getVolumes: type must be "local", "network" or "all" \(got "nfs"\)/);
  });
});
