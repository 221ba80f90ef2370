/**
 * Issue 26 item 9 (first point), with issue 23 item 3: without `diskGb` an Instance's offers are
 * priced with the disk it is rented with (its template's `recommended_disk_space`), and the
 * create sends that disk, so `maxPricePerHour` is judged against what the service charges.
 * Against the simulator over HTTP; storage costs 0.15 $/GB/month, so 2000 GB add 0.41 $/hour.
 */
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";
import { CREATE_PATH, checked, count, createChecked, instance, liveInstancesOf, rejection } from "./instance-support";

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS });

describe("issue 26 item 9: the disk priced is the disk rented", () => {
  it("26.9 without diskGb the template's disk is priced: an offer within the cap only at 5 GB is not rented", async () => {
    const { template } = await h.client.templates.create({ name: "big-disk", image: "pytorch/pytorch", tag: "2.4.0", recommendedDiskSpace: 2000 });
    await h.clearRequests();
    // RTX 3090 x1 (offer 700005) costs 0.18 $/hour with a small disk, 0.60 with 2000 GB.
    const error = await rejection(instance.create(await checked({ offer: { gpuName: "RTX 3090", numGpus: 1, maxPricePerHour: 0.5 }, templateHashId: template.hashId })));
    expect(error.message).toMatch(/^Instance: no offer matches the offer filters/);
    expect(count(await h.requests(), "PUT", CREATE_PATH)).toBe(0);
    expect(liveInstancesOf(h)).toEqual([]);
  });

  it("26.9 the disk priced is sent, and the service charges the price the search showed", async () => {
    const { template } = await h.client.templates.create({ name: "mid-disk", image: "pytorch/pytorch", tag: "2.4.0", recommendedDiskSpace: 200 });
    const { outs } = await createChecked({ offer: { gpuName: "RTX 3090", numGpus: 1 }, templateHashId: template.hashId });
    const search = (await h.requests()).find((r) => r.method === "POST" && r.path.startsWith("/api/v0/bundles"));
    expect((search?.body as Record<string, unknown>).allocated_storage).toBe(200);
    const [row] = liveInstancesOf(h);
    expect(row.disk_space).toBe(200);
    expect(outs.pricePerHour).toBeCloseTo(0.18 + (0.15 / 720) * (200 - 8), 6);
  });
});
