/**
 * The simulator's serverless endpoints and worker groups over HTTP: scopes, the vendor
 * client's `/autojobs/` alias, refusals naming field and value, persistence in the state file
 * (and state files written before these objects existed), and the request log keeping no key.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startSimulator, type Simulator } from "pulumi-vastai/simulator";

let sim: Simulator;
let dir: string;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sim-serverless-"));
  sim = await startSimulator({ port: 0, bootMs: 0, stateFile: path.join(dir, "state.json") });
});
afterEach(async () => {
  await sim.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(method: string, p: string, body?: unknown, key = sim.apiKey, url = sim.url): Promise<{ status: number; body: any }> {
  const res = await fetch(url + p, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

it("needs the misc scope for every serverless write and read", async () => {
  const scoped = await call("POST", "/api/v0/auth/apikeys/", { name: "no-misc", permissions: { api: { instance_read: {}, instance_write: {} } } });
  const denied = await call("POST", "/api/v0/endptjobs/", { endpoint_name: "x" }, scoped.body.key);
  expect(denied.status).toBe(403);
  expect(denied.body.msg).toMatch(/lacks the permission misc/);
  const misc = await call("POST", "/api/v0/auth/apikeys/", { name: "misc", permissions: { api: { misc: {} } } });
  expect((await call("POST", "/api/v0/endptjobs/", { endpoint_name: "x" }, misc.body.key)).status).toBe(200);
});

it("serves worker groups under /workergroups/ and the vendor client's /autojobs/ alike", async () => {
  const ep = await call("POST", "/api/v0/endptjobs/", { endpoint_name: "llm" });
  const made = await call("POST", "/api/v0/autojobs/", { endpoint_name: "llm", search_params: "gpu_ram>=23", test_workers: 0 });
  expect(made.body).toEqual({ success: true, id: expect.any(Number) });
  const listed = await call("GET", "/api/v0/workergroups/");
  expect(listed.body.results).toEqual([
    expect.objectContaining({ id: made.body.id, endpoint_id: ep.body.result, endpoint_name: "llm", search_query: { gpu_ram: { gte: 23 } } }),
  ]);
});

it("refuses bad input naming the field and the value, and unknown objects in the service's words", async () => {
  const util = await call("POST", "/api/v0/endptjobs/", { endpoint_name: "x", target_util: 2 });
  expect(util).toEqual({ status: 400, body: expect.objectContaining({ error: "invalid_args", msg: expect.stringMatching(/target_util .* \(got 2\)/) }) });
  const name = await call("POST", "/api/v0/endptjobs/", { endpoint_name: "has space" });
  expect(name.body.msg).toMatch(/endpoint_name must be .*"has space"/);
  const noEndpoint = await call("POST", "/api/v0/workergroups/", { endpoint_id: 424242, search_params: "x" });
  expect(noEndpoint.body.msg).toBe("Please assign your workergroup to a valid endpoint identifier");
  expect((await call("DELETE", "/api/v0/workergroups/424242/")).body).toEqual(expect.objectContaining({ error: "no_such_workergroup" }));
  expect((await call("DELETE", "/api/v0/endptjobs/424242/")).body.msg).toMatch(/not found for user/);
});

it("keeps endpoints, groups and their workers across a restart; loads a state file from before them", async () => {
  const file = path.join(dir, "state.json");
  const ep = await call("POST", "/api/v0/endptjobs/", { endpoint_name: "keep", max_workers: 3 });
  const group = await call("POST", "/api/v0/workergroups/", { endpoint_id: ep.body.result, search_params: "gpu_ram>=23", test_workers: 2 });
  const key = (await call("GET", "/api/v0/endptjobs/")).body.results[0].api_key;
  await sim.close();
  sim = await startSimulator({ port: 0, bootMs: 0, stateFile: file });
  expect((await call("GET", "/api/v0/endptjobs/")).body.results).toEqual([expect.objectContaining({ id: ep.body.result, max_workers: 3, api_key: key })]);
  expect(sim.state().workerGroups).toEqual([expect.objectContaining({ id: group.body.id, worker_ids: [expect.any(Number), expect.any(Number)] })]);
  const deleted = await call("DELETE", `/api/v0/endptjobs/${ep.body.result}/`);
  expect(deleted.body.deleted_workers).toHaveLength(2);
  expect(sim.state().instances).toEqual([]);
  await sim.close();

  // A state file written before serverless objects existed.
  const saved = JSON.parse(fs.readFileSync(file, "utf8"));
  delete saved.data.serverless;
  fs.writeFileSync(file, JSON.stringify(saved));
  sim = await startSimulator({ port: 0, bootMs: 0, stateFile: file });
  expect((await call("GET", "/api/v0/endptjobs/")).body).toEqual({ success: true, results: [] });
});

it("keeps no API key in the request log: bodies redacted, responses never logged", async () => {
  await call("POST", "/api/v0/endptjobs/", { endpoint_name: "llm" });
  const key = (await call("GET", "/api/v0/endptjobs/")).body.results[0].api_key as string;
  // As the vendor's client sends a worker group's settings with its key in the body.
  await call("PUT", "/api/v0/endptjobs/4001/", { client_id: "me", api_key: key, max_workers: 2 });
  const log = await (await fetch(`${sim.url}/_sim/requests`)).text();
  expect(log).toContain("/api/v0/endptjobs");
  expect(log).not.toContain(key);
});
