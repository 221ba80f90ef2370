/**
 * A refresh under the service's limit on the paged instance list (one call a second), with the
 * client's default pacing: the shared reader walks ceil(N/25) pages, spaced so the service
 * refuses none, and every read is served from that walk.
 */
import { PAGE_PATH, Props, checked, count, instance } from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

const N = 60;
// Only the list is limited, as on the service; creation stays unlimited to set up quickly.
// The providers keep the default pacing intervals (1.1 s for the paged list).
const h = useSimulator({
  // A rented offer is taken: each instance rents one of the bulk market.
  simulator: { rateLimits: { "GET /api/v1/instances": 1000 }, marketOffers: N },
  providers: { pacing: {} },
  settings: FAST_INSTANCE_SETTINGS,
  reset: false,
});
let states: Array<{ id: string; props: Props }>;

beforeAll(async () => {
  const inputs = await checked({ offerId: 700001, image: "x" });
  states = [];
  for (let i = 0; i < N; i++) {
    const { id } = await h.client.instances.create(800_001 + i, { image: "x" });
    states.push({ id: String(id), props: { ...inputs, instanceId: id } });
  }
  await h.clearRequests();
});

it(`reads ${N} instances with ${Math.ceil(N / 25)} paced list calls and no refusal`, async () => {
  const started = Date.now();
  const reads = await Promise.all(states.map((s) => instance.read(s.id, s.props)));
  const elapsed = Date.now() - started;
  expect(reads.map((r) => r.id)).toEqual(states.map((s) => s.id));
  const requests = await h.requests();
  expect(count(requests, "GET", PAGE_PATH)).toBe(3);
  expect(requests.filter((r) => r.status === 429)).toEqual([]);
  // And one walk of the charges for the instances' spentUsd (issue 27 item 5), shared by all of them.
  expect(count(requests, "GET", /^\/api\/v0\/charges\/?$/)).toBe(1);
  expect(requests).toHaveLength(4);
  // Three pages one interval apart: about two intervals of the list endpoint.
  expect(elapsed).toBeGreaterThanOrEqual(2000);
  console.log(`refresh of ${N} instances: ${requests.length} calls (${count(requests, "GET", PAGE_PATH)} list pages), ${elapsed} ms`);
}, 20_000);
