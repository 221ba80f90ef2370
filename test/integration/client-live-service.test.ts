/**
 * The client against the live service's documented behaviour (vendor OpenAPI document and the
 * vendor's client), over HTTP against the simulator. Each case is one way the client used to
 * break or be silently wrong.
 */
import { SEED } from "pulumi-vastai/simulator";
import {
  BadRequestError,
  DEFAULT_OFFER_FILTERS,
  NotFoundError,
  VastApiError,
  VastErrorTextError,
  VastValidationError,
} from "../../provider/client";
import { Harness, startHarness } from "./client-support";

let h: Harness;
const debug: string[] = [];
beforeAll(async () => {
  h = await startHarness({}, { logger: { debug: (m) => debug.push(m) } });
});
afterAll(() => h.close());
beforeEach(async () => {
  debug.length = 0;
  await h.control("POST", "/reset");
});

const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKeyLiveService live@test";
const sent = async (method: string, path: string) => (await h.requests()).filter((r) => r.method === method && r.path === path);

describe("API keys", () => {
  it("takes the service's JSON-string answer to a delete as success (the key is gone, nothing throws)", async () => {
    const created = await h.client.apiKeys.create({ name: "temp" });
    await expect(h.client.apiKeys.delete(created.id)).resolves.toEqual({ alreadyGone: false });
    const deleted = await sent("DELETE", `/api/v0/auth/apikeys/${created.id}/`);
    expect(deleted.map((r) => r.status)).toEqual([200]);
    expect((await h.client.apiKeys.list()).map((k) => k.id)).not.toContain(created.id);
  });

  it("23.5 takes an empty 2xx body as success only when a read shows the key gone", async () => {
    const created = await h.client.apiKeys.create({ name: "temp" });
    // The fault answers in the service's place: the key was not deleted.
    await h.fault({ method: "DELETE", path: `/api/v0/auth/apikeys/${created.id}/`, status: 200, body: "", contentType: "application/json" });
    await expect(h.client.apiKeys.delete(created.id)).rejects.toThrow(/answered HTTP 200 with an empty body instead of the documented success.*may still exist/);
    expect((await h.client.apiKeys.list()).map((k) => k.id)).toContain(created.id);
  });

  it("reads a key's scopes back from rights", async () => {
    const permissions = { api: { instance_read: {}, user_read: {} } };
    const created = await h.client.apiKeys.create({ name: "reader", permissions });
    const listed = (await h.client.apiKeys.list()).find((k) => k.id === created.id);
    expect(listed?.permissions).toEqual(permissions);
  });
});

describe("SSH keys", () => {
  it("reads the 404 'No SSH keys found for the user.' as an empty list", async () => {
    await expect(h.client.sshKeys.list()).resolves.toEqual([]);
    expect((await sent("GET", "/api/v0/ssh/")).map((r) => r.status)).toEqual([404]);
  });

  it("keeps other 404s of the list an error", async () => {
    await h.fault({ method: "GET", path: "/api/v0/ssh/", status: 404, body: { success: false, error: "not_found", msg: "No such endpoint" } });
    await expect(h.client.sshKeys.list()).rejects.toBeInstanceOf(NotFoundError);
  });

  it("leaves soft-deleted keys (deleted_at set) out of the list", async () => {
    const a = await h.client.sshKeys.create(KEY);
    const b = await h.client.sshKeys.create(KEY.replace("LiveService", "SecondKey"));
    await h.client.sshKeys.delete(a.id);
    expect((await h.client.sshKeys.list()).map((k) => k.id)).toEqual([b.id]);
    await h.client.sshKeys.delete(b.id);
    await expect(h.client.sshKeys.list()).resolves.toEqual([]);
  });

  it("deletes by the route table's form /api/v0/ssh/{id}/", async () => {
    const a = await h.client.sshKeys.create(KEY);
    await h.client.sshKeys.delete(a.id);
    expect(await sent("DELETE", `/api/v0/ssh/${a.id}/`)).toHaveLength(1);
  });
});

