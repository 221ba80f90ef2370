/**
 * Issue 27 item 5: `pulumi-vastai costs [state files]` against the simulator: the hourly cost
 * of each resource of the given stacks from the live rows, its spend to date from the account's
 * charges, a total per stack, and JSON for scripts.
 */
import * as fs from "node:fs";
import { SEED } from "../../simulator/seed/seed";
import { useSimulator } from "../support/simulator";
import { useCliState } from "./cli-state";

const h = useSimulator();
const { stateFile, run, fileIn } = useCliState("costs-", () => h.client);

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
  const broken = fileIn("broken.json");
  fs.writeFileSync(broken, "{");
  const unreadable = await run(["costs", broken]);
  expect(unreadable.code).toBe(2);
  expect(unreadable.err).toContain("broken.json: not JSON");
});

test("34 costs: when each object stops or expires (its deadline, its autostop) and what it will have cost by then", async () => {
  const a = (await h.client.instances.create(SEED.offerIds[3], { image: "ubuntu:22.04", label: "ttl" })).id;
  const b = (await h.client.instances.create(SEED.offerIds[4], { image: "ubuntu:22.04", label: "idle" })).id;
  const live = new Map((await h.client.instances.listAll()).map((i) => [i.id, i.dphTotal ?? 0]));
  const deadline = new Date(Date.now() + 2 * 3600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  const past = "2026-01-01T00:00:00Z";
  const file = stateFile("ends.json", "dev", [
    { type: "Instance", name: "box", id: String(a), outputs: { ttl: "2h", deadline, autostop: { idleMinutes: 30 } } },
    { type: "Instance", name: "idle", id: String(b), outputs: { autostop: { idleMinutes: 45, action: "stop" } } },
    { type: "Fleet", name: "pool", id: "fleet-9", outputs: { members: [], deadline: past, expireAction: "stop" } },
  ]);
  const json = await run(["costs", file, "--json"]);
  expect(json.code).toBe(0);
  const rows = new Map((JSON.parse(json.out) as { resources: Array<Row & Record<string, unknown>> }).resources.map((r) => [r.name, r]));
  const box = rows.get("box")!;
  expect(box).toMatchObject({ endsAt: deadline, endAction: "destroy", idleStopMinutes: 30 });
  // Spent to date plus the hourly cost for the hours left (a little under 2: the run took a moment).
  const projected = (box.costByEnd as number) - box.spentUsd;
  expect(projected).toBeLessThanOrEqual(live.get(a)! * 2 + 1e-6);
  expect(projected).toBeGreaterThan(live.get(a)! * 1.99);
  expect(rows.get("idle")).toMatchObject({ endsAt: null, endAction: null, idleStopMinutes: 45, costByEnd: null });
  // Past its deadline: what it cost to date.
  expect(rows.get("pool")).toMatchObject({ endsAt: past, endAction: "stop", costByEnd: rows.get("pool")!.spentUsd });

  const table = await run(["costs", file]);
  expect(table.out).toMatch(/^STACK\s+TYPE\s+NAME\s+ID\s+HOURLY\s+SPENT\s+ENDS\s+BY END/);
  expect(table.out).toMatch(new RegExp(`Instance\\s+box\\s+${a}\\s+\\S+\\s+\\S+\\s+${deadline.slice(0, 10)} ${deadline.slice(11, 16)}Z destroy, idle 30m\\s+\\$${(box.costByEnd as number).toFixed(3)}`));
  expect(table.out).toMatch(/Instance\s+idle\s+\d+\s+\S+\s+\S+\s+idle 45m\s+-/);
}, 60_000);
