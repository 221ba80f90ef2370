/**
 * Issue 28 (cost follows the stack, never the account): before renting, an Instance create with
 * an identity looks for the instance a killed earlier run of it left. Among hundreds of other
 * instances, creates that start together share that look-up, and labeled ones list only the
 * instances with their labels: counted in the simulator's request log. The instance an earlier
 * run left is still found and adopted.
 */
import { getClient } from "../../provider/context";
import { GENERATION_KEY, IDENTITY_KEY, identityMarker, stackIdentityOf } from "../../provider/resources/kit";
import { MARKER_ENV } from "../../provider/resources/instance/inputs";
import { FAST_INSTANCE_SETTINGS, pointProviders, useSimulator } from "../support/simulator";
import { CREATE_PATH, PAGE_PATH, checked, instance, type Props } from "./instance-support";

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS, simulator: { marketOffers: 60 } });
const OTHERS = 300;
const NONCE = "0123456789abcdef0123456789abcdef";
let offer = 800_001;

const identified = (name: string, extra: Props = {}): Props => ({
  offerId: offer++,
  image: "pytorch/pytorch",
  [IDENTITY_KEY]: stackIdentityOf(NONCE, "Instance", name),
  [GENERATION_KEY]: 1,
  ...extra,
});

/** Whole-account pages: list calls with no filter but the paging one (`id >= n`) or none. */
function isWholeListing(query: Record<string, unknown>): boolean {
  const filters = typeof query.select_filters === "string" ? (JSON.parse(query.select_filters) as Record<string, unknown>) : {};
  return Object.keys(filters).every((k) => k === "id" && !("in" in (filters.id as object)));
}

/** Creates `news` at once in a fresh process; the instance list calls they made, by kind. */
async function createTogether(news: Props[]): Promise<{ outs: Props[]; whole: number; byLabel: number }> {
  pointProviders(h, h.sim.apiKey, FAST_INSTANCE_SETTINGS);
  const inputs = await Promise.all(news.map((n) => checked(n)));
  await h.clearRequests();
  const made = await Promise.all(inputs.map((i) => instance.create(i)));
  const lists = (await h.requests()).filter((r) => r.method === "GET" && PAGE_PATH.test(r.path));
  const byLabel = lists.filter((r) => typeof r.query.select_filters === "string" && r.query.select_filters.includes('"label"')).length;
  return { outs: made.map((m) => m.outs as Props), whole: lists.filter((r) => isWholeListing(r.query)).length, byLabel };
}

beforeEach(async () => {
  await h.control("POST", "/instances", { count: OTHERS, label: "other-stack" });
});

it(`28 labeled Instances created together among ${OTHERS} other instances look for earlier runs with one list call by label, not a walk of the account each`, async () => {
  const { outs, whole, byLabel } = await createTogether([0, 1, 2, 3].map((i) => identified(`gpu-${i}`, { label: `train-${i}` })));
  expect(new Set(outs.map((o) => o.instanceId)).size).toBe(4);
  // The old look-up walked all ceil(304/25) = 13 pages once per create: 52 calls.
  expect(whole).toBe(0);
  expect(byLabel).toBe(1);
});

it("28 unlabeled Instances created together share one walk of the account", async () => {
  const { whole } = await createTogether([0, 1, 2].map((i) => identified(`plain-${i}`)));
  const pages = Math.ceil((OTHERS + 10) / 25);
  // One shared walk (the old look-up made one per create: 3 walks).
  expect(whole).toBeLessThanOrEqual(pages + 1);
  expect(whole).toBeGreaterThan(0);
});

it("28 the instance a killed earlier run of a labeled create left is found through the label and adopted, not rented again", async () => {
  const news = identified("adopted", { label: "train-adopted" });
  const marker = identityMarker(news) as string;
  pointProviders(h, h.sim.apiKey, FAST_INSTANCE_SETTINGS);
  // What the killed run's request made: an instance with the create's label and marker.
  const left = await getClient().instances.create(Number(news.offerId), { image: "pytorch/pytorch", label: "train-adopted", env: { [MARKER_ENV]: marker } });
  const { outs, whole } = await createTogether([news]);
  expect(outs[0].instanceId).toBe(left.id);
  expect(whole).toBe(0);
  // No second rental.
  expect((await h.requests()).filter((r) => r.method === "PUT" && CREATE_PATH.test(r.path))).toEqual([]);
});

it("28 Instances checked first and created one at a time (as the engine runs a program) look for earlier runs with one list call for all their labels", async () => {
  pointProviders(h, h.sim.apiKey, FAST_INSTANCE_SETTINGS);
  const inputs: Props[] = [];
  for (let i = 0; i < 6; i++) inputs.push(await checked(identified(`serial-${i}`, { label: `serial-${i}` })));
  await h.clearRequests();
  for (const i of inputs) await instance.create(i);
  const lists = (await h.requests()).filter((r) => r.method === "GET" && PAGE_PATH.test(r.path));
  // Without the labels announced by check, each create made a look-up of its own: 6 calls.
  expect(lists.filter((r) => typeof r.query.select_filters === "string" && r.query.select_filters.includes('"label"'))).toHaveLength(1);
  expect(lists.filter((r) => isWholeListing(r.query))).toEqual([]);
});

it("28 long labels are split over look-up calls so that no call carries more than 2000 characters of labels", async () => {
  const long = (i: number) => `${String(i).repeat(900)}`;
  const { outs, byLabel } = await createTogether([1, 2, 3, 4].map((i) => identified(`long-${i}`, { label: long(i) })));
  expect(outs).toHaveLength(4);
  // 900 characters each: two labels a call.
  expect(byLabel).toBe(2);
  const calls = (await h.requests()).filter((r) => r.method === "GET" && typeof r.query.select_filters === "string" && r.query.select_filters.includes('"label"'));
  for (const call of calls) {
    const labels = (JSON.parse(call.query.select_filters as string) as { label: { in: string[] } }).label.in;
    expect(labels.join("").length).toBeLessThanOrEqual(2000);
  }
});

it("28 a labeled create that starts beside an unlabeled one still finds what its killed earlier run left (the shared whole listing serves both)", async () => {
  const news = identified("beside", { label: "train-beside" });
  const marker = identityMarker(news) as string;
  pointProviders(h, h.sim.apiKey, FAST_INSTANCE_SETTINGS);
  const left = await getClient().instances.create(Number(news.offerId), { image: "pytorch/pytorch", label: "train-beside", env: { [MARKER_ENV]: marker } });
  const { outs } = await createTogether([news, identified("beside-plain")]);
  expect(outs[0].instanceId).toBe(left.id);
  expect((await h.requests()).filter((r) => r.method === "PUT" && CREATE_PATH.test(r.path))).toHaveLength(1);
});
