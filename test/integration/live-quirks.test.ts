/**
 * Issue 26: where the live service differs from a plain simulator (api-facts: Live quirks), with
 * the simulator behaving like the service on each point, over real HTTP on 127.0.0.1.
 */
import { drive } from "./account-resources-support";
import { providers } from "../../provider/providers";
import { resetClaims } from "../../provider/resources/fleet/claims";
import { useHealthServer, useSteppedClock } from "../support/readiness";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";
import { createChecked } from "./instance-support";

type Props = Record<string, unknown>;

/** A GET as sent by any client, to see the service's row as served. */
async function rawGet(url: string, apiKey: string, path: string): Promise<unknown> {
  const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
  return response.json();
}

describe("26.1 untrimmed strings in the service's rows", () => {
  const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS, simulator: { untrimmedStrings: true } });
  const health = useHealthServer();
  useSteppedClock();
  const fleet = drive(providers.fleet);
  beforeEach(() => resetClaims());
  const served = { ports: ["8000:8000"], readiness: { httpPath: "/health", timeoutMinutes: 1 } };

  it("26.1 the simulator serves \"127.0.0.1\\n\" and the client reads every row string trimmed", async () => {
    await h.control("POST", "/machines/30001/ports", { ports: { "8000/tcp": health.port } });
    const created = await h.client.instances.create(700001, { image: "x", ports: ["8000:8000"] });
    const raw = (await rawGet(h.sim.url, h.sim.apiKey, `/api/v0/instances/${created.id}/`)) as { instances: Props };
    expect(raw.instances.public_ipaddr).toBe("127.0.0.1\n");
    const read = await h.client.instances.get(created.id);
    expect(read).toMatchObject({ publicIpaddr: "127.0.0.1", gpuName: "RTX 4090", actualStatus: "running" });
    expect(read?.ports?.["8000/tcp"]).toEqual([{ HostIp: "127.0.0.1", HostPort: String(health.port) }]);
    const offers = await h.client.offers.search({ filters: { gpuName: "RTX 4090" } });
    expect(offers[0].gpuName).toBe("RTX 4090");
  });

  it("26.1 an Instance with readiness passes against an untrimmed public_ipaddr (one rental, no ENOTFOUND)", async () => {
    await h.control("POST", "/machines/30001/ports", { ports: { "8000/tcp": health.port } });
    const { outs } = await createChecked({ offer: { gpuName: "RTX 4090" }, image: "x", ...served });
    expect(outs).toMatchObject({ offerId: 700001, publicIp: "127.0.0.1" });
    expect(health.hits).toEqual(["/health"]);
    expect(h.sim.state().instances).toHaveLength(1);
  });

  it("26.1 a Fleet with readiness keeps its first members against untrimmed rows", async () => {
    for (const m of [30001, 30005, 30017]) await h.control("POST", `/machines/${m}/ports`, { ports: { "8000/tcp": health.port } });
    const { inputs } = await fleet.check({}, { __provider: "p", __identity: "proj/dev/Fleet/w", offer: { numGpus: 1, gpuRamGb: 24 }, image: "x", count: 2, ...served });
    const r = await fleet.create(inputs as Props);
    const members = (r.outs as Props).members as Props[];
    expect(members.map((m) => m.ready)).toEqual([true, true]);
    expect((r.outs as Props).badHosts).toEqual({});
    expect(h.sim.state().instances).toHaveLength(2);
  });
});
