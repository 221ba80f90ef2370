/**
 * Issue 27 item 4 (second sentence): a host's volume and network-volume listings through the
 * client and the providers against the simulator over HTTP: a listing shows in the volume offer
 * search of its kind, renters can rent from it, it is not unlisted while they hold volumes on
 * it, unlisting removes it from the search, and the providers' create/read/update/delete.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SEED, startSimulator } from "pulumi-vastai/simulator";
import { BadRequestError, PermissionDeniedError, VolumeListingActiveError, createClient } from "../../provider/client";
import { providers } from "../../provider/providers";
import { drive } from "./account-resources-support";
import { useSimulator } from "../support/simulator";

type Props = Record<string, unknown>;
const h = useSimulator({ providers: true });
const volumeListing = drive(providers.volumeListing);
const networkVolumeListing = drive(providers.networkVolumeListing);
const [M1, M2] = SEED.hostedMachineIds;
const [DISK] = SEED.hostNetworkDisks;
const DAY = 86_400;
const nowS = () => Math.floor(Date.now() / 1000);

async function checked(p: typeof volumeListing, news: Props, olds: Props = {}): Promise<Props> {
  const { inputs, failures } = await p.check(olds, { __provider: "test", ...news });
  expect(failures).toEqual([]);
  return inputs as Props;
}

describe("issue 27 item 4: volume listings through the client", () => {
  it("27.4 a machine's listing shows in the volume offer search with its size, price and end date; unlisting removes it", async () => {
    const end = nowS() + 30 * DAY;
    const { listing } = await h.client.volumeListings.listOnMachine(M1, { sizeGb: 300, pricePerGbMonth: 0.07, endDate: end });
    expect(listing).toMatchObject({ kind: "local", machineId: M1, freeGb: 300, pricePerGbMonth: 0.07, hostId: SEED.user.id });
    expect(Math.abs((listing?.endDate ?? 0) - end)).toBeLessThanOrEqual(2);
    const cheap = await h.client.volumes.searchOffers("local", { filters: { storageCost: { lte: 0.07 } }, noDefaults: true });
    expect(cheap.map((o) => o.id)).toContain(listing?.id);
    // listing the machine again changes the terms of the same listing
    const again = await h.client.volumeListings.listOnMachine(M1, { sizeGb: 300, pricePerGbMonth: 0.09 });
    expect(again.listing).toMatchObject({ id: listing?.id, pricePerGbMonth: 0.09 });

    expect(await h.client.volumeListings.unlist("local", listing!.id)).toEqual({ alreadyGone: false });
    expect(await h.client.volumeListings.find("local", { machineId: M1 })).toBeNull();
    const all = await h.client.volumes.searchOffers("local", { noDefaults: true });
    expect(all.map((o) => o.id)).not.toContain(listing?.id);
    // a second unlist: the service says the listing does not exist, which counts as gone
    expect(await h.client.volumeListings.unlist("local", listing!.id)).toEqual({ alreadyGone: true });
  });

  it("27.4 a renter's volume takes space from the listing, and the listing is not unlisted while it exists", async () => {
    const { listing } = await h.client.volumeListings.listOnMachine(M2, { sizeGb: 100, pricePerGbMonth: 0.1 });
    const rented = await h.client.volumes.create("local", { offerId: listing!.id, sizeGb: 40 });
    expect((await h.client.volumeListings.find("local", { id: listing!.id }))?.freeGb).toBe(60);
    const refused = await h.client.volumeListings.unlist("local", listing!.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(VolumeListingActiveError);
    expect(String((refused as Error).message)).toMatch(/still has renters' volumes on it.*Unable to delete active volume listing/);
    await h.client.volumes.delete(rented.id!);
    expect(await h.client.volumeListings.unlist("local", listing!.id)).toEqual({ alreadyGone: false });
  });

  it("27.4 a network disk's listing shows in the network volume search with its cluster and disk; another's machine is refused", async () => {
    const { listing } = await h.client.volumeListings.listOnNetworkDisk(DISK.id, { sizeGb: 2000, pricePerGbMonth: 0.11 });
    expect(listing).toMatchObject({ kind: "network", diskId: DISK.id, clusterId: DISK.clusterId, freeGb: 2000, pricePerGbMonth: 0.11, machineId: null });
    const network = await h.client.volumes.searchOffers("network", { noDefaults: true });
    expect(network.map((o) => o.id)).toContain(listing?.id);
    expect((await h.client.volumes.searchOffers("local", { noDefaults: true })).map((o) => o.id)).not.toContain(listing?.id);
    const tooBig = await h.client.volumeListings.listOnNetworkDisk(DISK.id, { sizeGb: DISK.sizeGb + 1, pricePerGbMonth: 0.11 }).catch((e: unknown) => e);
    expect(tooBig).toBeInstanceOf(BadRequestError);
    expect(await h.client.volumeListings.unlist("network", listing!.id)).toEqual({ alreadyGone: false });
    expect(await h.client.volumeListings.find("network", { diskId: DISK.id })).toBeNull();

    const foreign = await h.client.volumeListings.listOnMachine(SEED.foreignMachineId, { sizeGb: 10, pricePerGbMonth: 0.1 }).catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(PermissionDeniedError);
  });
});

describe("issue 27 item 4: VolumeListing and NetworkVolumeListing providers", () => {
  it("27.4 create lists, refresh shows a price changed elsewhere as drift, update relists, delete unlists", async () => {
    const end = new Date((nowS() + 60 * DAY) * 1000).toISOString();
    const inputs = await checked(volumeListing, { machineId: M1, sizeGb: 200, pricePerGbMonth: 0.08, endDate: end });
    const made = await volumeListing.create(inputs);
    expect(made.id).toBe(String(M1));
    const outs = made.outs as Props;
    expect(outs).toMatchObject({ listed: true, freeGb: 200, listingId: expect.any(Number) });

    await h.client.volumeListings.listOnMachine(M1, { sizeGb: 200, pricePerGbMonth: 0.2, endDate: nowS() + 60 * DAY });
    const read = await volumeListing.read(made.id, outs);
    expect(read.inputs).toMatchObject({ pricePerGbMonth: 0.2, endDate: end });
    expect(await volumeListing.diff(made.id, read.props as Props, inputs)).toMatchObject({ changes: true, replaces: [] });
    await volumeListing.update(made.id, read.props as Props, inputs);
    expect((await h.client.volumeListings.find("local", { machineId: M1 }))?.pricePerGbMonth).toBe(0.08);

    await volumeListing.delete(made.id, outs);
    expect(await h.client.volumeListings.find("local", { machineId: M1 })).toBeNull();
    expect((await volumeListing.read(made.id, outs)).id).toBe("");
    // a second delete has nothing to unlist
    await volumeListing.delete(made.id, outs);
  });

  it("27.4 a machine with a listing made elsewhere is refused naming importId, and nothing is changed", async () => {
    await h.client.volumeListings.listOnMachine(M2, { sizeGb: 50, pricePerGbMonth: 0.3 });
    const inputs = await checked(volumeListing, { machineId: M2, sizeGb: 50, pricePerGbMonth: 0.1 });
    const refused = await volumeListing.create(inputs).catch((e: unknown) => e);
    expect(String((refused as Error).message)).toMatch(new RegExp(`machine ${M2} already has a volume listing \\(\\d+, at \\$0.3/GB/month\\).*importId: "${M2}"`));
    expect((await h.client.volumeListings.find("local", { machineId: M2 }))?.pricePerGbMonth).toBe(0.3);
  });

  it("27.4 a network volume listing's delete is refused while a renter holds a network volume on it", async () => {
    const inputs = await checked(networkVolumeListing, { diskId: DISK.id, sizeGb: 500, pricePerGbMonth: 0.12 });
    const made = await networkVolumeListing.create(inputs);
    const outs = made.outs as Props;
    expect(outs).toMatchObject({ clusterId: DISK.clusterId, listed: true });
    const rented = await h.client.volumes.create("network", { offerId: outs.listingId as number, sizeGb: 10 });
    const refused = await networkVolumeListing.delete(made.id, outs).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(VolumeListingActiveError);
    await h.client.volumes.delete(rented.id!);
    await networkVolumeListing.delete(made.id, outs);
    expect(await h.client.volumeListings.find("network", { diskId: DISK.id })).toBeNull();
  });
});

describe("issue 27 item 4: volume listings in the simulator's state file", () => {
  it("27.4 a listing survives a restart from the state file, and a file from before listings existed reads as none", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sim-vlist-"));
    const file = path.join(dir, "state.json");
    try {
      const first = await startSimulator({ port: 0, bootMs: 0, stateFile: file });
      const c1 = createClient({ apiKey: first.apiKey, apiUrl: first.url, runUrl: first.runUrl, pacing: false });
      const { listing } = await c1.volumeListings.listOnMachine(M1, { sizeGb: 70, pricePerGbMonth: 0.05 });
      await first.close();
      const second = await startSimulator({ port: 0, bootMs: 0, stateFile: file });
      const c2 = createClient({ apiKey: second.apiKey, apiUrl: second.url, runUrl: second.runUrl, pacing: false });
      try {
        expect(await c2.volumeListings.find("local", { machineId: M1 })).toMatchObject({ id: listing?.id, freeGb: 70, pricePerGbMonth: 0.05 });
      } finally {
        await second.close();
      }
      const saved = JSON.parse(fs.readFileSync(file, "utf8"));
      delete saved.data.volumes.listings;
      fs.writeFileSync(file, JSON.stringify(saved));
      const old = await startSimulator({ port: 0, bootMs: 0, stateFile: file });
      const c3 = createClient({ apiKey: old.apiKey, apiUrl: old.url, runUrl: old.runUrl, pacing: false });
      try {
        expect(await c3.volumeListings.find("local", { machineId: M1 })).toBeNull();
      } finally {
        await old.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
