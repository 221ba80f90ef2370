/**
 * Readiness beyond `running`, against the simulator over real HTTP: the simulator publishes a
 * machine's container ports on 127.0.0.1 (`POST /_sim/machines/{id}/ports`), where this test
 * listens (ready) or nothing does (never ready). The probe clock is injected: no real waiting.
 */
import { diffOfInputs } from "../../provider/resources/instance/diff";
import { CREATE_PATH, checked, createChecked, instance, liveInstancesOf, rejection } from "./instance-support";
import { closedPort, useHealthServer, useSteppedClock } from "../support/readiness";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS });

const health = useHealthServer();
useSteppedClock();

const filters = { offer: { gpuName: "RTX 4090" }, image: "x", ports: ["8000:8000"] };

it("probes the published port over HTTP before create returns", async () => {
  await h.control("POST", "/machines/30001/ports", { ports: { "8000/tcp": health.port } });
  const { outs } = await createChecked({ ...filters, readiness: { httpPath: "/health", timeoutMinutes: 1 } });
  expect(outs).toMatchObject({ offerId: 700001, publicIp: "127.0.0.1", portMappings: { "8000/tcp": health.port } });
  expect(health.hits).toEqual(["/health"]);
});

it("a TCP probe needs only a listener", async () => {
  await h.control("POST", "/machines/30001/ports", { ports: { "8000/tcp": health.port } });
  await createChecked({ ...filters, readiness: { tcpPort: 8000, timeoutMinutes: 1 } });
  expect(health.hits).toEqual([]);
});

it("an instance that never becomes ready is destroyed and rented elsewhere, never on the same machine again", async () => {
  const dead = await closedPort();
  await h.control("POST", "/machines/30001/ports", { ports: { "8000/tcp": dead } });
  await h.control("POST", "/machines/30002/ports", { ports: { "8000/tcp": health.port } });
  const { outs } = await createChecked({ ...filters, readiness: { httpPath: "/health", timeoutMinutes: 1 } });
  expect(outs).toMatchObject({ offerId: 700002, machineId: 30002 });
  expect(liveInstancesOf(h).map((i) => i.machine_id)).toEqual([30002]);
  expect((await h.requests()).filter((r) => CREATE_PATH.test(r.path)).map((r) => r.path)).toEqual(["/api/v0/asks/700001/", "/api/v0/asks/700002/"]);
});

it("an HTTP answer other than 2xx/3xx is not ready; when the attempts run out nothing is left and the error says why", async () => {
  await h.control("POST", "/machines/30001/ports", { ports: { "8000/tcp": health.port } });
  await h.control("POST", "/machines/30002/ports", { ports: { "8000/tcp": health.port } });
  const error = await rejection(createChecked({ ...filters, readiness: { httpPath: "/nope", timeoutMinutes: 1 }, maxCreateAttempts: 2 }));
  expect(error.message).toMatch(
    new RegExp(`^Instance \\d+ on offer 700002: it was not ready after 1 minutes \\(readiness.timeoutMinutes; last: GET http://127.0.0.1:${health.port}/nope answered HTTP 503\\); it was destroyed. Attempts: instance \\d+ on offer 700001: it was not ready`),
  );
  expect(error.id).toBeUndefined();
  expect(liveInstancesOf(h)).toEqual([]);
});

it("skips later offers on a machine that failed readiness (the machine is remembered)", async () => {
  // Offer 700001's machine hosts no other offer in the seed: make the search show two offers on it.
  const dead = await closedPort();
  await h.control("POST", "/machines/30001/ports", { ports: { "8000/tcp": dead } });
  await h.control("POST", "/machines/30002/ports", { ports: { "8000/tcp": health.port } });
  const rows = [
    { id: 700001, machine_id: 30001, dph_total: 0.32, rentable: true, rented: false },
    { id: 700005, machine_id: 30001, dph_total: 0.33, rentable: true, rented: false },
    { id: 700002, machine_id: 30002, dph_total: 0.62, rentable: true, rented: false },
  ];
  await h.fault({ method: "POST", path: "/api/v0/bundles", status: 200, body: { offers: rows }, times: 1 });
  const { outs } = await createChecked({ ...filters, readiness: { tcpPort: 8000, timeoutMinutes: 1 } });
  expect(outs.offerId).toBe(700002);
  expect((await h.requests()).filter((r) => CREATE_PATH.test(r.path)).map((r) => r.path)).toEqual(["/api/v0/asks/700001/", "/api/v0/asks/700002/"]);
});

it("with a given offerId an unready instance is not rented there again: destroyed, clear error", async () => {
  await h.control("POST", "/machines/30001/ports", { ports: { "8000/tcp": await closedPort() } });
  const error = await rejection(createChecked({ offerId: 700001, image: "x", ports: ["8000:8000"], readiness: { timeoutMinutes: 1 } }));
  expect(error.message).toMatch(/^Instance \d+ on offer 700001: it was not ready after 1 minutes \(readiness.timeoutMinutes; last: TCP connection to 127.0.0.1:\d+ failed \(ECONNREFUSED\)\); it was destroyed\.$/);
  expect(liveInstancesOf(h)).toEqual([]);
});

it("check: readiness needs a TCP port (tcpPort, or a ports entry); readiness changes are recorded only", async () => {
  const { failures } = await instance.check({}, { __provider: "p", offerId: 700001, image: "x", readiness: { timeoutMinutes: 1 } });
  expect(failures).toEqual([{ property: "readiness.tcpPort", reason: "readiness.tcpPort: is required when ports has no TCP mapping to probe" }]);
  const news = await checked({ offerId: 700001, image: "x", ports: ["8000:8000"], readiness: { timeoutMinutes: 2 } });
  const olds = { ...news, readiness: { timeoutMinutes: 1 } };
  expect(diffOfInputs(olds, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
});