describe("routes and redirects", () => {
  it("sends the trailing-slash forms of the service's route table", async () => {
    await h.client.secrets.list();
    await h.client.machines.get(SEED.hostedMachineIds[0]);
    await h.client.autoscaler.templates(SEED.user.id);
    await h.client.subaccounts.regenerateKeys({ subaccountUserId: SEED.subaccounts[0].userId });
    const paths = (await h.requests()).map((r) => `${r.method} ${r.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        "GET /api/v0/secrets/",
        `GET /api/v0/machines/${SEED.hostedMachineIds[0]}/`,
        `GET /api/v0/users/${SEED.user.id}/templates/autoscaler/`,
        "PUT /api/v0/subaccounts/regenerate_keys/",
      ]),
    );
  });

  it("follows a redirect that keeps the method, body included", async () => {
    await h.fault({ method: "POST", path: "/api/v0/secrets/", status: 308, headers: { location: "/api/v0/secrets" }, body: "" });
    await h.client.secrets.add("MOVED", "value-1");
    const posts = await sent("POST", "/api/v0/secrets");
    expect(posts.map((r) => [r.status, r.body])).toEqual([[200, { key: "MOVED", value: "value-1" }]]);
    expect(Object.keys(await h.client.secrets.list())).toEqual(["MOVED"]);
  });

  it("does not follow a 303 that would turn a write into a GET", async () => {
    await h.client.secrets.add("KEEP", "v1");
    await h.clearRequests();
    await h.fault({ method: "PUT", path: "/api/v0/secrets/", status: 303, headers: { location: "/api/v0/secrets/" }, body: "" });
    const e = await h.client.secrets.update("KEEP", "v2").catch((x) => x);
    expect(e).toBeInstanceOf(VastApiError);
    expect(e.status).toBe(303);
    expect(await sent("GET", "/api/v0/secrets/")).toEqual([]);
  });
});

describe("subaccount key regeneration", () => {
  it("keeps every new key when the service sends a null email (the response is the only copy)", async () => {
    const body = { success: true, regenerated_keys: [{ user_id: 10002, email: null, derived_key: "new-key-1" }, { user_id: 10003, derived_key: "new-key-2" }] };
    await h.fault({ method: "PUT", path: "/api/v0/subaccounts/regenerate_keys/", status: 200, body });
    await expect(h.client.subaccounts.regenerateKeys({ all: true })).resolves.toEqual([
      { userId: 10002, email: "", derivedKey: "new-key-1" },
      { userId: 10003, email: "", derivedKey: "new-key-2" },
    ]);
  });
});

describe("templates", () => {
  it("skips a public row that does not validate (null hash_id) and logs the count, keeping the rest", async () => {
    const good = { id: 7, hash_id: "abc123", name: "ok", image: "ubuntu" };
    await h.fault({ method: "GET", path: "/api/v0/template/", status: 200, body: { success: true, templates: [good, { ...good, id: 8, hash_id: null }] } });
    const found = await h.client.templates.search({ name: "ok" });
    expect(found.map((t) => t.hashId)).toEqual(["abc123"]);
    expect(debug.join("\n")).toMatch(/skipped 1 template row\(s\).*hash_id/);
  });

  it("asks for every column, select_cols=[\"*\"], as the vendor's client does", async () => {
    await h.client.templates.search({ name: "Ubuntu SSH" });
    const [req] = await sent("GET", "/api/v0/template/");
    expect(JSON.parse(String(req.query.select_cols))).toEqual(["*"]);
  });
});

describe("offer search", () => {
  it("sends the vendor client's default filters, score order and allocated storage", async () => {
    await h.client.offers.search({ filters: { gpuName: "RTX 4090" }, allocatedStorageGb: 120 });
    const [req] = await sent("POST", "/api/v0/bundles/");
    expect(req.body).toMatchObject({
      verified: { eq: true },
      external: { eq: false },
      rentable: { eq: true },
      rented: { eq: false },
      gpu_name: { eq: "RTX 4090" },
      order: [["score", "desc"]],
      allocated_storage: 120,
    });
  });

  it("lets a filter given on the same field win over a default, and noDefaults leave them out", async () => {
    await h.client.offers.search({ filters: { verified: false } });
    await h.client.offers.search({ noDefaults: true });
    const [a, b] = await sent("POST", "/api/v0/bundles/");
    expect(a.body).toMatchObject({ verified: { eq: false }, rented: { eq: false } });
    expect(b.body).not.toHaveProperty("verified");
    expect(b.body).not.toHaveProperty("rented");
  });

  it("no longer returns rented offers by default", async () => {
    const rented = SEED.offerIds[1];
    await h.control("POST", `/offers/${rented}`, { state: "unavailable" });
    expect((await h.client.offers.search()).map((o) => o.id)).not.toContain(rented);
    expect((await h.client.offers.search({ noDefaults: true })).map((o) => o.id)).toContain(rented);
  });

  it("gets prices for the disk asked for, so a price limit is checked against the real total", async () => {
    const id = SEED.offerIds[0];
    const price = async (gb: number) => (await h.client.offers.search({ filters: { id }, allocatedStorageGb: gb }))[0].dphTotal as number;
    const small = await price(8);
    const large = await price(1008);
    expect(large).toBeGreaterThan(small + 0.1);
    const within = await h.client.offers.search({ filters: { id, dphTotal: { lte: small + 0.01 } }, allocatedStorageGb: 1008 });
    expect(within).toEqual([]);
  });

  it("refuses a non-positive allocatedStorageGb before sending", async () => {
    await expect(h.client.offers.search({ allocatedStorageGb: 0 })).rejects.toThrow(/allocatedStorageGb must be a positive number of GB, got 0/);
    expect(await sent("POST", "/api/v0/bundles/")).toEqual([]);
  });

  it("skips an offer row that does not validate", async () => {
    await h.fault({ method: "POST", path: "/api/v0/bundles/", status: 200, body: { offers: [{ id: 1, gpu_name: "A" }, { id: "x" }] } });
    expect((await h.client.offers.search()).map((o) => o.id)).toEqual([1]);
    expect(debug.join("\n")).toMatch(/skipped 1 offer row/);
  });
});

describe("secrets (account environment variables)", () => {
  it("reads the service's nonexistent_key as already gone, and passes existing_key", async () => {
    await h.client.secrets.add("TOKEN", "abc");
    const e = await h.client.secrets.add("TOKEN", "def").catch((x) => x);
    expect(e).toBeInstanceOf(BadRequestError);
    expect(e.code).toBe("existing_key");
    await h.client.secrets.delete("TOKEN");
    await expect(h.client.secrets.delete("TOKEN")).resolves.toEqual({ alreadyGone: true });
    const u = await h.client.secrets.update("TOKEN", "x").catch((x) => x);
    expect(u.code).toBe("nonexistent_key");
  });

  it("refuses a value outside ^[a-zA-Z0-9_\\-.]+$ before sending, naming the rule, nothing of the value", async () => {
    const e = await h.client.secrets.add("TOKEN", "p@ss word").catch((x) => x);
    expect(e).toBeInstanceOf(VastValidationError);
    expect(e.message).toBe('secret TOKEN: value may hold only letters, digits, "_", "-" and "." (2 other characters; encode the value, for example as base64url, if it needs them)');
    expect(e.message).not.toMatch(/p@ss|"@"|word/);
    expect(await sent("POST", "/api/v0/secrets/")).toEqual([]);
  });

  it("the service refuses such a value too (400), without echoing it", async () => {
    const r = await fetch(`${h.sim.url}/api/v0/secrets/`, {
      method: "POST",
      headers: { authorization: `Bearer ${h.sim.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ key: "T", value: "has space" }),
    });
    expect(r.status).toBe(400);
    expect(await r.text()).not.toContain("has space");
  });
});

