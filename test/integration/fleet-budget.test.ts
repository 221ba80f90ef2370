/**
 * Issue 23 item 3: `maxHourlyCost` holds for every rental of a run, with the price the service
 * charges and the disk rented; the Fleet's provider against the simulator over HTTP. Prices
 * (at the default 8 GB of disk): offer 700005 0.18, 700001 0.32, 700017 0.45 $/hour, the
 * cheapest matches of `base` in that order.
 */
import { FLEET_BASE, useFleetProvider } from "./fleet-support";
import { PartialFailure } from "../../provider/resources/kit";
import { CREATE_PATH, count, rejection } from "./instance-support";

type Props = Record<string, unknown>;
type Member = { id: number; offerId: number; machineId: number; status: string; pricePerHour: number };

const { h, fleet, checked } = useFleetProvider();
const base = FLEET_BASE;

const membersOf = (outs: Props) => outs.members as Member[];
const live = () => h.sim.state().instances as Props[];
/** What the account pays per hour now, as the service's rows say. */
const liveCost = () => live().reduce((s, i) => s + Number(i.dph_total), 0);

/** The members a partial failure kept for state. */
function keptOf(error: Error): Member[] {
  expect(error).toBeInstanceOf(PartialFailure);
  return membersOf((error as PartialFailure).properties);
}

