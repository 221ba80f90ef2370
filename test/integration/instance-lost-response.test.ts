/**
 * A create whose response is lost: the instance is found again by its marker and adopted
 * exactly once, or created again when none was made, and never duplicated.
 */
import { setClientOptions } from "../../provider/context";
import { MARKER_ENV } from "../../provider/resources/instance/inputs";
import {
  CREATE_PATH, PAGE_PATH, Props, count, createChecked, liveInstancesOf, rejection,
} from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS });

const markerOf = (live: Props) => (live.extra_env as [string, string][]).find(([k]) => k === MARKER_ENV)?.[1];

it("adopts the instance whose create response was lost after it took effect, exactly once", async () => {
  await h.fault({ method: "PUT", path: "/api/v0/asks/*", times: 1, drop: "after" });
  const { id, outs } = await createChecked({ offerId: 700001, image: "x", label: "lost" });
  const live = liveInstancesOf(h);
  expect(live).toHaveLength(1);
  expect(id).toBe(String(live[0].id));
  expect(outs).toMatchObject({ instanceId: live[0].id, marker: markerOf(live[0]), actualStatus: "running", label: "lost" });
  // The key in the lost response cannot be known; nothing pretends otherwise.
  expect(outs).not.toHaveProperty("instanceApiKey");
  const requests = await h.requests();
  expect(requests.filter((r) => CREATE_PATH.test(r.path)).map((r) => r.dropped)).toEqual(["after"]);
  expect(count(requests, "GET", PAGE_PATH)).toBe(1);
});

it("adopts the right instance when others exist, including ones from other creates", async () => {
  await h.client.instances.create(700002, { image: "other", env: { [MARKER_ENV]: "someone-else" } });
  await h.client.instances.create(700003, { image: "other" });
  await h.fault({ method: "PUT", path: "/api/v0/asks/*", times: 1, drop: "after" });
  const { id, outs } = await createChecked({ offerId: 700001, image: "x" });
  const mine = liveInstancesOf(h).filter((i) => markerOf(i) === outs.marker);
  expect(mine.map((i) => String(i.id))).toEqual([id]);
  expect(liveInstancesOf(h)).toHaveLength(3);
});

it("looks the instance up after a gateway timeout (504) on the create, and creates once more when none was made", async () => {
  await h.fault({ method: "PUT", path: "/api/v0/asks/*", times: 1, status: 504 });
  // A 504 from the fault answers before the service acts: nothing carries the marker, so it creates once more.
  const { id } = await createChecked({ offerId: 700001, image: "x" });
  expect(liveInstancesOf(h).map((i) => String(i.id))).toEqual([id]);
  expect(count(await h.requests(), "PUT", CREATE_PATH)).toBe(2);
});

it("creates again, once, when the lost request never took effect", async () => {
  await h.fault({ method: "PUT", path: "/api/v0/asks/*", times: 1, drop: "before" });
  const { id } = await createChecked({ offerId: 700001, image: "x" });
  expect(liveInstancesOf(h).map((i) => String(i.id))).toEqual([id]);
  const requests = await h.requests();
  expect(requests.filter((r) => CREATE_PATH.test(r.path)).map((r) => r.dropped)).toEqual(["before", undefined]);
  // Two lookups (VASTAI_LOST_RESPONSE_LOOKUPS=2) before concluding nothing was made, and one
  // sweep at the end for a late landing of the lost request.
  expect(count(requests, "GET", PAGE_PATH)).toBe(3);
  // One marker for every send of one create: a late landing of the first is the same create's.
  const bodies = requests.filter((r) => CREATE_PATH.test(r.path)).map((r) => (r.body as Props).env as Props);
  expect(bodies[0][MARKER_ENV]).toBe(bodies[1][MARKER_ENV]);
});

it("gives up after repeated lost responses that created nothing, leaving nothing behind", async () => {
  await h.fault({ method: "PUT", path: "/api/v0/asks/*", times: 3, drop: "before" });
  const error = await rejection(createChecked({ offerId: 700001, image: "x" }));
  expect(error.message).toMatch(/^Instance: the response to creating an instance on offer 700001 was lost 3 times and no instance carries its marker, so nothing was created/);
  expect(liveInstancesOf(h)).toHaveLength(0);
});

it("names the marker when it cannot tell whether the lost create took effect", async () => {
  await h.fault({ method: "PUT", path: "/api/v0/asks/*", times: 1, drop: "after" });
  await h.fault({ method: "GET", path: "/api/v1/instances", times: 20, status: 500 });
  const error = await rejection(createChecked({ offerId: 700001, image: "x" }));
  const [live] = liveInstancesOf(h);
  expect(error.message).toContain(`An instance with ${MARKER_ENV}=${markerOf(live)} in its environment may exist`);
  expect(error.message).toMatch(/the instance list could not be read to find it \(GET \/api\/v1\/instances\/ failed: HTTP 500/);
});

it("treats a 2xx whose body cannot be read as a lost response", async () => {
  await h.fault({ method: "PUT", path: "/api/v0/asks/*", times: 1, status: 200, body: "{not json" });
  const { id } = await createChecked({ offerId: 700001, image: "x" });
  expect(liveInstancesOf(h).map((i) => String(i.id))).toEqual([id]);
  expect(count(await h.requests(), "PUT", CREATE_PATH)).toBe(2);
});

describe("a service slower than the client's timeout", () => {
  // Boots take 500 ms, so the create is still waiting when the slow first request lands.
  const slow = useSimulator({ simulator: { bootMs: 500 }, providers: true, settings: FAST_INSTANCE_SETTINGS, reset: false });

  it("destroys the instance of a create that lands after it was given up on, leaving exactly one", async () => {
    setClientOptions({ timeoutMs: 150 });
    await slow.fault({ method: "PUT", path: "/api/v0/asks/*", times: 1, delayMs: 300 });
    const { id, outs } = await createChecked({ offerId: 700001, image: "x" });
    expect(liveInstancesOf(slow).map((i) => String(i.id))).toEqual([id]);
    expect(outs.actualStatus).toBe("running");
    const requests = await slow.requests();
    expect(count(requests, "PUT", CREATE_PATH)).toBe(2);
    // The request given up on lands after the second rented the offer: the offer is taken, so
    // the service refuses it (404 no_such_ask) and nothing is left to destroy.
    expect(count(requests, "DELETE", /^\/api\/v0\/instances\/\d+\/?$/)).toBe(0);
  });
});
