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

describe("issue 23 item 8: the request log and the state served keep env values, scripts and command lines out", () => {
  let h: SimHarness;
  beforeAll(async () => {
    h = await openSimulator();
  });
  afterAll(() => h.close());
  beforeEach(() => h.control("POST", "/_sim/reset"));

  const secret = {
    templateEnv: "tpl-env-secret-71c2",
    updateEnv: "upd-env-secret-0b9e",
    onstart: "onstart-token-5d11",
    args: "args-token-88af",
    argsStr: "args-str-token-2c4d",
    launchArgs: "launch-token-e6f0",
    flagEnv: "flag-env-secret-3a3a",
  };

  it("23.8 masks Template env values, in-place update env, onstart, args, args_str and launch_args in /_sim/requests, keeping the keys", async () => {
    const created = await h.call("PUT", CREATE, { image: "ubuntu", env: { "-p 8080:8080": "1" } });
    const id = created.body.new_contract as number;
    await h.call("POST", "/api/v0/template/", { name: "t", image: "ubuntu", env: `-e HF_TOKEN=${secret.templateEnv} -p 8080:8080 --env=OTHER=${secret.flagEnv}`, onstart: `curl -H 'x: ${secret.onstart}'`, args_str: `--key ${secret.argsStr}` });
    await h.call("PUT", `/api/v0/instances/update_template/${id}/`, { id, image: "ubuntu", env: { HF_TOKEN: secret.updateEnv }, onstart: `echo ${secret.onstart}`, args: `--token ${secret.args}` });
    await h.call("POST", "/api/v0/workergroups/", { endpoint_id: 1, search_params: "gpu_ram>=24", launch_args: `--api-key ${secret.launchArgs}` });
    const log = (await h.control("GET", "/_sim/requests")).body as LoggedRequest[];
    const text = JSON.stringify(log);
    for (const [name, value] of Object.entries(secret)) expect({ name, leaked: text.includes(value) }).toEqual({ name, leaked: false });
    const template = log.find((r) => r.method === "POST" && r.path === "/api/v0/template/")!;
    expect(template.body).toMatchObject({ name: "t", env: "-e HF_TOKEN=[redacted] -p 8080:8080 --env=OTHER=[redacted]", onstart: "[redacted]", args_str: "[redacted]" });
    const update = log.find((r) => r.path.startsWith("/api/v0/instances/update_template/"))!;
    expect(update.body).toMatchObject({ id, image: "ubuntu", env: { HF_TOKEN: "[redacted]" }, onstart: "[redacted]", args: "[redacted]" });
    expect(log.find((r) => r.path === "/api/v0/workergroups/")!.body).toMatchObject({ search_params: "gpu_ram>=24", launch_args: "[redacted]" });
  });

  it("23.8 masks env values (not the marker) and scripts in /_sim/state; logSecrets shows them", async () => {
    await h.call("PUT", CREATE, { image: "ubuntu", env: { HF_TOKEN: secret.updateEnv, PULUMI_VASTAI_MARKER: "m-1" }, onstart: `echo ${secret.onstart}` });
    await h.call("POST", "/api/v0/template/", { name: "t", image: "ubuntu", env: `-e HF_TOKEN=${secret.templateEnv}` });
    const state = (await h.control("GET", "/_sim/state")).body;
    const text = JSON.stringify(state);
    for (const value of [secret.updateEnv, secret.onstart, secret.templateEnv]) expect({ value, leaked: text.includes(value) }).toEqual({ value, leaked: false });
    expect(state.instances[0].extra_env).toEqual(expect.arrayContaining([["HF_TOKEN", "[redacted]"], ["PULUMI_VASTAI_MARKER", "m-1"]]));
    expect(state.templates.find((t: { name: string }) => t.name === "t").env).toBe("-e HF_TOKEN=[redacted]");
    // The in-process view and a simulator that keeps secrets still show them to tests.
    expect(JSON.stringify(h.sim.state())).toContain(secret.updateEnv);
    const open = await openSimulator({ logSecrets: true });
    try {
      await open.call("PUT", CREATE, { image: "ubuntu", env: { HF_TOKEN: secret.updateEnv } });
      expect(JSON.stringify((await open.control("GET", "/_sim/state")).body)).toContain(secret.updateEnv);
    } finally {
      await open.close();
    }
  });
});

