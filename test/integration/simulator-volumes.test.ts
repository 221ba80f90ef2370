/**
 * The simulator's volume endpoints with the care of the others: authentication and scoped
 * keys, realistic rate limits, injected faults, the state file (also one written before
 * volumes existed), the space left on an offer, and the control call that takes an offer away.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startSimulator, type Simulator } from "pulumi-vastai/simulator";
import { simControl } from "../support/control";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(sim: Simulator, key: string | undefined, method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(sim.url + p, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: /^\s*[[{"]/.test(text) ? JSON.parse(text) : text };
}

let sim: Simulator;
let dir: string;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, bootMs: 0 });
});
afterAll(() => sim.close());
beforeEach(async () => {
  await simControl(sim.url, "POST", "/reset");
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sim-volumes-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const rent = (key: string | undefined, body: unknown = { id: 900001, size: 10, name: "v" }) => call(sim, key, "PUT", "/api/v0/volumes/", body);

it("needs a key; a scoped key needs instance_read to list and instance_write to rent and delete", async () => {
  expect((await call(sim, undefined, "GET", "/api/v0/volumes/?owner=me")).status).toBe(401);
  const reader = await call(sim, sim.apiKey, "POST", "/api/v0/auth/apikeys/", { name: "r", permissions: { api: { instance_read: {} } } });
  expect((await call(sim, reader.body.key, "GET", "/api/v0/volumes/?owner=me&type=all_volume")).body).toEqual({ volumes: [] });
  const refused = await rent(reader.body.key);
  expect(refused).toMatchObject({ status: 403, body: { error: "forbidden", msg: expect.stringMatching(/instance_write/) } });
  const made = await rent(sim.apiKey);
  const id = Number(/^V\.(\d+)$/.exec(made.body.volume_name)?.[1]);
  expect((await call(sim, reader.body.key, "DELETE", `/api/v0/volumes/?id=${id}`)).status).toBe(403);
  expect(sim.state().volumes).toHaveLength(1);
});

it("rents up to the space left on the offer, refuses more, and shows what is left in the search", async () => {
  expect((await rent(sim.apiKey, { id: 900005, size: 60 })).status).toBe(200);
  const over = await rent(sim.apiKey, { id: 900005, size: 60 });
  expect(over).toMatchObject({ status: 400, body: { error: "invalid_args", msg: "size 60 GB is more than the 40 GB left on volume offer 900005" } });
  const search = await call(sim, sim.apiKey, "POST", "/api/v0/volumes/search/", { id: { eq: 900005 } });
  expect(search.body.offers).toEqual([expect.objectContaining({ id: 900005, disk_space: 40, machine_id: 30011 })]);
  expect((await rent(sim.apiKey, { id: 950001, size: 5 })).status).toBe(404); // a network offer is not a local one
});

it("answers the service's errors for bad input and unknown volumes", async () => {
  expect(await rent(sim.apiKey, { id: "x" })).toMatchObject({ status: 400, body: { msg: 'id must be the integer id of a volume offer (got "x")' } });
  expect(await rent(sim.apiKey, { id: 900001, size: 0 })).toMatchObject({ status: 400, body: { msg: "size must be a positive whole number of GB (got 0)" } });
  expect(await call(sim, sim.apiKey, "DELETE", "/api/v0/volumes/", {})).toMatchObject({ status: 400, body: { error: "invalid_args", msg: "Please provide a valid volume ID." } });
  expect(await call(sim, sim.apiKey, "DELETE", "/api/v0/volumes/", { id: 1 })).toMatchObject({ status: 404, body: { error: "no_such_volume" } });
  expect(await call(sim, sim.apiKey, "GET", "/api/v0/volumes/?type=disk")).toMatchObject({ status: 400 });
  expect(await call(sim, sim.apiKey, "POST", "/api/v0/volumes/search/", { disk_space: 5 })).toMatchObject({ status: 400, body: { msg: expect.stringMatching(/^Invalid query/) } });
});

it("takes a volume offer away through the control API", async () => {
  await simControl(sim.url, "POST", "/volume-offers/900001", { state: "gone" });
  expect((await call(sim, sim.apiKey, "POST", "/api/v0/volumes/search/", {})).body.offers.map((o: { id: number }) => o.id)).not.toContain(900001);
  expect(await rent(sim.apiKey)).toMatchObject({ status: 404, body: { error: "no_such_ask" } });
  await simControl(sim.url, "POST", "/volume-offers/900001", { state: "available" });
  expect((await rent(sim.apiKey)).status).toBe(200);
});

it("applies injected faults and realistic rate limits to the volume routes", async () => {
  await simControl(sim.url, "POST", "/faults", { method: "PUT", path: "/api/v0/volumes", status: 503, times: 1 });
  expect((await rent(sim.apiKey)).status).toBe(503);
  expect(sim.state().volumes).toEqual([]);
  const limited = await startSimulator({ port: 0, bootMs: 0, rateLimits: "realistic" });
  try {
    const list = () => call(limited, limited.apiKey, "GET", "/api/v0/volumes/?owner=me");
    expect((await list()).status).toBe(200);
    expect(await list()).toMatchObject({ status: 429, body: expect.stringMatching(/^API requests too frequent/) });
  } finally {
    await limited.close();
  }
});

it("keeps volumes in the state file, and reads a file from before volumes existed as none", async () => {
  const file = path.join(dir, "state.json");
  const first = await startSimulator({ port: 0, bootMs: 0, stateFile: file, apiKey: "volume-state-key" });
  await call(first, first.apiKey, "PUT", "/api/v0/network_volumes/", { id: 950002, size: 30, name: "kept" });
  await first.close();
  const second = await startSimulator({ port: 0, bootMs: 0, stateFile: file });
  try {
    expect(second.state().volumes).toEqual([expect.objectContaining({ label: "kept", type: "network_volume", cluster_id: 42, disk_space: 30 })]);
    const next = await call(second, second.apiKey, "PUT", "/api/v0/volumes/", { id: 900001, size: 1 });
    expect(next.body.volume_name).toBe(`V.${(second.state().volumes[0].id as number) + 1}`);
  } finally {
    await second.close();
  }
  const saved = JSON.parse(fs.readFileSync(file, "utf8"));
  delete saved.data.volumes;
  fs.writeFileSync(file, JSON.stringify(saved));
  const old = await startSimulator({ port: 0, bootMs: 0, stateFile: file });
  try {
    expect(old.state().volumes).toEqual([]);
  } finally {
    await old.close();
  }
});

describe("a volume made with an instance (volume_info.create_new)", () => {
  const key = () => sim.apiKey;
  const rentWith = (volumeInfo: Record<string, unknown>, offer = 700001) =>
    call(sim, key(), "PUT", `/api/v0/asks/${offer}/`, { client_id: "me", image: "ubuntu:22.04", volume_info: volumeInfo });
  const volumes = async () => (await call(sim, key(), "GET", "/api/v0/volumes/?owner=me&type=all_volume")).body.volumes as Array<Record<string, unknown>>;

  it("is a volume of its own on the instance's machine, used by the instance, and left by the instance's destroy", async () => {
    const made = await rentWith({ create_new: true, volume_id: 900001, size: 12, mount_path: "/data" });
    expect(made.status).toBe(200);
    const instanceId = made.body.new_contract as number;
    const [volume] = await volumes();
    expect(volume).toMatchObject({ type: "local_volume", disk_space: 12, machine_id: 30001, instances: [{ id: instanceId }] });
    expect((await call(sim, key(), "DELETE", "/api/v0/volumes/", { id: volume.id })).status).toBe(400);

    expect((await call(sim, key(), "DELETE", `/api/v0/instances/${instanceId}/`, {})).status).toBe(200);
    expect(await volumes()).toEqual([expect.objectContaining({ id: volume.id, instances: [] })]);
    expect((await call(sim, key(), "DELETE", "/api/v0/volumes/", { id: volume.id })).status).toBe(200);
  });

  it("refuses a volume offer of another machine, an unknown one, or more space than is left, making nothing", async () => {
    const other = await rentWith({ create_new: true, volume_id: 900002, size: 10, mount_path: "/data" });
    expect(other.status).toBe(400);
    expect(other.body.msg).toMatch(/volume_info\.volume_id 900002 is a volume offer on machine \d+; a new volume must be on the instance's machine \(30001\)/);
    expect((await rentWith({ create_new: true, volume_id: 123, size: 10, mount_path: "/data" })).body).toMatchObject({ error: "no_such_ask" });
    const big = await rentWith({ create_new: true, volume_id: 900001, size: 10_000_000, mount_path: "/data" });
    expect(big.body.msg).toMatch(/^volume_info\.size 10000000 GB is more than the \d+ GB left on volume offer 900001/);
    expect(await volumes()).toEqual([]);
    expect((await call(sim, key(), "GET", "/api/v0/instances/?owner=me")).body.instances).toEqual([]);
  });
});