describe("ownership", () => {
  it("reads an instance with owner=me and lists machines with the documented user_id", async () => {
    const { id } = await h.client.instances.create(SEED.offerIds[0], { image: "ubuntu" });
    await h.client.instances.get(id);
    await h.client.machines.list();
    await h.client.machines.list();
    await h.client.machines.listMaintenances([SEED.hostedMachineIds[0]]);
    expect((await sent("GET", `/api/v0/instances/${id}/`))[0].query).toMatchObject({ owner: "me" });
    const lists = await sent("GET", "/api/v0/machines/");
    expect(lists.map((r) => r.query.user_id)).toEqual([String(SEED.user.id), String(SEED.user.id)]);
    // The user id is asked for once per client.
    expect(await sent("GET", "/api/v0/users/current/")).toHaveLength(1);
    expect((await sent("GET", "/api/v0/machines/maintenances"))[0].query).toMatchObject({ owner: "me" });
  });
});

describe("instance-to-instance copies", () => {
  it("copies between two instances with copy_direct, accepting C.<id>", async () => {
    const a = await h.client.instances.create(SEED.offerIds[0], { image: "ubuntu" });
    const b = await h.client.instances.create(SEED.offerIds[1], { image: "ubuntu" });
    await expect(h.client.copy.copyDirect({ srcId: `C.${a.id}`, dstId: b.id, srcPath: "/workspace/", dstPath: "/workspace/" })).resolves.toEqual({ success: true });
    const [req] = await sent("PUT", "/api/v0/commands/copy_direct/");
    expect(req.body).toEqual({ client_id: "me", src_id: `C.${a.id}`, dst_id: `C.${b.id}`, src_path: "/workspace/", dst_path: "/workspace/" });
  });

  it("refuses an id that is neither a number nor C.<number>, before sending", async () => {
    await expect(h.client.copy.copyDirect({ srcId: "V.12", dstId: 3, srcPath: "/a", dstPath: "/b" })).rejects.toThrow('srcId must be an instance id or "C.<instance id>", got "V.12"');
  });

  it("passes the service's 404 for an instance of no one", async () => {
    const a = await h.client.instances.create(SEED.offerIds[0], { image: "ubuntu" });
    await expect(h.client.copy.copyDirect({ srcId: a.id, dstId: 999999, srcPath: "/a", dstPath: "/b" })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("worker-group logs", () => {
  it("maps a bare error string at HTTP 200 to a clear error carrying the service's text", async () => {
    const e = await h.client.serverless.workerGroupLogs({ workerGroupId: 424242 }).catch((x) => x);
    expect(e).toBeInstanceOf(VastErrorTextError);
    expect(e.serverMessage).toBe("authenticate_workergroup_apikey: invalid api_key or workergroup 424242 not found");
    expect(e.message).toContain("POST /get_workergroup_logs failed: the service answered HTTP 200 with an error message");
    expect(e.message).not.toContain(h.sim.apiKey);
  });

  it("the vendor client's route /get_autogroup_logs/ serves the same logs", async () => {
    const body = JSON.stringify({ id: SEED.workerGroup.id, tail: 3 });
    const headers = { authorization: `Bearer ${h.sim.apiKey}`, "content-type": "application/json" };
    const a = await (await fetch(`${h.sim.runUrl}/get_autogroup_logs/`, { method: "POST", headers, body })).json();
    const b = await h.client.serverless.workerGroupLogs({ workerGroupId: SEED.workerGroup.id, tail: 3 });
    expect(a).toEqual(b);
  });
});

describe("default filters constant", () => {
  it("is the vendor client's set", () => {
    expect(DEFAULT_OFFER_FILTERS).toEqual({ verified: true, external: false, rentable: true, rented: false });
  });
});