describe("issue 23 item 9: simulator guards", () => {
  let h: SimHarness;
  beforeAll(async () => {
    h = await openSimulator();
  });
  afterAll(() => h.close());
  beforeEach(() => h.control("POST", "/_sim/reset"));

  it("23.9 refuses a text/plain control write to an encoded control path (/%5Fsim/reset) and keeps the state", async () => {
    expect((await h.call("PUT", CREATE, { image: "ubuntu" })).status).toBe(200);
    for (const p of ["/%5Fsim/reset", "/%5fsim/reset", "/_%73im/reset", "/%5F%73%69%6D/reset"]) {
      const r = await raw(h.sim.url, { method: "POST", path: p, headers: { "content-type": "text/plain" }, body: "{}" });
      expect({ p, status: r.status }).toEqual({ p, status: 415 });
      expect(r.body).toMatchObject({ error: "unsupported_media_type" });
    }
    expect(h.sim.state().instances).toHaveLength(1);
  });

  it("23.9 bounds pending faults and a fault's times with a clear 400", async () => {
    try {
      for (let i = 0; i < 1000; i++) expect((await h.control("POST", "/_sim/faults", { method: "GET", path: `/api/v0/x${i}`, status: 500 })).status).toBe(200);
      const over = await h.control("POST", "/_sim/faults", { method: "GET", path: "/api/v0/one-more", status: 500 });
      expect(over.status).toBe(400);
      expect(over.body.msg).toMatch(/too many pending faults: at most 1000/);
      await h.control("DELETE", "/_sim/faults");
      const times = await h.control("POST", "/_sim/faults", { method: "GET", path: "/api/v0/y", status: 500, times: 1e9 });
      expect(times.status).toBe(400);
      expect(times.body.msg).toMatch(/times must be 1 to 100000 \(got 1000000000\)/);
    } finally {
      await h.control("DELETE", "/_sim/faults");
    }
  });
});

describe("issue 23 item 9: the state file", () => {
  const saved = (file: string) => JSON.parse(fs.readFileSync(file, "utf8"));
  // Each rental takes an offer of its own (a rented offer is taken until its instance goes).
  let nextOffer = 0;
  const put = (sim: { url: string; apiKey: string }, label: string) =>
    fetch(`${sim.url}/api/v0/asks/${SEED.offerIds[nextOffer++ % SEED.offerIds.length]}/`, { method: "PUT", headers: { authorization: `Bearer ${sim.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ image: "ubuntu", label }) }).then(
      (r) => r.status,
      () => 0,
    );

  it("23.9 writes through an unpredictable temporary file made with O_EXCL, never following a planted symlink", async () => {
    const file = path.join(dir, "state.json");
    const victim = path.join(dir, "victim.txt");
    fs.writeFileSync(victim, "precious");
    // Every name the old scheme could use (pid-based), planted as a symlink to the victim.
    for (const pid of [process.pid, process.pid + 1]) fs.symlinkSync(victim, path.join(dir, `.state.json.${pid}.tmp`));
    const sim = await startSimulator({ port: 0, stateFile: file });
    try {
      // Opening removed leftovers; plant them again, as another user could at any time.
      for (const pid of [process.pid, process.pid + 1]) {
        const link = path.join(dir, `.state.json.${pid}.tmp`);
        if (!fs.existsSync(link)) fs.symlinkSync(victim, link);
      }
      expect(await put(sim, "ubuntu")).toBe(200);
    } finally {
      await sim.close();
    }
    expect(fs.readFileSync(victim, "utf8")).toBe("precious");
    expect(saved(file).data.instances).toHaveLength(1);
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(false);
  });

  it("23.9 a simulator that lost its lock while paused stops writing: the second one's acknowledged write is kept", async () => {
    const file = path.join(dir, "state.json");
    const lost: Error[] = [];
    const first = await startSimulator({ port: 0, stateFile: file, onStateLockLost: (e) => lost.push(e) });
    let second: Awaited<ReturnType<typeof startSimulator>> | undefined;
    try {
      expect(await put(first, "first-before")).toBe(200);
      // The first is paused past the stale time (its lock is not refreshed): the lock looks abandoned.
      const lock = path.join(dir, ".state.json.lock");
      const past = new Date(Date.now() - 3600_000);
      fs.utimesSync(lock, past, past);
      second = await startSimulator({ port: 0, stateFile: file });
      expect(await put(second, "second")).toBe(200);
      expect(saved(file).data.instances.map((i: { label: string }) => i.label)).toContain("second");
      // The first wakes up and gets a write: it must not be acknowledged, nor overwrite the file.
      const status = await put(first, "first-after");
      expect(status === 0 || status >= 500).toBe(true);
      const images = saved(file).data.instances.map((i: { label: string }) => i.label);
      expect(images).toContain("second");
      expect(images).not.toContain("first-after");
      expect(lost.map((e) => e.message)).toEqual([expect.stringMatching(/lost the lock on state file .*writes nothing more/)]);
    } finally {
      await first.close().catch(() => undefined);
      await second?.close();
    }
    // The second's writes survive the first's close.
    expect(saved(file).data.instances.map((i: { label: string }) => i.label)).toContain("second");
  });
});
