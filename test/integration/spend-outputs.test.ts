/**
 * Issue 27 item 5, spend as outputs: `hourlyCost` and `spentUsd` of Instance, Fleet and Volume
 * against the simulator (its clock injected, so that spend grows with simulated time and no test
 * sleeps): the outputs agree with the account's charges and with what the cost report prints for
 * the same resources, a refresh of the whole stack walks the charges once, and a charges read
 * that fails keeps the last value with one warning and fails no read.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../provider/cli/main";
import { getClient, setProviderSettings } from "../../provider/context";
import { providers } from "../../provider/providers";
import { resetClaims } from "../../provider/resources/fleet/claims";
import { setWarningSink } from "../../provider/resources/kit";
import { drive, type Driven } from "./account-resources-support";
import { FAST_INSTANCE_SETTINGS, pointProviders, useSimulator } from "../support/simulator";

type Props = Record<string, unknown>;
interface Made {
  type: string;
  p: Driven;
  id: string;
  inputs: Props;
  outs: Props;
}

const HOUR_MS = 3600_000;
// The simulated clock runs 30 days behind the real one, so every charge lies in a range ending now.
let clock = Date.now() - 30 * 24 * HOUR_MS;
const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS, simulator: { now: () => clock, marketOffers: 3 } });
const instance = drive(providers.instance);
const fleet = drive(providers.fleet);
const volume = drive(providers.volume);

beforeEach(() => resetClaims());
afterEach(() => setWarningSink(undefined));

async function make(type: string, p: Driven, news: Props): Promise<Made> {
  const { inputs, failures } = await p.check({}, { __provider: "p", __identity: `proj/dev/${type}/${String(news.label ?? news.name ?? type)}`, ...news });
  expect(failures ?? []).toEqual([]);
  const { id, outs } = await p.create(inputs as Props);
  return { type, p, id, inputs: inputs as Props, outs: outs as Props };
}

/** Three instances, a volume and a two-member fleet. */
async function stack(): Promise<Made[]> {
  const made: Made[] = [];
  for (let i = 0; i < 3; i++) made.push(await make("Instance", instance, { offerId: 800_001 + i, image: "ubuntu:22.04", label: `web-${i}` }));
  made.push(await make("Volume", volume, { offerId: 900001, sizeGb: 50, name: "data" }));
  made.push(await make("Fleet", fleet, { offer: { numGpus: 1, gpuRamGb: 24 }, image: "pytorch/pytorch", count: 2 }));
  return made;
}

const chargesCalls = async () => (await h.requests()).filter((r) => r.method === "GET" && r.path.replace(/\/$/, "") === "/api/v0/charges").length;

/** What the account's charges say each resource has cost: the sum of its contracts' rows. */
async function chargedTo(made: Made): Promise<number> {
  const charges = await h.client.billing.charges({ start: Math.floor(clock / 1000) - 40 * 24 * 3600 });
  const sum = (source: string) => charges.filter((c) => c.source === source).reduce((s, c) => s + c.amount, 0);
  if (made.type === "Instance") return sum(`instance-${made.id}`);
  if (made.type === "Volume") return sum(`volume-${made.id}`);
  return (made.outs.members as Array<{ id: number }>).reduce((s, m) => s + sum(`instance-${m.id}`), 0);
}

async function refresh(made: Made[]): Promise<Made[]> {
  const reads = await Promise.all(made.map((m) => m.p.read(m.id, m.outs)));
  return made.map((m, i) => ({ ...m, outs: reads[i].props as Props }));
}