describe("issue 23 item 3: maxHourlyCost holds for every rental of the run", () => {
  it("23.3 an offer taken between search and rent: the next match is rented only if the fleet stays within the budget", async () => {
    // 700005 + 700001 = 0.50 fits 0.55; 700001 is taken, and the next match (700017) would make it 0.63.
    await h.fault({ method: "PUT", path: "/api/v0/asks/700001", status: 404, body: { success: false, error: "no_such_ask", msg: "No ask by id 700001 is available." } });
    const error = await rejection(fleet.create(await checked({ ...base, count: 2, maxHourlyCost: 0.55 })));
    expect(error.message).toMatch(/^Fleet "workers": renting offer 700017 \(0\.45 \$\/hour\) would bring the fleet to 0\.63 \$\/hour, over maxHourlyCost 0\.55 \(\$\/hour\): 1 member\(s\) 0\.18 .*; it was not rented/);
    expect(liveCost()).toBeLessThanOrEqual(0.55);
    // What was rented is kept in state: nothing leaks.
    expect(keptOf(error).map((m) => m.id)).toEqual(live().map((i) => Number(i.id)));
  });

  it("23.3 a member dead at boot is rented again only within the budget", async () => {
    await h.control("POST", "/next-boot", { actual_status: "exited", times: 1 });
    const error = await rejection(fleet.create(await checked({ ...base, count: 2, maxHourlyCost: 0.55 })));
    expect(error.message).toMatch(/^Fleet "workers": renting offer \d+ \(0\.\d+ \$\/hour\) would bring the fleet to 0\.\d+ \$\/hour, over maxHourlyCost 0\.55/);
    expect(liveCost()).toBeLessThanOrEqual(0.55);
    const kept = keptOf(error);
    expect(kept.map((m) => m.id).sort()).toEqual(live().map((i) => Number(i.id)).sort());
  });

  it("23.3 a machine refusing an in-place update is replaced only within the budget", async () => {
    const { id, outs } = await fleet.create(await checked({ ...base, count: 2, maxHourlyCost: 0.55, minHealthy: 1 }));
    expect(membersOf(outs as Props).map((m) => m.offerId)).toEqual([700005, 700001]);
    const refusing = membersOf(outs as Props)[1];
    await h.control("POST", `/machines/${refusing.machineId}/refuse-updates`, { reason: "the machine cannot recreate the container" });
    const news = await checked({ ...base, image: "vllm/vllm-openai:latest", count: 2, maxHourlyCost: 0.55, minHealthy: 1 }, outs as Props);
    const error = await rejection(fleet.update(id, outs as Props, news));
    expect(error.message).toMatch(/^Fleet "workers": renting offer 700017 \(0\.45 \$\/hour\) would bring the fleet to 0\.63 \$\/hour, over maxHourlyCost 0\.55/);
    expect(liveCost()).toBeLessThanOrEqual(0.55);
    expect(keptOf(error).map((m) => m.id).sort()).toEqual(live().map((i) => Number(i.id)).sort());
  });

  it("23.3 a price that rose between search and rent: the charge is read back, the member over the budget destroyed, the run fails", async () => {
    // The search the fleet makes answers with the prices of a moment ago; then 700005 costs 0.9.
    const stale = await fetch(`${h.sim.url}/api/v0/bundles/`, {
      method: "POST",
      headers: { authorization: `Bearer ${h.sim.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ id: { in: [700005, 700001, 700017] }, allocated_storage: 8 }),
    }).then((r) => r.json());
    await h.fault({ method: "POST", path: "/api/v0/bundles", status: 200, body: stale });
    await h.control("POST", "/offers/700005", { dph_total: 0.9 });
    const error = await rejection(fleet.create(await checked({ ...base, count: 2, maxHourlyCost: 0.6 })));
    expect(error.message).toMatch(/^Fleet "workers": the service charges more than the search showed: with the new member\(s\) the fleet costs 1\.22 \$\/hour, over maxHourlyCost 0\.6 \(\$\/hour\): 2 member\(s\) 1\.22 .*; 1 new member\(s\) were destroyed \(member \d+ on offer 700005: charged 0\.9, offered at 0\.18\)/);
    expect(live().map((i) => Number(i.dph_total))).toEqual([0.32]);
    expect(keptOf(error).map((m) => [m.offerId, m.pricePerHour])).toEqual([[700001, 0.32]]);
  });

  it("23.3 the spare member of an in-place roll is counted: refused before anything changes when the peak is over", async () => {
    const { id, outs } = await fleet.create(await checked({ ...base, count: 2, maxHourlyCost: 0.7 }));
    await h.clearRequests();
    // Final: 700005 updated (0.18) + the spare on 700017 (0.45) = 0.63; while the roll runs, the
    // member the spare stands in for (0.32) runs beside it: 0.95.
    const news = await checked({ ...base, image: "vllm/vllm-openai:latest", count: 2, maxHourlyCost: 0.7 }, outs as Props);
    const error = await rejection(fleet.update(id, outs as Props, news));
    expect(error.message).toMatch(
      /^Fleet "workers": the projected cost 0\.95 \$\/hour exceeds maxHourlyCost 0\.7 \(\$\/hour\): .* \+ 1 member\(s\) running beside their replacement during the roll 0\.32 .*; nothing was rented$/,
    );
    const log = await h.requests();
    expect(count(log, "PUT", CREATE_PATH)).toBe(0);
    expect(log.filter((r) => r.method === "DELETE" || /update_template/.test(r.path))).toEqual([]);
  });

  it("23.3 (and 26.9) without diskGb the search prices the template's disk, the disk the members are rented with", async () => {
    const { template } = await h.client.templates.create({ name: "big-disk", image: "pytorch/pytorch", tag: "2.4.0", recommendedDiskSpace: 2000 });
    // 2000 GB at 0.15 $/GB/month is 0.42 $/hour on top of the GPU: 700005 costs 0.59.
    const error = await rejection(fleet.create(await checked({ offer: base.offer, templateHashId: template.hashId, count: 1, maxHourlyCost: 0.5 })));
    expect(error.message).toMatch(/^Fleet "workers": the projected cost 0\.59\d* \$\/hour exceeds maxHourlyCost 0\.5 .*offer 700005 0\.59/);
    expect(live()).toEqual([]);
    const { outs } = await fleet.create(await checked({ offer: base.offer, templateHashId: template.hashId, count: 1, maxHourlyCost: 0.7 }));
    const [member] = membersOf(outs as Props);
    const [row] = live();
    expect(row.disk_space).toBe(2000);
    expect(member.pricePerHour).toBeCloseTo(Number(row.dph_total), 6);
    expect((outs as Props).hourlyCost).toBeLessThanOrEqual(0.7);
  });
});
