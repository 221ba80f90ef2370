/**
 * Issue 28 item 2: rolls and in-place updates wait about each boot, not a whole status poll per
 * member. Against the simulator over HTTP with real boots of BOOT_MS and the provider's poll
 * interval set to five times that (the ratio of a 2 s boot to the default 10 s poll), so the
 * test is short and still fails on a wait that sleeps whole poll intervals. Time is measured
 * against the boot bound: the sum of the boots for a roll one member at a time, the longest
 * boot for updates sent together. Reads come from the simulator's request log. The bench holds
 * the 1.2x target with 2 s boots; here, with boots of 1 s on a shared machine, the fixed costs
 * of each step weigh twice as much, so the tests allow 1.3x (a wait of whole poll intervals
 * takes 4x to 5x).
 */
import { drive } from "./account-resources-support";
import { providers } from "../../provider/providers";
import { getClient } from "../../provider/context";
import { resetClaims } from "../../provider/resources/fleet/claims";
import { pointProviders, useSimulator } from "../support/simulator";
import { ONE_PATH, PAGE_PATH, checked, count, createChecked, instance, type Props } from "./instance-support";

const BOOT_MS = 1000;
const LIMIT = 1.3;
const SETTINGS = { pollIntervalMs: 5 * BOOT_MS, lostResponseLookups: 2 };
const h = useSimulator({ providers: true, settings: SETTINGS, simulator: { bootMs: BOOT_MS } });
const fleet = drive(providers.fleet);

beforeEach(() => resetClaims());

const UPDATE_PATH = /^\/api\/v0\/instances\/update_template\/\d+\/?$/;
const base = { offer: { numGpus: 1, gpuRamGb: 24 }, image: "pytorch/pytorch" };

async function fleetChecked(news: Props, olds: Props = {}): Promise<Props> {
  const { inputs, failures } = await fleet.check(olds, { __provider: "p", __identity: "proj/dev/Fleet/rolled", ...news });
  expect(failures).toEqual([]);
  return inputs as Props;
}

/** Reads of instance status: one-instance reads and instance lists. */
const reads = async () => {
  const log = await h.requests();
  return count(log, "GET", ONE_PATH) + count(log, "GET", PAGE_PATH);
};

describe("issue 28 item 2: rolls wait for boots, not for poll intervals", () => {
  it("28.2 a one-at-a-time in-place roll of 3 members takes at most 1.3x the sum of its boots, in a fresh process", async () => {
    const made = await fleet.create(await fleetChecked({ ...base, count: 3, minHealthy: 2 }));
    const outs = made.outs as Props;
    // The roll runs in a new plugin process: no boot seen yet.
    pointProviders(h, h.sim.apiKey, SETTINGS);
    const news = await fleetChecked({ ...base, count: 3, minHealthy: 2, image: "vllm/vllm-openai:latest" }, outs);
    await h.clearRequests();
    const started = performance.now();
    const { outs: rolled } = await fleet.update(made.id, outs, news);
    const took = performance.now() - started;
    const log = await h.requests();
    expect(count(log, "PUT", UPDATE_PATH)).toBe(3);
    expect(((rolled as Props).members as { status: string }[]).map((m) => m.status)).toEqual(["running", "running", "running"]);
    const bound = 3 * BOOT_MS;
    expect(took).toBeLessThanOrEqual(LIMIT * bound);
    // A handful of reads per boot, not one every few milliseconds.
    expect(await reads()).toBeLessThanOrEqual(3 * 15);
  });

  it("28.2 four Instances updated in place at once take at most 1.3x one boot after their updates, confirmed by shared reads", async () => {
    const made = [];
    for (const offerId of [700001, 700002, 700005, 700017]) made.push(await createChecked({ offerId, image: "pytorch/pytorch" }));
    pointProviders(h, h.sim.apiKey, SETTINGS);
    const updates = await Promise.all(made.map(async ({ id, outs }) => ({ id, outs, news: await checked({ offerId: outs.offerId, image: "nginx" }) })));
    // The boots start when their updates are answered: the bound is the last of those plus one boot.
    const actions = getClient().instanceActions;
    const send = actions.updateTemplate.bind(actions);
    let lastSent = 0;
    actions.updateTemplate = async (...args: Parameters<typeof send>) => {
      const answer = await send(...args);
      lastSent = performance.now();
      return answer;
    };
    await h.clearRequests();
    const started = performance.now();
    const after = await Promise.all(updates.map(({ id, outs, news }) => instance.update(id, outs, news)));
    const took = performance.now() - started;
    const bound = lastSent - started + BOOT_MS;
    expect(after.map((a) => (a.outs as Props).status ?? (a.outs as Props).actualStatus)).toEqual(["running", "running", "running", "running"]);
    expect(count(await h.requests(), "PUT", UPDATE_PATH)).toBe(4);
    expect(took).toBeLessThanOrEqual(LIMIT * bound);
    // They wait together: list calls confirm several at once, and no more reads than a few per boot.
    const lists = (await h.requests()).filter((r) => r.method === "GET" && PAGE_PATH.test(r.path));
    const named = lists.map((r) => (JSON.parse(String(r.query.select_filters)) as { id: { in: number[] } }).id.in.length);
    expect(Math.max(0, ...named)).toBeGreaterThanOrEqual(2);
    expect(await reads()).toBeLessThanOrEqual(4 * 8);
  });
});
