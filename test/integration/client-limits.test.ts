/** The client's limits over real HTTP against the simulator: the response cap and paging that cycles. */
import { PagingLoopError, ResponseTooLargeError } from "../../provider/client";
import { ResponseTooLarge, gotTransport } from "../../provider/client/transport";
import { Harness, startHarness } from "./client-support";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.control("POST", "/reset"));

describe("client limits over HTTP", () => {
  it("(14) stops reading an answer over maxResponseMB and names the endpoint and the cap", async () => {
    await h.fault({ method: "GET", path: "/api/v0/instances/", status: 200, body: { instances: [], pad: "x".repeat(900 * 1024) }, times: 1 });
    const client = h.clientWith({ maxResponseMB: 0.5 });
    const error = await client.instances.list().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error?.message).toContain("GET /api/v0/instances/ (GET /api/v0/instances/) answered with more than 0.5 MB");
    // One request: the same call would get the same answer.
    expect((await h.requests()).filter((r) => r.path === "/api/v0/instances/")).toHaveLength(1);
  });

  it("(14) the HTTP transport itself stops reading at the cap", async () => {
    await h.fault({ method: "GET", path: "/api/v0/instances/", status: 200, body: { pad: "x".repeat(900 * 1024) }, times: 1 });
    const exchange = { method: "GET", url: `${h.sim.url}/api/v0/instances/`, headers: { authorization: `Bearer ${h.sim.apiKey}` }, timeoutMs: 10_000, freshConnection: true };
    await expect(gotTransport({ ...exchange, maxResponseBytes: 64 * 1024 })).rejects.toBeInstanceOf(ResponseTooLarge);
    // Under the cap the same answer is read whole.
    const ok = await gotTransport({ ...exchange, maxResponseBytes: 1024 * 1024 });
    expect(ok.status).toBe(200);
    expect(ok.date).toEqual(expect.any(String));
  });

  it("(14) a next_token the service sent before stops paging with an error", async () => {
    const page = { instances: [{ id: 1 }], next_token: "same", total_instances: 99 };
    await h.fault({ method: "GET", path: "/api/v1/instances/", status: 200, body: page, times: 5 });
    await expect(h.client.instances.listAll(1)).rejects.toThrow(PagingLoopError);
    expect((await h.requests()).filter((r) => r.path === "/api/v1/instances/")).toHaveLength(2);
  });
});
