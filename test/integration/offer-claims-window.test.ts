/**
 * Issue 28 item 3: Instances chosen by offer filters share one search among the creates that
 * start together and keep a window of matches, searched again only when it runs short or its
 * offers turn out taken, so the rows searched per create stay constant however long the run.
 * Against the simulator over HTTP (a bulk market of 200 single-GPU offers); rows are the
 * `limit` each search sent, from the simulator's request log.
 */
import { getClient } from "../../provider/context";
import { SERVICE_DEFAULT_DISK_GB, offerQueryFor } from "../../provider/resources/instance/offers";
import { resetClaims } from "../../provider/resources/fleet/claims";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";
import { CREATE_PATH, checked, count, instance, type Props } from "./instance-support";
import type { LoggedRequest } from "./client-support";

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS, simulator: { marketOffers: 200 } });

beforeEach(() => resetClaims());

const SEARCH = /^\/api\/v0\/bundles\/?$/;
const searches = (log: LoggedRequest[]) => log.filter((r) => r.method === "POST" && SEARCH.test(r.path));
const rowsOf = (log: LoggedRequest[]) => searches(log).map((r) => Number((r.body as { limit?: number }).limit ?? 0));

/** Creates `n` Instances from the same filters, `parallel` at once, as the engine runs an up. */
let made = 0;
async function createMany(n: number, parallel: number, filters: Props): Promise<Props[]> {
  const outs: Props[] = [];
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const i = made++;
      const inputs = await checked({ offer: filters, image: "pytorch/pytorch", __identity: `proj/dev/Instance/w${i}` });
      outs.push((await instance.create(inputs)).outs as Props);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return outs;
}

describe("issue 28 item 3: a shared, claimed window of offers", () => {
  it("28.3 40 creates from one set of filters search a constant number of rows per create, and rent 40 distinct offers", async () => {
    await h.clearRequests();
    const outs = await createMany(40, 10, { numGpus: 1, maxPricePerHour: 5 });
    const log = await h.requests();
    const offers = outs.map((o) => o.offerId);
    expect(new Set(offers).size).toBe(40);
    expect(count(log, "PUT", CREATE_PATH)).toBe(40);
    // Nothing was refused as taken: two creates of the run never raced for one offer.
    expect(log.filter((r) => r.method === "PUT" && CREATE_PATH.test(r.path) && r.status !== 200)).toEqual([]);
    const rows = rowsOf(log);
    // Constant per create on average: a few rows each, and later searches no larger than early ones.
    expect(rows.reduce((a, b) => a + b, 0) / 40).toBeLessThanOrEqual(5);
    expect(Math.max(...rows)).toBeLessThanOrEqual(2 * rows[0]);
  });

  it("28.3 an offer of the window found taken (404 no_such_ask) makes the next create search again, and it rents another", async () => {
    const [first] = await createMany(1, 1, { numGpus: 1 });
    // The window's next cheapest match is rented by someone else meanwhile.
    const window = searches(await h.requests());
    expect(window).toHaveLength(1);
    await h.clearRequests();
    const all = await getClient().offers.search({ ...offerQueryFor({ numGpus: 1 }, SERVICE_DEFAULT_DISK_GB), limit: 3 });
    const taken = all.find((o) => o.id !== first.offerId)!.id;
    await h.fault({ method: "PUT", path: `/api/v0/asks/${taken}`, status: 404, body: { success: false, error: "no_such_ask", msg: `No ask by id ${taken} is available.` } });
    await h.clearRequests();
    const [second] = await createMany(1, 1, { numGpus: 1 });
    expect(second.offerId).not.toBe(taken);
    expect(second.offerId).not.toBe(first.offerId);
    const refused = (await h.requests()).filter((r) => r.method === "PUT" && CREATE_PATH.test(r.path) && r.status === 404);
    expect(refused.map((r) => r.path.replace(/\/$/, ""))).toEqual([`/api/v0/asks/${taken}`]);
    // The second create used the window (no search), met the taken offer, rented the next one;
    expect(searches(await h.requests())).toHaveLength(0);
    await h.clearRequests();
    // the third searches again.
    await createMany(1, 1, { numGpus: 1 });
    expect(searches(await h.requests())).toHaveLength(1);
  });
});