test("27.5 spentUsd grows with the simulated time as the charges do, and hourlyCost is what the costs report prints", async () => {
  const made = await stack();
  for (const m of made) {
    expect(m.outs.hourlyCost).toEqual(expect.any(Number));
    expect(m.outs.hourlyCost as number).toBeGreaterThan(0);
    // Just created: nothing charged yet.
    expect(m.outs.spentUsd).toBe(0);
  }
  clock += 2 * HOUR_MS;
  pointProviders(h, h.sim.apiKey, FAST_INSTANCE_SETTINGS); // a new process: nothing cached
  const first = await refresh(made);
  for (const m of first) {
    const charged = await chargedTo(m);
    expect(charged).toBeGreaterThan(0);
    expect(m.outs.spentUsd).toBeCloseTo(charged, 6);
  }
  clock += 3 * HOUR_MS;
  pointProviders(h, h.sim.apiKey, FAST_INSTANCE_SETTINGS);
  const later = await refresh(first);
  for (const [i, m] of later.entries()) {
    expect(m.outs.spentUsd as number).toBeGreaterThan(first[i].outs.spentUsd as number);
    expect(m.outs.spentUsd).toBeCloseTo(await chargedTo(m), 6);
  }

  // The cost report over the same resources prints the same figures.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spend-"));
  try {
    const file = path.join(dir, "dev.json");
    const resources = later.map((m, i) => ({
      urn: `urn:pulumi:dev::proj::pulumi-nodejs:dynamic/vastai:${m.type}::r${i}`, custom: true, type: `pulumi-nodejs:dynamic/vastai:${m.type}`, id: m.id, outputs: m.outs,
    }));
    fs.writeFileSync(file, JSON.stringify({ version: 3, deployment: { manifest: {}, resources } }));
    const out: string[] = [];
    const code = await main(["costs", file, "--json", "--since", String(Math.floor(clock / 1000) - 10 * 24 * 3600)], { out: (t) => out.push(t), err: () => undefined, client: h.client });
    expect(code).toBe(0);
    const rows = (JSON.parse(out.join("\n")) as { resources: Array<{ name: string; hourlyCost: number; spentUsd: number }> }).resources;
    for (const [i, m] of later.entries()) {
      const row = rows.find((r) => r.name === `r${i}`)!;
      expect({ type: m.type, hourlyCost: m.outs.hourlyCost, spentUsd: m.outs.spentUsd }).toEqual({ type: m.type, hourlyCost: row.hourlyCost, spentUsd: row.spentUsd });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

test("27.5 a refresh of the whole stack walks the charges once, however many resources and waves of reads", async () => {
  const made = await stack();
  clock += HOUR_MS;
  pointProviders(h, h.sim.apiKey, FAST_INSTANCE_SETTINGS);
  await getClient().instances.get(1); // load the HTTP stack outside the counted part
  await h.clearRequests();
  // The engine reads a few at a time: a first wave, then the rest.
  const firstWave = await refresh(made.slice(0, 2));
  const rest = await refresh(made.slice(2));
  for (const m of [...firstWave, ...rest]) expect(m.outs.spentUsd as number).toBeGreaterThan(0);
  expect(await chargesCalls()).toBe(1);
  // The diffs compare inputs only: the new spend is no change.
  for (const m of [...firstWave, ...rest]) expect((await m.p.diff(m.id, m.outs, m.inputs)).changes).toBe(false);
}, 60_000);

test("27.5 a charges read that fails keeps each resource's last spentUsd, warns once and fails no read", async () => {
  const made = await stack();
  clock += HOUR_MS;
  pointProviders(h, h.sim.apiKey, FAST_INSTANCE_SETTINGS);
  const known = await refresh(made);
  const warnings: string[] = [];
  setWarningSink((m) => warnings.push(m));
  clock += HOUR_MS;
  pointProviders(h, h.sim.apiKey, FAST_INSTANCE_SETTINGS);
  await h.clearRequests();
  await h.control("POST", "/faults", { method: "GET", path: "/api/v0/charges/", status: 403, body: { success: false, error: "forbidden", msg: "billing_read is required" }, times: 10 });
  const after = await refresh(known);
  expect(after.map((m) => m.outs.spentUsd)).toEqual(known.map((m) => m.outs.spentUsd));
  expect(after.every((m) => typeof m.outs.spentUsd === "number" && (m.outs.spentUsd as number) > 0)).toBe(true);
  // The rest moved on: the live outputs were read.
  expect(after.map((m) => m.id)).toEqual(made.map((m) => m.id));
  expect(warnings.filter((w) => w.includes("spentUsd"))).toHaveLength(1);
  expect(warnings[0]).toMatch(/reading the account's charges for spentUsd failed .*billing_read.*keeps its last value/);
  // One failing walk for the whole refresh, remembered for the process.
  expect(await chargesCalls()).toBe(1);
}, 60_000);

test("27.5 vastai:spendOutputs false reads no charges and keeps spentUsd as state had it", async () => {
  const made = await stack();
  clock += HOUR_MS;
  pointProviders(h, h.sim.apiKey, FAST_INSTANCE_SETTINGS);
  const known = await refresh(made);
  pointProviders(h, h.sim.apiKey, { ...FAST_INSTANCE_SETTINGS, spendOutputs: "false" });
  try {
    clock += HOUR_MS;
    await h.clearRequests();
    const after = await refresh(known);
    expect(await chargesCalls()).toBe(0);
    expect(after.map((m) => m.outs.spentUsd)).toEqual(known.map((m) => m.outs.spentUsd));
  } finally {
    // Settings are merged: the switch is taken off again for the tests after this one.
    setProviderSettings({ spendOutputs: undefined });
  }
}, 60_000);

test("27.5 an Endpoint costs what its workers do: hourlyCost their price now, spentUsd the charges naming it, as the costs report prints", async () => {
  const ep = await make("Endpoint", providers.endpoint as Driven, { name: "llm-spend" });
  expect(ep.outs).toMatchObject({ hourlyCost: 0, spentUsd: 0 });
  const group = await make("WorkerGroup", providers.workerGroup as Driven, { endpointId: ep.id, searchParams: "gpu_ram>=23 num_gpus=1", testWorkers: 2 });
  expect(group.id).toMatch(/^\d+$/);
  clock += 2 * HOUR_MS;
  pointProviders(h, h.sim.apiKey, FAST_INSTANCE_SETTINGS);
  const read = (await ep.p.read(ep.id, ep.outs)).props as Props;

  const workers = (await h.client.workerGroups.workers(Number(group.id))) ?? [];
  expect(workers).toHaveLength(2);
  const live = await h.client.instances.listAll();
  const price = live.filter((i) => workers.includes(i.id)).reduce((s, i) => s + (i.dphTotal ?? 0), 0);
  expect(price).toBeGreaterThan(0);
  expect(read.hourlyCost).toBeCloseTo(price, 6);
  const charges = await h.client.billing.charges({ start: Math.floor(clock / 1000) - 40 * 24 * 3600 });
  const charged = charges.filter((c) => workers.some((w) => c.source === `instance-${w}`));
  expect(charged.every((c) => c.metadata.endpoint_id === Number(ep.id))).toBe(true);
  expect(read.spentUsd as number).toBeGreaterThan(0);
  expect(read.spentUsd).toBeCloseTo(charged.reduce((s, c) => s + c.amount, 0), 6);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spend-ep-"));
  try {
    const file = path.join(dir, "dev.json");
    const resources = [{ urn: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/vastai:Endpoint::ep", custom: true, type: "pulumi-nodejs:dynamic/vastai:Endpoint", id: ep.id, outputs: read }];
    fs.writeFileSync(file, JSON.stringify({ version: 3, deployment: { manifest: {}, resources } }));
    const out: string[] = [];
    expect(await main(["costs", file, "--json"], { out: (t) => out.push(t), err: () => undefined, client: h.client })).toBe(0);
    const [row] = (JSON.parse(out.join("\n")) as { resources: Array<{ hourlyCost: number; spentUsd: number }> }).resources;
    expect(row).toMatchObject({ hourlyCost: read.hourlyCost, spentUsd: read.spentUsd });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
