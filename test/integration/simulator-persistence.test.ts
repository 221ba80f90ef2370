import { execFile, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { SEED, startSimulator } from "pulumi-vastai/simulator";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sim-state-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(url: string, key: string, method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url + p, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe("state file", () => {
  it("keeps instances, templates, secrets and keys across a restart", async () => {
    const file = path.join(dir, "state.json");
    const first = await startSimulator({ port: 0, bootMs: 0, stateFile: file, apiKey: "persisted-key-1" });
    const inst = await call(first.url, first.apiKey, "PUT", `/api/v0/asks/${SEED.offerIds[0]}/`, { image: "ubuntu", label: "keep" });
    const tpl = await call(first.url, first.apiKey, "POST", "/api/v0/template/", {
      name: "t", image: "ubuntu", docker_login_repo: "", docker_login_user: "", docker_login_pass: "",
    });
    await call(first.url, first.apiKey, "POST", "/api/v0/secrets/", { key: "TOKEN", value: "v" });
    const key = await call(first.url, first.apiKey, "POST", "/api/v0/auth/apikeys/", { name: "ci" });
    await first.close();

    const second = await startSimulator({ port: 0, bootMs: 0, stateFile: file });
    try {
      expect(second.apiKey).toBe("persisted-key-1");
      const read = await call(second.url, second.apiKey, "GET", `/api/v0/instances/${inst.body.new_contract}/`);
      expect(read.body.instances).toMatchObject({ label: "keep", actual_status: "running" });
      const state = second.state();
      expect(state.templates.map((t) => t.hash_id)).toContain(tpl.body.template.hash_id);
      expect(state.secrets).toEqual([{ user_id: SEED.user.id, name: "TOKEN" }]);
      expect((await call(second.url, key.body.key, "GET", "/api/v0/users/current/")).status).toBe(200);
      // Another offer: the kept instance still holds the first (a rented offer is taken).
      const next = await call(second.url, second.apiKey, "PUT", `/api/v0/asks/${SEED.offerIds[1]}/`, { image: "ubuntu" });
      expect(next.body.new_contract).toBe(inst.body.new_contract + 1);
    } finally {
      await second.close();
    }
  });

  it("keeps in-place updates, detached SSH keys and update refusals across a restart", async () => {
    const file = path.join(dir, "state.json");
    const first = await startSimulator({ port: 0, bootMs: 0, stateFile: file, apiKey: "persisted-key-2" });
    const inst = await call(first.url, first.apiKey, "PUT", `/api/v0/asks/${SEED.offerIds[0]}/`, { image: "ubuntu" });
    const id = inst.body.new_contract as number;
    expect((await call(first.url, first.apiKey, "PUT", `/api/v0/instances/update_template/${id}/`, { id, image: "nginx", env: { A: "1" } })).body.success).toBe(true);
    await call(first.url, first.apiKey, "POST", `/api/v0/instances/${id}/ssh/`, { ssh_key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPersistedKey p@test" });
    const keyId = (first.state().instances[0].ssh_key_ids as number[])[0];
    expect((await call(first.url, first.apiKey, "DELETE", `/api/v0/instances/${id}/ssh/${keyId}/`)).status).toBe(200);
    const machine = first.state().instances[0].machine_id as number;
    await fetch(`${first.url}/_sim/machines/${machine}/refuse-updates`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ reason: "kept" }) });
    await first.close();

    const second = await startSimulator({ port: 0, bootMs: 0, stateFile: file });
    try {
      expect(second.state().instances[0]).toMatchObject({ image_uuid: "nginx:latest", template_updates: 1, ssh_key_ids: [] });
      const refused = await call(second.url, second.apiKey, "PUT", `/api/v0/instances/update_template/${id}/`, { id, image: "redis" });
      expect(refused.body).toMatchObject({ success: false, msg: "kept" });
    } finally {
      await second.close();
    }
  });

  it("writes the file after each change through a temporary file and rename", async () => {
    const file = path.join(dir, "nested", "state.json");
    const sim = await startSimulator({ port: 0, bootMs: 0, stateFile: file });
    try {
      await call(sim.url, sim.apiKey, "PUT", `/api/v0/asks/${SEED.offerIds[1]}/`, { image: "ubuntu", label: "live" });
      const saved = JSON.parse(fs.readFileSync(file, "utf8"));
      expect(saved.format).toBe("pulumi-vastai-simulator-state");
      expect(saved.data.instances.map((i: { label: string }) => i.label)).toEqual(["live"]);
      // Beside the file only its lock, held while the simulator runs; no temporary file.
      expect(fs.readdirSync(path.dirname(file)).filter((n) => !n.startsWith(".state.json.lock"))).toEqual(["state.json"]);
    } finally {
      await sim.close();
    }
    expect(fs.readdirSync(path.dirname(file))).toEqual(["state.json"]);
  });

  it("uses an explicitly given key over the saved one", async () => {
    const file = path.join(dir, "state.json");
    await (await startSimulator({ port: 0, stateFile: file, apiKey: "old-key-12345" })).close();
    const sim = await startSimulator({ port: 0, stateFile: file, apiKey: "new-key-12345" });
    try {
      expect((await call(sim.url, "new-key-12345", "GET", "/api/v0/users/current/")).status).toBe(200);
      expect((await call(sim.url, "old-key-12345", "GET", "/api/v0/users/current/")).status).toBe(401);
    } finally {
      await sim.close();
    }
  });

  it("refuses a state file that is not a simulator state, naming the file", async () => {
    const file = path.join(dir, "state.json");
    fs.writeFileSync(file, "{ not json");
    await expect(startSimulator({ port: 0, stateFile: file })).rejects.toThrow(file);
    fs.writeFileSync(file, JSON.stringify({ hello: "world" }));
    await expect(startSimulator({ port: 0, stateFile: file })).rejects.toThrow(/not a version 1 simulator state/);
  });
});

describe("command line", () => {
  const root = path.resolve(__dirname, "../..");
  let built: string;

  // Node 20 runs no TypeScript: transpile simulator/ once (no type check) in a plain node
  // process, which loads the compiler far faster than jest's module registry, and run the CLI
  // from there, resolving packages from the repository's node_modules.
  const TRANSPILE = `
    const ts = require("typescript"), fs = require("fs"), path = require("path");
    const [src, out] = process.argv.slice(1);
    const walk = (rel) => {
      for (const e of fs.readdirSync(path.join(src, rel), { withFileTypes: true })) {
        const from = path.join(rel, e.name);
        if (e.isDirectory()) walk(from);
        else if (e.name.endsWith(".ts")) {
          const js = ts.transpileModule(fs.readFileSync(path.join(src, from), "utf8"), { compilerOptions: {
            module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText;
          fs.mkdirSync(path.join(out, rel), { recursive: true });
          fs.writeFileSync(path.join(out, from.replace(/\\.ts$/, ".js")), js);
        }
      }
    };
    walk("simulator");
  `;
  // Started at once and awaited by the tests below, so it overlaps the state-file tests.
  const ready = new Promise<void>((resolve, reject) => {
    built = fs.mkdtempSync(path.join(os.tmpdir(), "sim-cli-"));
    execFile(process.execPath, ["-e", TRANSPILE, root, built], { cwd: root }, (err, _out, stderr) =>
      err ? reject(new Error(`transpiling simulator/ failed: ${stderr}`)) : resolve(),
    );
  });
  afterAll(() => fs.rmSync(built, { recursive: true, force: true }));

  function runCli(args: string[]) {
    const child = spawn(process.execPath, [path.join(built, "simulator/cli.js"), ...args], {
      cwd: root,
      env: { ...process.env, NODE_PATH: path.join(root, "node_modules") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const printed = (re: RegExp) =>
      new Promise<RegExpMatchArray>((resolve, reject) => {
        const check = () => {
          const m = re.exec(out);
          if (m) resolve(m);
        };
        child.stdout.on("data", check);
        exited.then(() => reject(new Error(`simulator exited before printing ${re}: ${out}${err}`)));
      });
    return { child, exited, printed, output: () => out, errors: () => err };
  }

  it("prints the URLs and key, serves the API, and stops cleanly on SIGINT", async () => {
    await ready;
    const file = path.join(dir, "cli-state.json");
    const cli = runCli(["--port", "0", "--api-key", "cli-key-12345", "--boot-ms", "0", "--state", file]);
    const [, url] = await cli.printed(/API URL:\s+(\S+)/);
    expect(cli.output()).toMatch(new RegExp(`Run URL:\\s+${url}/run`));
    expect(cli.output()).toContain("cli-key-12345");
    const r = await call(url, "cli-key-12345", "PUT", `/api/v0/asks/${SEED.offerIds[0]}/`, { image: "ubuntu" });
    expect(r.status).toBe(200);
    cli.child.kill("SIGINT");
    expect(await cli.exited).toBe(0);
    expect(cli.output()).toContain("stopping");
    expect(JSON.parse(fs.readFileSync(file, "utf8")).data.instances).toHaveLength(1);
  });

  it("exits with an error for an invalid option", async () => {
    await ready;
    const cli = runCli(["--rate-limits", "fast"]);
    expect(await cli.exited).not.toBe(0);
    expect(cli.errors()).toContain("realistic");
  });
});
