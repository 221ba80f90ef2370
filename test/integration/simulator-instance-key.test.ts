/**
 * The instance's own key (`instance_api_key` in the create answer, `CONTAINER_API_KEY` in the
 * container): the service accepts it only to read, start, stop or destroy that one instance
 * (vendor docs: api-reference/hello-world, guides/instances/docker-environment); and the GPU
 * utilization on instance rows, set through the control API.
 */
import { SEED } from "pulumi-vastai/simulator";
import { openSimulator } from "./simulator-support";
import { useSimulator } from "../support/simulator";

const h = useSimulator({ start: openSimulator });

async function rent(offer: number): Promise<{ id: number; key: string }> {
  const r = await h.call("PUT", `/api/v0/asks/${offer}/`, { image: "ubuntu:22.04" });
  expect(r.status).toBe(200);
  return { id: r.body.new_contract, key: r.body.instance_api_key };
}

describe("an instance's own key", () => {
  it("is different for every instance and is not the account's key", async () => {
    const a = await rent(SEED.offerIds[0]);
    const b = await rent(SEED.offerIds[1]);
    expect(a.key).toMatch(/^[0-9a-f]{48}$/);
    expect(a.key).not.toBe(b.key);
    expect(a.key).not.toBe(h.sim.apiKey);
  });

  it("reads, stops, starts and destroys its own instance; the request log names the instance", async () => {
    const a = await rent(SEED.offerIds[0]);
    const own = { key: a.key };
    expect((await h.call("GET", `/api/v0/instances/${a.id}/`, undefined, own)).body.instances.id).toBe(a.id);
    expect((await h.call("PUT", `/api/v0/instances/${a.id}/`, { state: "stopped" }, own)).body).toEqual({ success: true });
    expect((await h.call("GET", `/api/v0/instances/${a.id}/`)).body.instances.intended_status).toBe("stopped");
    expect((await h.call("PUT", `/api/v0/instances/${a.id}/`, { state: "running" }, own)).body).toEqual({ success: true });
    expect((await h.call("DELETE", `/api/v0/instances/${a.id}/`, {}, own)).body).toEqual({ success: true });
    expect((await h.call("GET", `/api/v0/instances/${a.id}/`)).body.instances).toBeNull();
    const log = (await h.control("GET", "/_sim/requests")).body as { method: string; instanceKey?: number }[];
    expect(log.filter((e) => e.instanceKey === a.id).map((e) => e.method)).toEqual(["GET", "PUT", "PUT", "DELETE"]);
    expect(JSON.stringify(log)).not.toContain(a.key);
  });

  it("is refused (403) for another instance, a label change, a listing and any other call", async () => {
    const a = await rent(SEED.offerIds[0]);
    const b = await rent(SEED.offerIds[1]);
    const own = { key: a.key };
    const refused = [
      await h.call("PUT", `/api/v0/instances/${b.id}/`, { state: "stopped" }, own),
      await h.call("DELETE", `/api/v0/instances/${b.id}/`, {}, own),
      await h.call("GET", `/api/v0/instances/${b.id}/`, undefined, own),
      await h.call("PUT", `/api/v0/instances/${a.id}/`, { label: "mine" }, own),
      await h.call("PUT", `/api/v0/instances/${a.id}/`, { state: "stopped", label: "mine" }, own),
      await h.call("GET", "/api/v0/instances/", undefined, own),
      await h.call("PUT", `/api/v0/asks/${SEED.offerIds[2]}/`, { image: "ubuntu:22.04" }, own),
      await h.call("PUT", `/api/v0/instances/reboot/${a.id}/`, {}, own),
    ];
    for (const r of refused) {
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ success: false, error: "forbidden", msg: expect.stringContaining(`instance ${a.id}`) });
      expect(r.text).not.toContain(a.key);
    }
    expect((await h.call("GET", `/api/v0/instances/${b.id}/`)).body.instances.intended_status).toBe("running");
  });

  it("goes with its instance: 401 once the instance is destroyed", async () => {
    const a = await rent(SEED.offerIds[0]);
    expect((await h.call("DELETE", `/api/v0/instances/${a.id}/`, {})).status).toBe(200);
    const r = await h.call("PUT", `/api/v0/instances/${a.id}/`, { state: "stopped" }, { key: a.key });
    expect(r.status).toBe(401);
  });
});

describe("gpu_util", () => {
  it("is 0 on a running instance's row, what the control API sets, and null while stopped", async () => {
    const a = await rent(SEED.offerIds[0]);
    const read = async () => (await h.call("GET", `/api/v0/instances/${a.id}/`)).body.instances.gpu_util;
    expect(await read()).toBe(0);
    expect((await h.control("POST", `/_sim/instances/${a.id}/gpu`, { gpu_util: 87.5 })).body).toEqual({ success: true, id: a.id, gpu_util: 87.5 });
    expect(await read()).toBe(87.5);
    const listed = (await h.call("GET", "/api/v0/instances/")).body.instances.find((i: { id: number }) => i.id === a.id);
    expect(listed.gpu_util).toBe(87.5);
    await h.call("PUT", `/api/v0/instances/${a.id}/`, { state: "stopped" });
    expect(await read()).toBeNull();
  });

  it("refuses a value that is no percent, naming the field", async () => {
    const a = await rent(SEED.offerIds[0]);
    for (const bad of [-1, 101, "50", null]) {
      const r = await h.control("POST", `/_sim/instances/${a.id}/gpu`, { gpu_util: bad });
      expect(r.status).toBe(400);
      expect(r.body.msg).toContain("gpu_util must be a percent from 0 to 100");
    }
    expect((await h.control("POST", "/_sim/instances/999999/gpu", { gpu_util: 1 })).status).toBe(404);
  });
});
