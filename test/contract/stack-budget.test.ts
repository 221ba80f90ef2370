/**
 * Issue 34 item 4, one budget for the whole stack (`vastai:maxHourlyCost`), through Pulumi's own
 * dynamic-provider plugin from the package as a user installs it. Each plugin process started
 * here is one `pulumi up`: its first rental lists what the stack runs (by the stack's marker),
 * later ones read only what it changed.
 */
import { dynamicUrn, type ProviderPlugin } from "pulumi-vastai/testing";
import { createClient, type VastClient } from "../../provider/client";
import { GENERATION_KEY, IDENTITY_KEY, identityMarker, stackIdentityOf } from "../../provider/resources/kit/create-once";
import { MARKER_ENV } from "../../provider/resources/instance/inputs";
import { startPlugin, useContract } from "./harness";

jest.setTimeout(120_000);

const fx = useContract("instance", { simulator: { bootMs: 0 }, config: { "vastai:pollIntervalMs": "5" } });
const NONCE = { mine: "0123456789abcdef0123456789abcdef", other: "fedcba9876543210fedcba9876543210" };
let client: VastClient;
const plugins: ProviderPlugin[] = [];

beforeAll(() => {
  client = createClient({ apiKey: fx.sim.apiKey, apiUrl: fx.sim.url, pacing: false });
});
afterEach(async () => {
  await Promise.all(plugins.splice(0).map((p) => p.close()));
  await fx.control("POST", "/reset");
});

/** One `pulumi up`'s plugin with the stack budget `budget` ($/hour). */
async function up(budget: string | undefined): Promise<ProviderPlugin> {
  const plugin = await startPlugin({
    "vastai:apiKey": fx.sim.apiKey,
    "vastai:apiUrl": fx.sim.url,
    "vastai:pollIntervalMs": "5",
    ...(budget === undefined ? {} : { "vastai:maxHourlyCost": budget }),
  });
  plugins.push(plugin);
  return plugin;
}

/** $/hour the service charges for offer `id` with the default disk (the price a create is checked at). */
async function priceOf(offerId: number): Promise<number> {
  const [offer] = await client.offers.search({ filters: { id: { eq: offerId } }, noDefaults: true, limit: 1, allocatedStorageGb: 10 });
  return offer.dphTotal!;
}

const inputsOf = (name: string, offerId: number, stack: keyof typeof NONCE = "mine") => ({
  __provider: fx.serialized.instance,
  [IDENTITY_KEY]: stackIdentityOf(NONCE[stack], "Instance", name),
  [GENERATION_KEY]: 1,
  offerId,
  image: "pytorch/pytorch",
  diskGb: 10,
  label: name,
});

async function create(plugin: ProviderPlugin, name: string, offerId: number, stack: keyof typeof NONCE = "mine") {
  const urn = dynamicUrn("dev", "proj", "Instance", name);
  const checked = await plugin.check(urn, {}, inputsOf(name, offerId, stack));
  expect(checked.failures).toEqual([]);
  return plugin.create(urn, checked.inputs);
}

const rentals = async () => (await fx.takeRequests()).filter((r) => r.method === "PUT" && /\/asks\/\d+/.test(r.path)).length;

test("34.4 a create that would take the stack over vastai:maxHourlyCost is refused before anything is rented, naming the stack's cost by object", async () => {
  const [a, b] = [await priceOf(700002), await priceOf(700003)];
  const first = await up(String(a + b / 2));
  const made = await create(first, "a", 700002);
  await fx.takeRequests();
  await expect(create(first, "b", 700003)).rejects.toThrow(
    new RegExp(`renting offer 700003 \\(${b} \\$/hour\\) would bring the stack to .* over vastai:maxHourlyCost .*instance ${made.id} \\(a\\) ${a}.*nothing was rented`),
  );
  expect(await rentals()).toBe(0);
  // A later run (a new plugin process) sees the stack's instance from the service, not from its memory.
  await expect(create(await up(String(a + b / 2)), "b", 700003)).rejects.toThrow(/over vastai:maxHourlyCost/);
  expect(await rentals()).toBe(0);
  // Raised: it fits.
  await create(await up(String(a + b + 0.001)), "b", 700003);
  expect(await rentals()).toBe(1);
});

test("34.4 creates that start together are decided one at a time: with room for two of three, exactly two are rented", async () => {
  const prices = await Promise.all([700004, 700005, 700006].map(priceOf));
  const plugin = await up(String(prices.reduce((s, p) => s + p, 0) - Math.min(...prices) / 2));
  const results = await Promise.allSettled([700004, 700005, 700006].map((offer, i) => create(plugin, `n${i}`, offer)));
  expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
  expect(results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason))).toEqual([expect.stringMatching(/over vastai:maxHourlyCost/)]);
  expect(await rentals()).toBe(2);
});

