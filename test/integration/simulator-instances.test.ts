import { SEED } from "pulumi-vastai/simulator";
import { ED25519_KEY, manualClock, openSimulator } from "./simulator-support";
import { useSimulator } from "../support/simulator";

const clock = manualClock();
const h = useSimulator({ start: openSimulator, simulator: { bootMs: 1000, now: clock.now, marketOffers: 20 } });

const OFFER = SEED.offerIds[0];

// A rented offer is taken until its instance is destroyed: each create without an offer named
// rents the next offer of the catalogue, starting from the first in every test.
const CATALOGUE = [...SEED.offerIds, ...Array.from({ length: 20 }, (_, i) => 800_001 + i)];
let nextOffer = 0;
beforeEach(() => {
  nextOffer = 0;
});

async function create(body: Record<string, unknown>, offer?: number) {
  const id = offer ?? CATALOGUE[nextOffer++ % CATALOGUE.length];
  return h.call("PUT", `/api/v0/asks/${id}/`, body);
}

async function read(id: number) {
  return (await h.call("GET", `/api/v0/instances/${id}/`)).body.instances;
}

describe("instance creation", () => {
  it("returns the new id in new_contract and an instance_api_key", async () => {
    const r = await create({ image: "ubuntu:22.04", label: "one" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, new_contract: expect.any(Number), instance_api_key: expect.any(String) });
    const inst = await read(r.body.new_contract);
    const offer = SEED.offers[0];
    expect(inst).toMatchObject({
      id: r.body.new_contract,
      label: "one",
      image_uuid: "ubuntu:22.04",
      machine_id: offer.machineId,
      gpu_name: offer.gpuName,
      num_gpus: offer.numGpus,
      gpu_ram: offer.gpuRam,
      dph_total: offer.dphTotal,
      intended_status: "running",
      ssh_port: expect.any(Number),
      ssh_host: expect.any(String),
      public_ipaddr: expect.any(String),
      start_date: expect.any(Number),
    });
  });

  it("moves from null to loading to running over bootMs, read lazily", async () => {
    const { body } = await create({ image: "ubuntu:22.04" });
    expect((await read(body.new_contract)).actual_status).toBeNull();
    clock.advance(600);
    expect((await read(body.new_contract)).actual_status).toBe("loading");
    clock.advance(400);
    expect((await read(body.new_contract)).actual_status).toBe("running");
  });

  it("takes env as the vendor document's Docker flag string too", async () => {
    const r = await create({ image: "ubuntu", env: "-e MODE=fast -p 8000:8000" });
    expect(r.status).toBe(200);
    expect((await read(r.body.new_contract)).extra_env).toEqual([["MODE", "fast"], ["-p 8000:8000", "1"]]);
  });

  it("merges the template env under the request env, the request winning on conflicts", async () => {
    const t = await h.call("POST", "/api/v0/template/", {
      name: "svc", image: "vllm/vllm-openai", tag: "v1", onstart: "echo tpl", recommended_disk_space: 40,
      env: `-e MODEL=small -e GREETING="hello world" -p 8000:8000`,
      docker_login_repo: "", docker_login_user: "", docker_login_pass: "",
    });
    const r = await create({ template_hash_id: t.body.template.hash_id, env: { MODEL: "large", EXTRA: "1", "-p 9000:9000": "1" } });
    expect(r.status).toBe(200);
    const inst = await read(r.body.new_contract);
    expect(inst.extra_env).toEqual([["MODEL", "large"], ["GREETING", "hello world"], ["-p 8000:8000", "1"], ["EXTRA", "1"], ["-p 9000:9000", "1"]]);
    expect(inst).toMatchObject({ image_uuid: "vllm/vllm-openai:v1", template_hash_id: t.body.template.hash_id, onstart: "echo tpl", disk_space: 40 });
    expect(Object.keys(inst.ports)).toEqual(expect.arrayContaining(["22/tcp", "8000/tcp", "9000/tcp"]));
    const override = await create({ template_hash_id: t.body.template.hash_id, image: "vllm/vllm-openai:v2", onstart: "echo mine" });
    expect(await read(override.body.new_contract)).toMatchObject({ image_uuid: "vllm/vllm-openai:v2", onstart: "echo mine" });
  });

  it("rejects template_id and says to use template_hash_id", async () => {
    const r = await create({ template_id: SEED.publicTemplates[0].id });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, error: "invalid_args", msg: expect.stringContaining("template_hash_id") });
  });

  it("accepts onstart of 4048 characters and rejects 4049", async () => {
    expect((await create({ image: "ubuntu", onstart: "x".repeat(4048) })).status).toBe(200);
    const r = await create({ image: "ubuntu", onstart: "x".repeat(4049) });
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain("4048");
  });

  it("rejects a label over 1024 characters", async () => {
    const r = await create({ image: "ubuntu", label: "l".repeat(1025) });
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain("label");
  });

  it("refuses a VM without an SSH key on the account, and creates it once a key exists", async () => {
    const r = await create({ image: "ubuntu", vm: true });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, error: "no_ssh_key_for_vm" });
    await h.call("POST", "/api/v0/ssh/", { ssh_key: ED25519_KEY });
    expect((await create({ image: "ubuntu", vm: true })).status).toBe(200);
  });

  it.each([
    [{ image: "ubuntu", env: ["A=1"] }, "env"],
    [{ image: "ubuntu", env: "-e A='unterminated" }, "env"],
    [{ image: "ubuntu", target_state: "paused" }, "target_state"],
    [{ image: "ubuntu", volume_info: { create_new: true, volume_id: 1, mount_path: "/data" } }, "volume_info.size"],
    [{ template_hash_id: "0".repeat(32) }, "template_hash_id"],
    [{}, "image"],
  ])("rejects bad input naming the field %#", async (body, field) => {
    const r = await create(body);
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain(field);
  });

  it("answers 404 no_such_ask for an offer that is gone and 410 for one that cannot start now", async () => {
    await h.control("POST", `/_sim/offers/${OFFER}`, { state: "gone" });
    const gone = await create({ image: "ubuntu" }, OFFER);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ success: false, error: "no_such_ask", msg: `No ask by id ${OFFER} is available.` });
    await h.control("POST", `/_sim/offers/${OFFER}`, { state: "unavailable" });
    const busy = await create({ image: "ubuntu" }, OFFER);
    expect(busy.status).toBe(410);
    expect(busy.body.error).toBe("no_such_ask");
    expect((await create({ image: "ubuntu" }, 123)).status).toBe(404);
    expect((await h.control("GET", "/_sim/state")).body.instances).toEqual([]);
  });

  it("23.13 a rented offer is taken: gone from the search, its create answers 404 no_such_ask, free again once destroyed", async () => {
    const search = async () => ((await h.call("POST", "/api/v0/bundles/", { limit: 1000 })).body.offers as { id: number }[]).map((o) => o.id);
    const first = await create({ image: "ubuntu" }, OFFER);
    expect(first.status).toBe(200);
    expect(await search()).not.toContain(OFFER);
    const again = await create({ image: "ubuntu" }, OFFER);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ success: false, error: "no_such_ask", msg: `No ask by id ${OFFER} is available.` });
    // A multi-GPU offer is taken whole as well: every offer covers its machine's GPUs.
    const multi = SEED.offers.find((o) => o.numGpus === 8)!.id;
    expect((await create({ image: "ubuntu" }, multi)).status).toBe(200);
    expect((await create({ image: "ubuntu" }, multi)).status).toBe(404);
    expect((await h.call("GET", "/api/v0/instances/")).body.instances_found).toBe(2);
    expect((await h.call("DELETE", `/api/v0/instances/${first.body.new_contract}/`)).status).toBe(200);
    expect(await search()).toContain(OFFER);
    expect((await create({ image: "ubuntu" }, OFFER)).status).toBe(200);
  });

  it("23.3 an instance pays the price of its offer when rented, with its own disk; a later price change moves only the search", async () => {
    const offer = SEED.offers[0];
    const at = async (disk: number) =>
      ((await h.call("POST", "/api/v0/bundles/", { id: { eq: offer.id }, allocated_storage: disk })).body.offers as { dph_total: number }[])[0]?.dph_total;
    const priced = await at(100);
    const r = await create({ image: "ubuntu", disk: 100 }, offer.id);
    expect((await read(r.body.new_contract)).dph_total).toBeCloseTo(priced, 6);
    expect(priced).toBeGreaterThan(offer.dphTotal);
    await h.control("POST", `/_sim/offers/${SEED.offers[1].id}`, { dph_total: 0.9 });
    const raised = ((await h.call("POST", "/api/v0/bundles/", { id: { eq: SEED.offers[1].id } })).body.offers as { dph_total: number }[])[0];
    expect(raised.dph_total).toBeCloseTo(0.9, 6);
    const s = await create({ image: "ubuntu" }, SEED.offers[1].id);
    expect((await read(s.body.new_contract)).dph_total).toBeCloseTo(0.9, 6);
  });

  it("starts stopped with target_state stopped and reports success false", async () => {
    const r = await create({ image: "ubuntu", target_state: "stopped" });
    expect(r.body).toMatchObject({ success: false, new_contract: expect.any(Number) });
    expect(await read(r.body.new_contract)).toMatchObject({ actual_status: "stopped", intended_status: "stopped" });
  });

  it("ends the next N boots in the status set with /_sim/next-boot", async () => {
    await h.control("POST", "/_sim/next-boot", { actual_status: "exited", times: 1 });
    const a = await create({ image: "ubuntu" });
    const b = await create({ image: "ubuntu" });
    clock.advance(1000);
    expect((await read(a.body.new_contract)).actual_status).toBe("exited");
    expect((await read(b.body.new_contract)).actual_status).toBe("running");
  });

  it("lets /_sim/instances/{id}/status override the derived status", async () => {
    const a = await create({ image: "ubuntu" });
    await h.control("POST", `/_sim/instances/${a.body.new_contract}/status`, { actual_status: "offline" });
    clock.advance(5000);
    expect((await read(a.body.new_contract)).actual_status).toBe("offline");
  });
});

