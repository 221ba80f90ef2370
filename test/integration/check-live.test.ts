/**
 * `pulumi-vastai check-live` against the simulator (issue 33 item 8): with the simulator's
 * answers every assumption is confirmed, everything it made is removed (each removal confirmed
 * by a read), the report holds no key; with a fault it reports the failure and still cleans up;
 * without an explicit spend cap it refuses before any request.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main, type CliIo } from "../../provider/cli/main";
import { SEED } from "pulumi-vastai/simulator";
import { useSimulator } from "../support/simulator";

const h = useSimulator();
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "check-live-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; err: string; report: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const report = path.join(dir, `report-${Math.random().toString(16).slice(2)}.json`);
  const io: CliIo = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: { VAST_API_KEY: h.sim.apiKey, VAST_URL: h.sim.url },
    liveCheck: { pollMs: 5, waitMs: 5000 },
  };
  const code = await main(["check-live", "--report", report, ...args], io);
  return { code, out: out.join("\n"), err: err.join("\n"), report: fs.existsSync(report) ? fs.readFileSync(report, "utf8") : "" };
}

const liveInstances = async () => (await h.client.instances.listAll()).map((i) => i.id);

describe("check-live", () => {
  it("refuses to start without an explicit spend cap, or with one that is not a small number, before any request", async () => {
    await h.clearRequests();
    for (const args of [[], ["--max-spend-usd", "lots"], ["--max-spend-usd", "1000"], ["--max-spend-usd", "-1"]]) {
      const r = await run(args);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/check-live: --max-spend-usd (is required|must be a number of dollars from 0 to 20)/);
    }
    expect(await h.requests()).toEqual([]);
  });

  it("confirms every assumption against the simulator, cleans up what it made and writes a report without the keys", async () => {
    // The invite check needs a team: the simulator's default key makes one (it becomes the team's key).
    await h.client.teams.create({ name: "check-live-team" });
    // The overlay check needs a cluster the account hosts, which the rented instance is off.
    await h.client.clusters.create("10.77.0.0/24", SEED.hostedMachineIds[0]);
    const before = await liveInstances();
    const r = await run(["--max-spend-usd", "1", "--invite-email", "someone@example.com"]);
    const report = JSON.parse(r.report) as { checks: Array<{ id: string; result: string; detail: string }>; cleanup: Array<{ result: string }>; exitCode: number };
    expect(report.checks.filter((c) => c.result !== "confirmed")).toEqual([]);
    expect(report.checks.map((c) => c.id)).toEqual(
      expect.arrayContaining(["offer-rows", "driver-version-filter", "machine-listing-state", "team-invite", "instance-api-key", "gpu-util-field", "losing-bid-stops", "overlay-join-off-cluster", "scheduled-bid-job"]),
    );
    expect(report.checks.find((c) => c.id === "overlay-join-off-cluster")!.detail).toMatch(/was refused overlay \d+ of cluster \d+ \(HTTP 400\)/);
    expect(await h.client.clusters.overlays()).toEqual([]);
    expect(r.code).toBe(0);
    expect(report.cleanup.length).toBeGreaterThanOrEqual(2);
    expect(report.cleanup.every((c) => c.result === "removed")).toBe(true);
    expect(await liveInstances()).toEqual(before);
    expect(await h.client.scheduledJobs.list()).toEqual([]);
    // The instance's own key was in the create answer: neither the report nor the output holds it.
    const created = (await h.requests()).find((q) => q.method === "PUT" && /\/asks\/\d+/.test(q.path));
    expect(created).toBeDefined();
    const keys = (await h.sim.state()).instances.map((i: { instance_api_key?: string }) => i.instance_api_key).filter(Boolean) as string[];
    for (const text of [r.report, r.out]) {
      expect(text).not.toContain(h.sim.apiKey);
      for (const k of keys) expect(text).not.toContain(k);
    }
  });

  it("reports a check that fails on a faulty service, still removes what it made, and exits 1", async () => {
    const before = await liveInstances();
    // The bid change fails however often it is tried: the losing-bid check cannot finish.
    await h.fault({ method: "PUT", path: "/api/v0/instances/bid_price/*", status: 500, body: { error: "server_error", msg: "injected" }, times: 50 });
    const r = await run(["--max-spend-usd", "1"]);
    const report = JSON.parse(r.report) as { checks: Array<{ id: string; result: string; detail: string }>; cleanup: Array<{ result: string }> };
    expect(r.code).toBe(1);
    expect(report.checks.find((c) => c.id === "losing-bid-stops")).toMatchObject({ result: "failed", detail: expect.stringMatching(/500|injected/) });
    expect(report.cleanup.every((c) => c.result === "removed")).toBe(true);
    expect(await liveInstances()).toEqual(before);
    expect(r.out).toMatch(/[1-9] failed/);
  });

  it("leaves the rental out when the spend cap does not cover it, and says so", async () => {
    await h.clearRequests();
    const r = await run(["--max-spend-usd", "0"]);
    const report = JSON.parse(r.report) as { checks: Array<{ id: string; result: string; detail: string }>; cleanup: unknown[] };
    expect(report.checks.find((c) => c.id === "instance-api-key")).toMatchObject({ result: "not checked", detail: expect.stringMatching(/over the spend left/) });
    expect(report.cleanup).toEqual([]);
    expect((await h.requests()).filter((q) => q.method === "PUT" && /\/asks\//.test(q.path))).toEqual([]);
  });
});