test("34.4 what a killed run of the stack left counts (it carries the stack's marker); another stack's instances do not", async () => {
  const [a, b, theirs, c] = [await priceOf(700007), await priceOf(700008), await priceOf(700009), await priceOf(700014)];
  const marker = (stack: keyof typeof NONCE, name: string) => identityMarker({ [IDENTITY_KEY]: stackIdentityOf(NONCE[stack], "Instance", name), [GENERATION_KEY]: 1 }) as string;
  // Rented outside any state: by a killed run of this stack, and by another stack.
  await client.instances.create(700007, { image: "ubuntu:22.04", disk: 10, env: { [MARKER_ENV]: marker("mine", "left") } });
  await client.instances.create(700009, { image: "ubuntu:22.04", disk: 10, env: { [MARKER_ENV]: marker("other", "theirs") } });
  await expect(create(await up(String(a + b / 2)), "c", 700008)).rejects.toThrow(/stack runs [0-9.]+ \$\/hour now \(instance \d+ /);
  // The other stack's budget counts its own instance only: with this stack's counted too it would not fit.
  await create(await up(String(theirs + b + 0.001)), "c2", 700008, "other");
  await create(await up(String(a + c + 0.001)), "c", 700014);
});

test("34.4 a Fleet's growth counts against the stack budget beside its own maxHourlyCost", async () => {
  const a = await priceOf(700010);
  const plugin = await up(String(a + 0.01));
  await create(plugin, "a", 700010);
  const urn = dynamicUrn("dev", "proj", "Fleet", "pool");
  const checked = await plugin.check(urn, {}, {
    __provider: fx.serialized.fleet,
    [IDENTITY_KEY]: stackIdentityOf(NONCE.mine, "Fleet", "pool"),
    [GENERATION_KEY]: 1,
    offer: { numGpus: 1 },
    image: "pytorch/pytorch",
    count: 2,
  });
  expect(checked.failures).toEqual([]);
  await fx.takeRequests();
  await expect(plugin.create(urn, checked.inputs)).rejects.toThrow(/Fleet member on offer \d+ .* over vastai:maxHourlyCost/);
  // Nothing the refused rentals would have made is left billing.
  const live = await client.instances.listAll();
  expect(live).toHaveLength(1);
});

test("34.4 a lowered budget destroys nothing: what runs is kept and the next rental is refused", async () => {
  const a = await priceOf(700011);
  await create(await up(String(a + 0.01)), "a", 700011);
  await fx.takeRequests();
  await expect(create(await up("0.001"), "b", 700012)).rejects.toThrow(/stack runs [0-9.]+ \$\/hour now.*nothing is destroyed to meet the budget/);
  const log = await fx.takeRequests();
  expect(log.filter((r) => r.method !== "GET" && r.method !== "POST")).toEqual([]);
  expect(await client.instances.listAll()).toHaveLength(1);
});

test("34.4 a budget that is not a positive number is refused naming the setting and the value", async () => {
  await expect(create(await up("ten"), "a", 700013)).rejects.toThrow(/vastai:maxHourlyCost \(or VASTAI_MAX_HOURLY_COST\) must be a number of dollars per hour greater than 0.*got "ten"/);
  expect(await rentals()).toBe(0);
});

test("34.4 a Volume whose storage would take the stack over the budget is not rented; within it, it is, and counts for the next rental", async () => {
  const urn = dynamicUrn("dev", "proj", "Volume", "data");
  const news = { __provider: fx.serialized.volume, [IDENTITY_KEY]: stackIdentityOf(NONCE.mine, "Volume", "data"), [GENERATION_KEY]: 1, offerId: 900002, sizeGb: 500, name: "data" };
  const [offer] = await client.volumes.searchOffers("local", { filters: { id: { eq: 900002 } }, limit: 1, allocatedStorageGb: 500 });
  const perHour = offer.storageTotalCostPerHour!;
  expect(perHour).toBeGreaterThan(0);
  const tight = await up(String(perHour / 2));
  const checked = await tight.check(urn, {}, news);
  await expect(tight.create(urn, checked.inputs)).rejects.toThrow(/volume on offer 900002 \(500 GB\) .* over vastai:maxHourlyCost/);
  expect(await client.volumes.list()).toEqual([]);
  const roomy = await up(String(perHour + (await priceOf(700015)) / 2));
  await roomy.create(urn, (await roomy.check(urn, {}, news)).inputs);
  await expect(create(roomy, "after", 700015)).rejects.toThrow(/stack runs [0-9.]+ \$\/hour now \(volume \d+ /);
});