describe("instance list", () => {
  it("lists with instances_found", async () => {
    await create({ image: "ubuntu" });
    const other = await h.call("PUT", `/api/v0/asks/${SEED.offerIds[1]}/`, { image: "ubuntu" }, { key: SEED.unapprovedUser.apiKey });
    expect(other.status).toBe(200);
    const r = await h.call("GET", "/api/v0/instances");
    expect(r.body.instances_found).toBe(1);
    expect(r.body.instances).toHaveLength(1);
  });

  it("pages with limit (at most 25) and after_token", async () => {
    for (let i = 0; i < 30; i++) await create({ image: "ubuntu", label: `n${i}` });
    const p1 = await h.call("GET", "/api/v1/instances/?limit=100");
    expect(p1.body.instances).toHaveLength(25);
    expect(p1.body.total_instances).toBe(30);
    const p2 = await h.call("GET", `/api/v1/instances?limit=25&after_token=${encodeURIComponent(p1.body.next_token)}`);
    expect(p2.body.instances.map((i: { label: string }) => i.label)).toEqual(["n25", "n26", "n27", "n28", "n29"]);
    expect(p2.body.next_token).toBeNull();
    expect((await h.call("GET", "/api/v1/instances/?after_token=garbage")).status).toBe(400);
  });

  const page = (q: Record<string, unknown>) =>
    h.call("GET", `/api/v1/instances/?${new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, typeof v === "string" ? v : JSON.stringify(v)]))}`);

  it("reads a page size of 0 or less as 5 (vendor document)", async () => {
    for (let i = 0; i < 7; i++) await create({ image: "ubuntu", label: `n${i}` });
    expect((await page({ limit: 0 })).body.instances).toHaveLength(5);
    expect((await page({ limit: -3 })).body.instances).toHaveLength(5);
  });

  it("filters by select_filters on a stored column such as label, and refuses computed columns", async () => {
    for (const label of ["a", "b", "a"]) await create({ image: "ubuntu", label });
    const r = await page({ select_filters: { label: { eq: "a" } } });
    expect(r.body.instances.map((i: { label: string }) => i.label)).toEqual(["a", "a"]);
    expect(r.body).toMatchObject({ success: true, instances_found: 2, total_instances: 2, label_counts: { a: 2 } });
    expect((await page({ select_filters: { label: { in: ["b"] } } })).body.instances).toHaveLength(1);
    const computed = await page({ select_filters: { dph_total: { lt: 1 } } });
    expect(computed.status).toBe(400);
    expect(computed.body.msg).toContain("dph_total");
  });

  it("sorts by order_by with id as the last tiebreaker, and pages in that order", async () => {
    for (const label of ["m", "z", "a", "z", "b"]) await create({ image: "ubuntu", label });
    const order = [{ col: "label", dir: "desc" }];
    const p1 = await page({ order_by: order, limit: 3 });
    const p2 = await page({ order_by: order, limit: 3, after_token: p1.body.next_token });
    const rows = [...p1.body.instances, ...p2.body.instances].map((i: { id: number; label: string }) => [i.label, i.id]);
    expect(rows.map(([l]) => l)).toEqual(["z", "z", "m", "b", "a"]);
    const zIds = rows.filter(([l]) => l === "z").map(([, id]) => id as number);
    expect(zIds).toEqual([...zIds].sort((x, y) => x - y));
    expect(p2.body.next_token).toBeNull();
    expect((await page({ order_by: [{ col: "no_such_column", dir: "asc" }] })).status).toBe(400);
  });

  it("returns only select_cols, unknown ones as null", async () => {
    await create({ image: "ubuntu", label: "x" });
    const r = await page({ select_cols: ["id", "label", "not_a_column"] });
    expect(r.body.instances).toEqual([{ id: expect.any(Number), label: "x", not_a_column: null }]);
  });
});

