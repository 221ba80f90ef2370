/**
 * Issue 27 item 5: `pulumi-vastai costs [state files]` against the simulator: the hourly cost
 * of each resource of the given stacks from the live rows, its spend to date from the account's
 * charges, a total per stack, and JSON for scripts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../provider/cli/main";
import { SEED } from "../../simulator/seed/seed";
import { useSimulator } from "../support/simulator";

const h = useSimulator();
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "costs-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Res = { type: string; name: string; id: string; outputs?: Record<string, unknown> };
function stateFile(name: string, stack: string, resources: Res[]): string {
  const file = path.join(dir, name);
  const all = resources.map((r) => ({ urn: `urn:pulumi:${stack}::proj::pulumi-nodejs:dynamic/vastai:${r.type}::${r.name}`, custom: true, type: `pulumi-nodejs:dynamic/vastai:${r.type}`, id: r.id, outputs: r.outputs ?? {} }));
  fs.writeFileSync(file, JSON.stringify({ version: 3, deployment: { manifest: {}, resources: all } }));
  return file;
}

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), client: h.client });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

interface Row { stack: string; name: string; type: string; id: string; hourlyCost: number | null; spentUsd: number }

test("27.5 costs: hourly cost from the live rows and spend from the charges, per stack and resource, as JSON and as a table", async () => {
  const a = (await h.client.instances.create(SEED.offerIds[1], { image: "ubuntu:22.04", label: "a" })).id;
  const b = (await h.client.instances.create(SEED.offerIds[2], { image: "ubuntu:22.04", label: "b" })).id;
  const since = Math.floor(Date.now() / 1000) - 30 * 24 * 3600;
  const charges = await h.client.billing.charges({ start: since });
  // A destroyed instance of the account's past: nothing per hour now, its charges to date.
  const past = charges.find((c) => c.source?.startsWith("instance-") && c.amount > 0 && ![a, b].includes(Number(c.source.slice(9))));
  expect(past).toBeDefined();
  const pastId = past!.source!.slice("instance-".length);
  const spentOf = (id: string | number) => charges.filter((c) => c.source === `instance-${id}`).reduce((s, c) => s + c.amount, 0);
  const live = new Map((await h.client.instances.listAll()).map((i) => [i.id, i.dphTotal ?? 0]));

  const dev = stateFile("dev.json", "dev", [
    { type: "Instance", name: "web", id: String(a) },
    { type: "Instance", name: "old", id: pastId },
  ]);
  const prod = stateFile("prod.json", "prod", [{ type: "Fleet", name: "pool", id: "fleet-1", outputs: { members: [{ id: b }] } }]);

  const json = await run(["costs", dev, prod, "--json", "--since", String(since)]);
  expect(json.err).toBe("");
  expect(json.code).toBe(0);
  const report = JSON.parse(json.out) as { since: number; resources: Row[]; total: { hourlyCost: number; spentUsd: number } };
  expect(report.since).toBe(since);
  const byName = new Map(report.resources.map((r) => [r.name, r]));
  expect(byName.get("web")).toMatchObject({ stack: "dev", type: "Instance", id: String(a), hourlyCost: live.get(a) });
  expect(live.get(a)).toBeGreaterThan(0);
  expect(byName.get("old")).toMatchObject({ stack: "dev", hourlyCost: 0 });
  expect(byName.get("old")!.spentUsd).toBeCloseTo(spentOf(pastId), 6);
  expect(byName.get("old")!.spentUsd).toBeGreaterThan(0);
  expect(byName.get("pool")).toMatchObject({ stack: "prod", type: "Fleet", hourlyCost: live.get(b) });
  expect(report.total.hourlyCost).toBeCloseTo(live.get(a)! + live.get(b)!, 6);

  const table = await run(["costs", dev, prod, "--since", String(since)]);
  expect(table.code).toBe(0);
  expect(table.out).toMatch(/^STACK\s+TYPE\s+NAME\s+ID\s+HOURLY\s+SPENT/);
  expect(table.out).toMatch(new RegExp(`proj/dev\\s+Instance\\s+web\\s+${a}\\s+\\$${live.get(a)!.toFixed(3)}/h`));
  expect(table.out).toMatch(/proj\/prod\s+\(total\)/);
  expect(table.out).toContain(`In all: $${(live.get(a)! + live.get(b)!).toFixed(3)}/h now`);
}, 60_000);

test("27.5 costs refuses without state files, a bad --since and an unreadable state, naming what is wrong", async () => {
  const none = await run(["costs"]);
  expect(none.code).toBe(2);
  expect(none.err).toContain("give the `pulumi stack export` files");
  const file = stateFile("x.json", "dev", []);
  const bad = await run(["costs", file, "--since", "yesterday"]);
  expect(bad.code).toBe(2);
  expect(bad.err).toContain('--since: must be a past date (ISO 8601, such as 2026-01-01) or Unix seconds (got "yesterday")');
  const broken = path.join(dir, "broken.json");
  fs.writeFileSync(broken, "{");
  const unreadable = await run(["costs", broken]);
  expect(unreadable.code).toBe(2);
  expect(unreadable.err).toContain("broken.json: not JSON");
});
