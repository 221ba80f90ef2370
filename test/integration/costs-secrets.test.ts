/**
 * `pulumi-vastai costs` on exports whose outputs are Pulumi secrets, against the simulator. An
 * encrypted field the report needs (a Fleet's `members`, an Instance's `deadline`) never reads
 * as "nothing": the row's figures are unknown (null, `?`), the report names the file, the
 * resource and the field, says how to get a readable export (`pulumi stack export
 * --show-secrets`), leaves the row out of the totals saying so, and exits 1. An export made
 * with `--show-secrets` (plaintext) is read like a plain one. The readable rows are reported
 * as usual, and no ciphertext is printed.
 */
import { SEED } from "../../simulator/seed/seed";
import { useSimulator } from "../support/simulator";
import { urnOf, useCliState } from "./cli-state";

const h = useSimulator();
const { stateFile, run } = useCliState("costs-secrets-", () => h.client);

const SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const CIPHERTEXT = "v1:Zm9vYmFyYmF6cXV4:c2VjcmV0LW1lbWJlcnMtY2lwaGVydGV4dA==";
const encrypted = () => ({ ...SIG, ciphertext: CIPHERTEXT });
const plaintext = (value: unknown) => ({ ...SIG, plaintext: JSON.stringify(value) });

interface Row { name: string; hourlyCost: number | null; spentUsd: number | null; unreadable?: string; endsAt?: string | null; costByEnd?: number | null }
interface Report { resources: Row[]; total: { hourlyCost: number; spentUsd: number }; unreadable: string[] }

test("costs: a Fleet whose members are encrypted is named with the field and the export command, its figures unknown and left out of the totals; exit 1", async () => {
  const web = (await h.client.instances.create(SEED.offerIds[1], { image: "ubuntu:22.04", label: "web" })).id;
  const member = (await h.client.instances.create(SEED.offerIds[2], { image: "ubuntu:22.04", label: "member" })).id;
  const live = new Map((await h.client.instances.listAll()).map((i) => [i.id, i.dphTotal ?? 0]));
  expect(live.get(member)).toBeGreaterThan(0);
  const file = stateFile("encrypted.json", "prod", [
    { type: "Instance", name: "web", id: String(web) },
    { type: "Fleet", name: "pool", id: "fleet-1", outputs: { members: encrypted() } },
  ]);

  const json = await run(["costs", file, "--json"]);
  expect(json.err).toBe("");
  expect(json.code).toBe(1);
  const report = JSON.parse(json.out) as Report;
  const pool = report.resources.find((r) => r.name === "pool")!;
  // Unknown, not zero: the members' costs were not read.
  expect(pool).toMatchObject({ hourlyCost: null, spentUsd: null });
  expect(pool.unreadable).toContain(`${file}: ${urnOf("prod", { type: "Fleet", name: "pool" })}: \`outputs.members\` is encrypted (a Pulumi secret)`);
  expect(report.unreadable).toEqual([pool.unreadable]);
  // The readable row is reported as usual; the totals hold what was read.
  expect(report.resources.find((r) => r.name === "web")).toMatchObject({ hourlyCost: live.get(web) });
  expect(report.total.hourlyCost).toBeCloseTo(live.get(web)!, 6);
  expect(json.out).not.toContain(CIPHERTEXT);

  const table = await run(["costs", file]);
  expect(table.code).toBe(1);
  expect(table.out).toMatch(/proj\/prod\s+Fleet\s+pool\s+fleet-1\s+\?\s+\?/);
  expect(table.out).toContain(`${urnOf("prod", { type: "Fleet", name: "pool" })}: \`outputs.members\` is encrypted (a Pulumi secret)`);
  expect(table.out).toContain("pulumi stack export --show-secrets");
  expect(table.out).toMatch(/In all \(without 1 resource whose figures could not be read\): \$/);
  expect(table.out).not.toContain(CIPHERTEXT);
}, 60_000);

test("costs: an export made with --show-secrets (the members as plaintext) is counted like a plain one", async () => {
  const member = (await h.client.instances.create(SEED.offerIds[2], { image: "ubuntu:22.04", label: "member" })).id;
  const live = new Map((await h.client.instances.listAll()).map((i) => [i.id, i.dphTotal ?? 0]));
  const file = stateFile("plaintext.json", "prod", [{ type: "Fleet", name: "pool", id: "fleet-1", outputs: { members: plaintext([{ id: member }]) } }]);
  const json = await run(["costs", file, "--json"]);
  expect(json.err).toBe("");
  expect(json.code).toBe(0);
  const report = JSON.parse(json.out) as Report;
  expect(report.resources[0]).toMatchObject({ name: "pool", hourlyCost: live.get(member) });
  expect(report.resources[0].hourlyCost).toBeGreaterThan(0);
  expect(report.unreadable).toEqual([]);
}, 60_000);

test("costs: an Instance whose deadline is encrypted keeps its figures, and its end is named as unreadable, not shown as no end", async () => {
  const box = (await h.client.instances.create(SEED.offerIds[3], { image: "ubuntu:22.04", label: "box" })).id;
  const live = new Map((await h.client.instances.listAll()).map((i) => [i.id, i.dphTotal ?? 0]));
  const file = stateFile("deadline.json", "dev", [{ type: "Instance", name: "box", id: String(box), outputs: { ttl: "2h", deadline: encrypted() } }]);
  const json = await run(["costs", file, "--json"]);
  expect(json.code).toBe(1);
  const report = JSON.parse(json.out) as Report;
  const row = report.resources[0];
  expect(row).toMatchObject({ name: "box", hourlyCost: live.get(box), endsAt: null, costByEnd: null });
  expect(row.unreadable).toContain(`${urnOf("dev", { type: "Instance", name: "box" })}: \`outputs.deadline\` is encrypted (a Pulumi secret)`);
  expect(report.total.hourlyCost).toBeCloseTo(live.get(box)!, 6);

  const table = await run(["costs", file]);
  expect(table.code).toBe(1);
  expect(table.out).toMatch(new RegExp(`Instance\\s+box\\s+${box}\\s+\\$${live.get(box)!.toFixed(3)}/h\\s+\\S+\\s+\\?\\s+\\?`));
  expect(table.out).toContain("`outputs.deadline` is encrypted (a Pulumi secret)");
  expect(table.out).toContain("pulumi stack export --show-secrets");
  expect(table.out).not.toContain(CIPHERTEXT);

  // With the deadline readable (--show-secrets), the end is shown.
  const deadline = new Date(Date.now() + 2 * 3600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  const shown = stateFile("deadline-shown.json", "dev", [{ type: "Instance", name: "box", id: String(box), outputs: { ttl: "2h", deadline: plaintext(deadline) } }]);
  const ok = await run(["costs", shown, "--json"]);
  expect(ok.code).toBe(0);
  expect((JSON.parse(ok.out) as Report).resources[0]).toMatchObject({ endsAt: deadline, endAction: "destroy" });
}, 60_000);
