/**
 * The simulator runs on users' machines: what a web page, a second simulator, a bad state
 * file or a slow client can do to it (items 15-17 of the hardening issue).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { SEED, startSimulator, type LoggedRequest } from "pulumi-vastai/simulator";
import { openSimulator, type SimHarness } from "./simulator-support";
import { after, raw, rawSocket } from "./simulator-hardening-support";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sim-hardening-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const CREATE = `/api/v0/asks/${SEED.offerIds[0]}/`;

describe("simulator hardening (15): the control API and the request log against web pages", () => {
  let h: SimHarness;
  beforeAll(async () => {
    h = await openSimulator();
  });
  afterAll(() => h.close());
  beforeEach(() => h.control("POST", "/_sim/reset"));

  it("(15) answers 403 naming the rule to a Host that is not loopback, on control and API routes", async () => {
    const port = new URL(h.sim.url).port;
    const auth = { authorization: `Bearer ${h.sim.apiKey}` };
    for (const [p, headers] of [["/_sim/requests", {}], ["/_sim/state", {}], ["/api/v0/instances/", auth]] as const) {
      for (const host of [`rebind.example:${port}`, "rebind.example", `127.0.0.1.rebind.example:${port}`, `localhost.evil:${port}`]) {
        const r = await raw(h.sim.url, { method: "GET", path: p, headers: { ...headers, host } });
        expect({ p, host, status: r.status }).toEqual({ p, host, status: 403 });
        expect(r.body).toMatchObject({ success: false, error: "forbidden_host" });
        expect(r.body.msg).toMatch(/Host/);
        expect(r.body.msg).toMatch(/loopback/);
      }
    }
    for (const host of [`127.0.0.1:${port}`, "127.0.0.1", `127.1.2.3:${port}`, `localhost:${port}`, "LOCALHOST", `[::1]:${port}`]) {
      const r = await raw(h.sim.url, { method: "GET", path: "/api/v0/instances/", headers: { ...auth, host } });
      expect({ host, status: r.status }).toEqual({ host, status: 200 });
    }
  });

  it("(15) refuses a control write that is not application/json with 415 and changes nothing", async () => {
    expect((await h.call("PUT", CREATE, { image: "ubuntu" })).status).toBe(200);
    for (const headers of [{ "content-type": "text/plain" }, { "content-type": "application/x-www-form-urlencoded" }, {} as Record<string, string>]) {
      const r = await raw(h.sim.url, { method: "POST", path: "/_sim/reset", headers, body: headers["content-type"] ? "{}" : undefined });
      expect(r.status).toBe(415);
      expect(r.body).toMatchObject({ success: false, error: "unsupported_media_type" });
      expect(r.body.msg).toContain("application/json");
    }
    expect(h.sim.state().instances).toHaveLength(1);
    const ok = await raw(h.sim.url, { method: "POST", path: "/_sim/reset", headers: { "content-type": "application/json; charset=utf-8" } });
    expect(ok.status).toBe(200);
    expect(h.sim.state().instances).toHaveLength(0);
  });

  it("(15) keeps secrets out of the request log: header, query, body fields, env values, private keys", async () => {
    const secrets = {
      registry: "reg-pass-5f2c91aa",
      imageLogin: "img-login-pass-77d1",
      envValue: "hf_envvalue_3c9e0b",
      accountVar: "account-var-value-8812",
      bodyKey: h.sim.apiKey,
      queryKey: "query-api-key-4417",
      cookie: "session-cookie-1a2b3c",
      privateKey: "private-key-material-9f9f",
    };
    await h.call("POST", "/api/v0/template/", { name: "t", image: "ubuntu", docker_login_repo: "r", docker_login_user: "u", docker_login_pass: secrets.registry });
    await h.call("PUT", CREATE, { image: "ubuntu", label: "kept", env: { HF_TOKEN: secrets.envValue, "-p 8080:8080": "1" }, image_login: `-u me -p ${secrets.imageLogin} docker.io` });
    await h.call("POST", "/api/v0/secrets/", { key: "TOKEN", value: secrets.accountVar });
    await h.call("PUT", "/api/v0/secrets/", { key: "TOKEN", value: secrets.accountVar });
    await h.run("/get_workergroup_logs", { id: SEED.workerGroup.id, api_key: secrets.bodyKey, tail: 5 }, { key: null });
    await h.call("GET", `/api/v0/instances/?api_key=${secrets.queryKey}`, undefined, { headers: { cookie: secrets.cookie } });
    await h.call("POST", "/api/v0/ssh/", { ssh_key: `-----BEGIN OPENSSH PRIVATE KEY-----\n${secrets.privateKey}\n-----END OPENSSH PRIVATE KEY-----` });
    const created = await h.call("POST", "/api/v0/auth/apikeys/", { name: "ci" });
    const regenerated = await h.call("PUT", "/api/v0/subaccounts/regenerate_keys", { subaccount_user_id: SEED.subaccounts[0].userId });

    const log = (await h.control("GET", "/_sim/requests")).body as LoggedRequest[];
    const text = JSON.stringify(log);
    for (const [name, value] of Object.entries({ ...secrets, created: created.body.key, derived: regenerated.body.regenerated_keys[0].derived_key })) {
      expect({ name, leaked: text.includes(value) }).toEqual({ name, leaked: false });
    }
    // What is not secret stays readable, so the log still shows what a client sent.
    const create = log.find((r) => r.method === "PUT" && r.path === CREATE)!;
    expect(create.body).toMatchObject({ image: "ubuntu", label: "kept", env: { HF_TOKEN: "[redacted]", "-p 8080:8080": "[redacted]" }, image_login: "[redacted]" });
    const template = log.find((r) => r.path === "/api/v0/template/")!;
    expect(template.body).toMatchObject({ name: "t", docker_login_user: "u", docker_login_pass: "[redacted]" });
    expect(log.find((r) => r.path === "/api/v0/secrets/")!.body).toEqual({ key: "TOKEN", value: "[redacted]" });
    expect(log.find((r) => r.path === "/api/v0/instances/")!.query).toEqual({ api_key: "[redacted]" });
    expect(log.every((r) => r.headers.authorization === undefined)).toBe(true);
  });

  it("(15) keeps empty secret fields empty, so a log still shows that none was sent", async () => {
    await h.call("POST", "/api/v0/template/", { name: "t", image: "ubuntu", docker_login_repo: "", docker_login_user: "", docker_login_pass: "" });
    const log = (await h.control("GET", "/_sim/requests")).body as LoggedRequest[];
    expect(log[0].body).toMatchObject({ docker_login_pass: "" });
  });

  it("(15) keeps secrets in the log only when logSecrets is set", async () => {
    const open = await openSimulator({ logSecrets: true });
    try {
      await open.call("POST", "/api/v0/secrets/", { key: "TOKEN", value: "visible-value-123" });
      expect((await open.control("GET", "/_sim/requests")).body[0].body).toEqual({ key: "TOKEN", value: "visible-value-123" });
    } finally {
      await open.close();
    }
  });

  it("(15) writes the state file readable by its owner only (0600)", async () => {
    const file = path.join(dir, "state.json");
    const sim = await startSimulator({ port: 0, bootMs: 0, stateFile: file });
    try {
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      await fetch(sim.url + CREATE, { method: "PUT", headers: { authorization: `Bearer ${sim.apiKey}`, "content-type": "application/json" }, body: '{"image":"ubuntu"}' });
      expect(sim.state().instances).toHaveLength(1);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      await sim.close();
    }
    // A file an older version left world-readable is tightened on the next write.
    fs.chmodSync(file, 0o644);
    await (await startSimulator({ port: 0, stateFile: file })).close();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe("simulator hardening (16): the state file", () => {
  const saved = (file: string) => JSON.parse(fs.readFileSync(file, "utf8"));

  it("(16) refuses a second simulator on the same state file, naming the file and the owner's pid", async () => {
    const file = path.join(dir, "state.json");
    const first = await startSimulator({ port: 0, stateFile: file });
    try {
      const second = startSimulator({ port: 0, stateFile: file });
      await expect(second).rejects.toThrow(file);
      await expect(second).rejects.toThrow(new RegExp(`in use by .*pid ${process.pid}`));
      // The refused one wrote nothing: the first still owns the file.
      await fetch(first.url + CREATE, { method: "PUT", headers: { authorization: `Bearer ${first.apiKey}`, "content-type": "application/json" }, body: '{"image":"ubuntu"}' });
      expect(saved(file).data.instances).toHaveLength(1);
    } finally {
      await first.close();
    }
    const again = await startSimulator({ port: 0, stateFile: file });
    expect(again.state().instances).toHaveLength(1);
    await again.close();
  });

  it("(16) removes temporary files a killed simulator left next to the state file", async () => {
    const file = path.join(dir, "state.json");
    const stale = path.join(dir, ".state.json.424242.tmp");
    fs.writeFileSync(stale, "half a sta");
    const other = path.join(dir, ".other.json.424242.tmp");
    fs.writeFileSync(other, "not ours");
    const sim = await startSimulator({ port: 0, stateFile: file });
    try {
      expect(fs.existsSync(stale)).toBe(false);
      expect(fs.existsSync(other)).toBe(true);
    } finally {
      await sim.close();
    }
  });

  it("(16) refuses a state file of the right format with a malformed field, naming the file, the field and the rule", async () => {
    const file = path.join(dir, "state.json");
    await (await startSimulator({ port: 0, stateFile: file })).close();
    const good = saved(file);
    fs.writeFileSync(file, JSON.stringify({ ...good, data: { ...good.data, sshKeys: "oops" } }));
    const bad = startSimulator({ port: 0, stateFile: file });
    await expect(bad).rejects.toThrow(file);
    await expect(bad).rejects.toThrow(/data\.sshKeys: .*expected array/);
    fs.writeFileSync(file, JSON.stringify({ ...good, data: { ...good.data, apiKeys: [{ ...good.data.apiKeys[0], id: "seven" }] } }));
    await expect(startSimulator({ port: 0, stateFile: file })).rejects.toThrow(/data\.apiKeys\[0\]\.id: .*expected number/);
  });

  const shm = fs.existsSync("/dev/shm") && fs.statSync("/dev/shm").dev !== fs.statSync(os.tmpdir()).dev;
  (shm ? it : it.skip)("(16) keeps its state through a symlinked directory followed by .. on another filesystem", async () => {
    const elsewhere = fs.mkdtempSync("/dev/shm/sim-hardening-");
    try {
      fs.mkdirSync(path.join(elsewhere, "sub"));
      fs.symlinkSync(path.join(elsewhere, "sub"), path.join(dir, "link"));
      const sim = await startSimulator({ port: 0, stateFile: `${dir}/link/../state.json` });
      try {
        await fetch(sim.url + CREATE, { method: "PUT", headers: { authorization: `Bearer ${sim.apiKey}`, "content-type": "application/json" }, body: '{"image":"ubuntu"}' });
        expect(sim.state().instances).toHaveLength(1);
      } finally {
        await sim.close();
      }
      // The system resolves `link/..` to the symlink target's parent, and so must the simulator.
      expect(saved(path.join(elsewhere, "state.json")).data.instances).toHaveLength(1);
      expect(fs.readdirSync(elsewhere).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe("simulator hardening (17): slow clients and large bodies", () => {
  it("(17) closes a connection whose body does not arrive within requestTimeoutMs", async () => {
    const sim = await startSimulator({ port: 0, requestTimeoutMs: 300 });
    try {
      const { socket, closed, received } = await rawSocket(sim.url);
      const host = new URL(sim.url).host;
      socket.write(`PUT ${CREATE} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${sim.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"image":`);
      const ms = await Promise.race([closed, after(5000, -1)]);
      socket.destroy();
      expect(ms).toBeGreaterThanOrEqual(250);
      expect(received()).toMatch(/^HTTP\/1\.1 408/);
      expect(sim.state().instances).toHaveLength(0);
    } finally {
      await sim.close();
    }
  });

  it("(17) closes an idle keep-alive connection after keepAliveTimeoutMs", async () => {
    const sim = await startSimulator({ port: 0, keepAliveTimeoutMs: 200 });
    try {
      const { socket, closed, received } = await rawSocket(sim.url);
      socket.write(`GET /_sim/health HTTP/1.1\r\nHost: ${new URL(sim.url).host}\r\nConnection: keep-alive\r\n\r\n`);
      const ms = await Promise.race([closed, after(5000, -1)]);
      socket.destroy();
      expect(received()).toMatch(/^HTTP\/1\.1 200/);
      expect(ms).toBeGreaterThan(0);
    } finally {
      await sim.close();
    }
  });

  it("(17) logs at most logBodyBytes of a body, with its original size", async () => {
    const h = await openSimulator({ logBodyBytes: 1000 });
    try {
      const big = { name: "t", image: "ubuntu", readme: "x".repeat(200_000) };
      await h.call("POST", "/api/v0/template/", big);
      await h.call("POST", "/api/v0/secrets/", { key: "SMALL", value: "" });
      const [large, small] = (await h.control("GET", "/_sim/requests")).body as LoggedRequest[];
      expect(typeof large.body).toBe("string");
      expect(Buffer.byteLength(large.body as string)).toBeLessThanOrEqual(1000);
      expect(JSON.stringify(big).startsWith(large.body as string)).toBe(true);
      expect(large.bodyBytes).toBe(Buffer.byteLength(JSON.stringify(big)));
      expect(large.bodyTruncated).toBe(true);
      expect(small.body).toEqual({ key: "SMALL", value: "" });
      expect(small.bodyTruncated).toBeUndefined();
    } finally {
      await h.close();
    }
  });

  it("(17) caps a body by default too", async () => {
    const h = await openSimulator();
    try {
      await h.call("POST", "/api/v0/template/", { name: "t", image: "ubuntu", readme: "x".repeat(500_000) });
      const [entry] = (await h.control("GET", "/_sim/requests")).body as LoggedRequest[];
      expect(Buffer.byteLength(entry.body as string)).toBeLessThanOrEqual(64 * 1024);
      expect(entry.bodyBytes).toBeGreaterThan(500_000);
    } finally {
      await h.close();
    }
  });

  it("(17) keeps the newest logEntries requests", async () => {
    const h = await openSimulator({ logEntries: 3 });
    try {
      for (let i = 0; i < 5; i++) await h.call("GET", `/api/v0/instances/${i + 1}/`);
      const log = (await h.control("GET", "/_sim/requests")).body as LoggedRequest[];
      expect(log.map((r) => r.path)).toEqual(["/api/v0/instances/3/", "/api/v0/instances/4/", "/api/v0/instances/5/"]);
    } finally {
      await h.close();
    }
  });
});
