/**
 * Issue 33 item 5, what a stopped instance costs, through Pulumi's own dynamic-provider plugin:
 * an interruptible instance that is outbid stops, and the service bills its disk while it is
 * stopped (GPU nothing). Its `hourlyCost` is that disk's $/hour (`disk_space` GB x the storage
 * price per GB per month / 720), `spentUsd` is what the charges give (disk only while stopped),
 * and `npx pulumi-vastai costs` prints the same figures.
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
// The simulated clock runs 30 days behind the real one and jumps hours (no walk of the charges serves a later read: TTL 0).
let clock = Date.now() - 30 * 24 * HOUR_MS;
const fx = useContract("instance", { simulator: { bootMs: 0, now: () => clock }, config: { "vastai:pollIntervalMs": "5", "vastai:spendCacheTtlMs": "0" } });

test("33.5 an outbid (stopped) instance costs its disk: hourlyCost, spentUsd and the costs report agree with the charges", async () => {
  const u = dynamicUrn("dev", "proj", "Instance", "spot");
  const checked = await fx.plugin.check(u, {}, { __provider: fx.serialized.instance, offerId: 700001, image: "pytorch/pytorch", diskGb: 40, bidPricePerHour: 0.5, onOutbid: "keep" });
  expect(checked.failures).toEqual([]);
  const made = await fx.plugin.create(u, checked.inputs);
  expect(made.properties).toMatchObject({ isBid: true, outbid: false, actualStatus: "running", pricePerHour: 0.5 });

  // Outbid: the service stops it and keeps it; ten hours pass.
  await fx.control("POST", "/machines/30001/market", { price: 0.6 });
  clock += 10 * HOUR_MS;
  const read = await fx.plugin.read(u, made.id, made.properties, checked.inputs);
  expect(read.properties).toMatchObject({ outbid: true, actualStatus: "stopped" });

  const diskPerHour = (0.15 * 40) / 720; // the simulator's storage price, $ per GB per month, over a 30-day month
  expect(read.properties.hourlyCost).toBe(Math.round(diskPerHour * 1e6) / 1e6);

  // The charges bill the disk for the ten hours and no GPU time: spentUsd is what they give.
  const client = createClient({ apiKey: fx.sim.apiKey, apiUrl: fx.sim.url, pacing: false });
  const charges = (await client.billing.charges({ start: Math.floor(clock / 1000) - 40 * 24 * 3600 })).filter((c) => c.source === `instance-${made.id}`);
  const charged = charges.reduce((s, c) => s + c.amount, 0);
  expect(charged).toBeCloseTo(Math.round(10 * diskPerHour * 1000) / 1000, 6);
  expect(read.properties.spentUsd).toBeCloseTo(charged, 6);

  // The cost report prints the same figures.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stopped-cost-"));
  try {
    const file = path.join(dir, "dev.json");
    const resources = [{ urn: u, custom: true, type: "pulumi-nodejs:dynamic/vastai:Instance", id: made.id, outputs: read.properties }];
    fs.writeFileSync(file, JSON.stringify({ version: 3, deployment: { manifest: {}, resources } }));
    const out: string[] = [];
    expect(await main(["costs", file, "--json"], { out: (t) => out.push(t), err: () => undefined, client })).toBe(0);
    const rows = (JSON.parse(out.join("\n")) as { resources: Array<{ name: string; hourlyCost: number; spentUsd: number }> }).resources;
    expect(rows.find((r) => r.name === "spot")).toMatchObject({ hourlyCost: read.properties.hourlyCost, spentUsd: read.properties.spentUsd });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  await fx.plugin.delete(u, made.id, read.properties);
});
