/** `pulumi-vastai orphans` against the simulator: marked objects outside the given states, cost per hour, --json, --delete. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../provider/orphans/cli";
import { providers } from "../../provider/providers";
import { resetClaims } from "../../provider/resources/fleet/claims";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";
import { drive } from "./account-resources-support";

type Props = Record<string, unknown>;

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS });
let dir: string;
let savedKey: string | undefined;

beforeEach(() => {
  resetClaims();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "orphans-"));
  savedKey = process.env.VAST_API_KEY;
  process.env.VAST_API_KEY = h.sim.apiKey;
});
afterEach(() => {
  if (savedKey === undefined) delete process.env.VAST_API_KEY;
  else process.env.VAST_API_KEY = savedKey;
});

async function make(kind: "fleet" | "instance" | "volume", name: string, news: Props): Promise<Props> {
  const p = drive(providers[kind]);
  const { inputs, failures } = await p.check({}, { __provider: "p", __identity: `proj/dev/${kind}/${name}`, ...news });
  expect(failures).toEqual([]);
  const made = await p.create(inputs as Props);
  return { id: made.id, ...(made.outs as Props) };
}

function stateFile(name: string, resources: Props[]): string {
  const file = path.join(dir, name);
  const doc = { version: 3, deployment: { resources: resources.map((outputs) => ({ urn: `urn:x::${String(outputs.id)}`, id: outputs.id, outputs })) } };
  fs.writeFileSync(file, JSON.stringify(doc));
  return file;
}

async function run(args: string[]): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const code = await main([...args, "--api-url", h.sim.url], (s) => lines.push(s));
  return { code, text: lines.join("\n") };
}

it("lists marked instances and volumes that no given state holds, with their cost; deletes nothing", async () => {
  const fleet = await make("fleet", "workers", { count: 2, offer: { numGpus: 1, gpuRamGb: 24 }, image: "pytorch/pytorch" });
  const kept = await make("instance", "kept", { offerId: 700008, image: "alpine" });
  const stray = await make("instance", "stray", { offerId: 700011, image: "alpine" });
  const volume = await make("volume", "data", { offerId: 900001, sizeGb: 10, name: "data" });
  const state = stateFile("dev.json", [fleet, kept]);
  const before = h.sim.state().instances.length;

  const { code, text } = await run(["orphans", state, "--json"]);
  expect(code).toBe(0);
  const report = JSON.parse(text) as { orphans: Props[]; costPerHour: number; deleted: boolean };
  expect(report.orphans.map((o) => [o.kind, o.id])).toEqual([["instance", stray.instanceId], ["volume", volume.volumeId]]);
  expect(report.orphans[0].costPerHour).toBeGreaterThan(2);
  expect(report.deleted).toBe(false);
  expect(h.sim.state().instances.length).toBe(before);

  // Without state every marked object is listed: 2 members, 2 instances, 1 volume.
  const all = await run(["orphans"]);
  expect(all.text).toMatch(/^5 orphan\(s\), [\d.]+ \$\/hour in all\. Nothing was deleted \(run with --delete to delete them\)\.$/m);
});

it("--delete deletes only the orphans", async () => {
  const kept = await make("instance", "kept", { offerId: 700008, image: "alpine" });
  const stray = await make("instance", "stray", { offerId: 700011, image: "alpine" });
  const { code, text } = await run(["orphans", stateFile("dev.json", [kept]), "--delete"]);
  expect(code).toBe(0);
  expect(text).toMatch(new RegExp(`^instance +${String(stray.instanceId)} .*\\n1 orphan\\(s\\), [\\d.]+ \\$/hour in all\\. Deleted\\.$`));
  expect(h.sim.state().instances.map((i: Props) => i.id)).toEqual([kept.instanceId]);
});

it("refuses a file that is not a stack export, and an unknown command, with exit status 2", async () => {
  const bad = path.join(dir, "bad.json");
  fs.writeFileSync(bad, "{}");
  expect(await run(["orphans", bad])).toEqual({ code: 2, text: `${bad}: no deployment.resources; give files written by \`pulumi stack export\`` });
  expect((await run(["orphan"])).code).toBe(2);
  expect((await run(["orphans", "--jsn"])).code).toBe(2);
});
