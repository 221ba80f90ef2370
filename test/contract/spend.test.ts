/**
 * Issue 27 item 5, spend as outputs, through Pulumi's own dynamic-provider plugin from the
 * package as a user installs it: an Instance and a Fleet carry `hourlyCost` and `spentUsd`; a
 * refresh of both after simulated hours shows the spend the account's charges give, what the
 * cost report prints for them, and no diff.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { dynamicUrn } from "pulumi-vastai/testing";
import { createClient } from "../../provider/client";
import { main } from "../../provider/cli/main";
import { useContract } from "./harness";

jest.setTimeout(120_000);


const HOUR_MS = 3600_000;
// The simulated clock runs 30 days behind the real one, so every charge lies in a range ending now;
// it jumps hours in real milliseconds, so no walk of the charges serves a later read (TTL 0).
let clock = Date.now() - 30 * 24 * HOUR_MS;
const fx = useContract("instance", { simulator: { bootMs: 0, now: () => clock }, config: { "vastai:pollIntervalMs": "5", "vastai:spendCacheTtlMs": "0" } });

test("27.5 Instance and Fleet spend outputs through the plugin: hourlyCost as the costs report prints it, spentUsd from the charges, no diff", async () => {
  const iu = dynamicUrn("dev", "proj", "Instance", "gpu");
  const fu = dynamicUrn("dev", "proj", "Fleet", "pool");
  const ic = await fx.plugin.check(iu, {}, { __provider: fx.serialized.instance, offerId: 700002, image: "pytorch/pytorch", label: "spend" });
  expect(ic.failures).toEqual([]);
  const fc = await fx.plugin.check(fu, {}, { __provider: fx.serialized.fleet, __identity: "proj/dev/Fleet/pool", offer: { numGpus: 1, gpuRamGb: 24 }, image: "pytorch/pytorch", count: 2 });
  expect(fc.failures).toEqual([]);
  const inst = await fx.plugin.create(iu, ic.inputs);
  const pool = await fx.plugin.create(fu, fc.inputs);
  for (const made of [inst, pool]) {
    expect(made.properties.hourlyCost as number).toBeGreaterThan(0);
    expect(made.properties.spentUsd).toBe(0);
  }

  clock += 4 * HOUR_MS;
  const [ir, fr] = await Promise.all([fx.plugin.read(iu, inst.id, inst.properties, ic.inputs), fx.plugin.read(fu, pool.id, pool.properties, fc.inputs)]);

  const client = createClient({ apiKey: fx.sim.apiKey, apiUrl: fx.sim.url, pacing: false });
  const charges = await client.billing.charges({ start: Math.floor(clock / 1000) - 40 * 24 * 3600 });
  const charged = (ids: number[]) => charges.filter((c) => ids.some((id) => c.source === `instance-${id}`)).reduce((s, c) => s + c.amount, 0);
  const memberIds = (fr.properties.members as Array<{ id: number }>).map((m) => m.id);
  expect(ir.properties.spentUsd as number).toBeGreaterThan(0);
  expect(ir.properties.spentUsd).toBeCloseTo(charged([Number(inst.id)]), 6);
  expect(fr.properties.spentUsd).toBeCloseTo(charged(memberIds), 6);

  // The cost report prints the same figures for the same resources.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spend-contract-"));
  try {
    const file = path.join(dir, "dev.json");
    const resources = [
      { urn: iu, custom: true, type: "pulumi-nodejs:dynamic/vastai:Instance", id: inst.id, outputs: ir.properties },
      { urn: fu, custom: true, type: "pulumi-nodejs:dynamic/vastai:Fleet", id: pool.id, outputs: fr.properties },
    ];
    fs.writeFileSync(file, JSON.stringify({ version: 3, deployment: { manifest: {}, resources } }));
    const out: string[] = [];
    expect(await main(["costs", file, "--json"], { out: (t) => out.push(t), err: () => undefined, client })).toBe(0);
    const rows = (JSON.parse(out.join("\n")) as { resources: Array<{ name: string; hourlyCost: number; spentUsd: number }> }).resources;
    expect(rows.find((r) => r.name === "gpu")).toMatchObject({ hourlyCost: ir.properties.hourlyCost, spentUsd: ir.properties.spentUsd });
    expect(rows.find((r) => r.name === "pool")).toMatchObject({ hourlyCost: fr.properties.hourlyCost, spentUsd: fr.properties.spentUsd });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  // Outputs only: the new spend is no change.
  expect(await fx.plugin.diff(iu, inst.id, ir.properties, ic.inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
  expect(await fx.plugin.diff(fu, pool.id, fr.properties, fc.inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });

  await fx.plugin.delete(iu, inst.id, ir.properties);
  await fx.plugin.delete(fu, pool.id, fr.properties);
});