describe("instance read, change, destroy", () => {
  it("reads an unknown or destroyed instance as {instances: null}", async () => {
    const a = await create({ image: "ubuntu" });
    expect((await h.call("DELETE", `/api/v0/instances/${a.body.new_contract}/`, {})).body).toEqual({ success: true });
    const r = await h.call("GET", `/api/v0/instances/${a.body.new_contract}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ instances: null });
  });

  it("answers 404 no_such_instance when destroying a missing instance", async () => {
    const r = await h.call("DELETE", "/api/v0/instances/1234/", {});
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, error: "no_such_instance" });
  });

  it("changes the label and stops and starts again", async () => {
    const { body } = await create({ image: "ubuntu" });
    const id = body.new_contract;
    expect((await h.call("PUT", `/api/v0/instances/${id}/`, { label: "renamed" })).body).toEqual({ success: true });
    expect((await read(id)).label).toBe("renamed");
    await h.call("PUT", `/api/v0/instances/${id}/`, { state: "stopped" });
    expect(await read(id)).toMatchObject({ actual_status: "stopped", intended_status: "stopped", cur_state: "stopped" });
    await h.call("PUT", `/api/v0/instances/${id}/`, { state: "running" });
    expect((await read(id)).actual_status).toBeNull();
    clock.advance(1000);
    expect((await read(id)).actual_status).toBe("running");
  });

  it("queues a start with resources_unavailable while the offer cannot start, and boots once it can", async () => {
    const { body } = await create({ image: "ubuntu" });
    const id = body.new_contract;
    await h.call("PUT", `/api/v0/instances/${id}/`, { state: "stopped" });
    await h.control("POST", `/_sim/offers/${OFFER}`, { state: "unavailable" });
    const r = await h.call("PUT", `/api/v0/instances/${id}/`, { state: "running" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: false, error: "resources_unavailable" });
    expect(await read(id)).toMatchObject({ intended_status: "running", actual_status: "stopped" });
    await h.control("POST", `/_sim/offers/${OFFER}`, { state: "available" });
    clock.advance(1000);
    expect((await read(id)).actual_status).toBe("running");
  });

  it("rejects an update with nothing to change or an unknown state", async () => {
    const { body } = await create({ image: "ubuntu" });
    expect((await h.call("PUT", `/api/v0/instances/${body.new_contract}/`, {})).status).toBe(400);
    expect((await h.call("PUT", `/api/v0/instances/${body.new_contract}/`, { state: "frozen-solid" })).status).toBe(400);
  });

  it("attaches an SSH key to one instance", async () => {
    const { body } = await create({ image: "ubuntu" });
    const r = await h.call("POST", `/api/v0/instances/${body.new_contract}/ssh/`, { ssh_key: ED25519_KEY });
    expect(r.body.success).toBe(true);
    const state = await h.control("GET", "/_sim/state");
    expect(state.body.instances[0].ssh_key_ids).toEqual([state.body.sshKeys[0].id]);
  });
});

describe("PUT /api/v0/commands/rsync", () => {
  it("returns connection info for a copy into an instance", async () => {
    const { body } = await create({ image: "ubuntu" });
    const r = await h.call("PUT", "/api/v0/commands/rsync/", { src_path: "./data", dst_path: "/workspace", dst_id: String(body.new_contract) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, dst_port: expect.any(Number), dst_addr: expect.any(String) });
  });

  it("starts a copy between two instances", async () => {
    const a = await create({ image: "ubuntu" });
    const b = await create({ image: "ubuntu" });
    const r = await h.call("PUT", "/api/v0/commands/rsync", {
      src_path: "/workspace/out", dst_path: "/workspace/in", src_id: String(a.body.new_contract), dst_id: String(b.body.new_contract),
    });
    expect(r.body).toMatchObject({ success: true, src_port: expect.any(Number), dst_port: expect.any(Number) });
  });

  it.each([
    [{ src_path: "/a; rm -rf /", dst_path: "/b" }, "Invalid src_path."],
    [{ src_path: "", dst_path: "/b" }, "Invalid src_path."],
    [{ src_path: "/a", dst_path: "/b`id`" }, "Invalid dst_path."],
  ])("answers 200 success false invalid_args for bad paths %#", async (paths, msg) => {
    const { body } = await create({ image: "ubuntu" });
    const r = await h.call("PUT", "/api/v0/commands/rsync/", { ...paths, dst_id: String(body.new_contract) });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: false, error: "invalid_args", msg });
  });

  it("answers 200 success false for an instance that is not on the account", async () => {
    const r = await h.call("PUT", "/api/v0/commands/rsync/", { src_path: "/a", dst_path: "/b", dst_id: "99" });
    expect(r.body).toMatchObject({ success: false, error: "invalid_args", msg: expect.stringContaining("dst_id") });
  });
});
