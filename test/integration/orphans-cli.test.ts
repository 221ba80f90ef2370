/**
 * `pulumi-vastai orphans` against the simulator: which objects it reports (marked by this
 * package, held by no given stack), their cost, JSON for scripts, and that nothing is deleted
 * without --delete (and only the listed orphans with it).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../provider/cli/main";
import { INSTANCE_MARKER_ENV } from "../../provider/cli/orphans";
import { MARKER_ENV } from "../../provider/resources/instance/inputs";
import { serviceName } from "../../provider/resources/volume/impl";
import { SEED } from "../../simulator/seed/seed";
import { useSimulator } from "../support/simulator";

const h = useSimulator();
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "orphans-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Made {
  held: { instance: number; volume: number };
  orphan: { instance: number; volume: number };
  unmarked: { instance: number; volume: number };
}

/** Two marked instances and volumes (one of each to be held by a stack) and one unmarked of each. */
async function makeObjects(): Promise<Made> {
  const client = h.client;
  // A rented offer is taken: each instance rents an offer of its own (700001 is left free).
  let next = 1;
  const rent = async (marker?: string) =>
    (await client.instances.create(SEED.offerIds[next++], { image: "ubuntu:22.04", label: marker ? `m-${marker}` : "by hand", ...(marker ? { env: { [MARKER_ENV]: marker } } : {}) })).id;
  const volume = async (name: string) => {
    const made = await client.volumes.create("local", { offerId: 900001, sizeGb: 10, name });
    const id = made.id ?? (await client.volumes.list("local")).find((v) => v.name === name)?.id;
    if (id === undefined) throw new Error(`volume ${name} not found`);
    return id;
  };
  return {
    held: { instance: await rent("aaaaaaaaaaaaaaaa"), volume: await volume(serviceName("kept", "1111111111111111") as string) },
    orphan: { instance: await rent("bbbbbbbbbbbbbbbb"), volume: await volume(serviceName("lost", "2222222222222222") as string) },
    unmarked: { instance: await rent(), volume: await volume("mine") },
  };
}

function stateFile(name: string, resources: Array<{ type: string; id: number | string; outputs?: Record<string, unknown> }>): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify({ version: 3, deployment: { manifest: {}, resources: resources.map((r) => ({ urn: `urn:pulumi:dev::p::${r.type}::x`, custom: true, ...r })) } }));
  return file;
}

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), client: h.client });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const liveIds = async () => ({
  instances: (await h.client.instances.listAll()).map((i) => i.id).sort(),
  volumes: (await h.client.volumes.list()).map((v) => v.id).sort(),
});

describe("pulumi-vastai orphans", () => {
  it("looks for the marker the Instance provider writes", () => {
    expect(INSTANCE_MARKER_ENV).toBe(MARKER_ENV);
  });

  it("without state lists every marked instance and volume with its cost, and deletes nothing", async () => {
    const made = await makeObjects();
    const before = await liveIds();
    await h.clearRequests();
    const { code, out } = await run(["orphans", "--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(out) as { orphans: Array<{ kind: string; id: number; marker: string; costPerHour: number }>; costPerHour: number; deleted: boolean };
    const listed = report.orphans.map((o) => `${o.kind} ${o.id}`).sort();
    expect(listed).toEqual(
      [`instance ${made.held.instance}`, `instance ${made.orphan.instance}`, `volume ${made.held.volume}`, `volume ${made.orphan.volume}`].sort(),
    );
    expect(report.orphans.find((o) => o.id === made.orphan.instance)?.marker).toBe("bbbbbbbbbbbbbbbb");
    const live = await h.client.instances.get(made.orphan.instance);
    expect(report.orphans.find((o) => o.id === made.orphan.instance)?.costPerHour).toBe(live?.dphTotal);
    expect(report.costPerHour).toBeCloseTo(report.orphans.reduce((s, o) => s + o.costPerHour, 0), 6);
    expect(report.orphans.every((o) => o.costPerHour > 0)).toBe(true);
    expect(report.deleted).toBe(false);
    expect(await liveIds()).toEqual(before);
    expect((await h.requests()).filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("with state files lists only what no stack holds, in a table with the total", async () => {
    const made = await makeObjects();
    const a = stateFile("a.json", [{ type: "pulumi-nodejs:dynamic/vastai:Instance", id: String(made.held.instance) }]);
    const b = stateFile("b.json", [
      { type: "pulumi-nodejs:dynamic/vastai:Volume", id: String(made.held.volume) },
      // Another package's resource with the orphan's id is not a holding.
      { type: "aws:ec2/instance:Instance", id: String(made.orphan.instance) },
    ]);
    const { code, out } = await run(["orphans", a, b]);
    expect(code).toBe(0);
    expect(out).toMatch(/^2 instance\(s\) and volume\(s\) in none of 2 state file\(s\), costing \$\d+\.\d{3}\/h in all:/);
    expect(out).toMatch(new RegExp(`instance +${made.orphan.instance} +m-bbbbbbbbbbbbbbbb +\\S+ +\\$\\d+\\.\\d{3}/h +bbbbbbbbbbbbbbbb`));
    expect(out).toMatch(new RegExp(`volume +${made.orphan.volume} +lost \\[2222222222222222\\]`));
    expect(out).not.toContain(String(made.held.instance));
    expect(out).not.toContain(String(made.unmarked.instance));
    expect(out).toContain("Nothing was deleted; run again with --delete to delete these.");
  });

  it("an instance a Fleet's state lists among its members is held; a second object with a held marker is not", async () => {
    const made = await makeObjects();
    const state = stateFile("fleet.json", [
      { type: "pulumi-nodejs:dynamic/vastai:Fleet", id: "fleet-1", outputs: { members: [{ id: made.orphan.instance, marker: "bbbbbbbbbbbbbbbb" }] } },
      // The held instance's marker in state does not hold another object carrying it.
      { type: "pulumi-nodejs:dynamic/vastai:Instance", id: String(made.unmarked.instance), outputs: { marker: "aaaaaaaaaaaaaaaa" } },
    ]);
    const report = JSON.parse((await run(["orphans", state, "--json"])).out) as { orphans: Array<{ kind: string; id: number }> };
    expect(report.orphans.map((o) => `${o.kind} ${o.id}`).sort()).toEqual(
      [`instance ${made.held.instance}`, `volume ${made.held.volume}`, `volume ${made.orphan.volume}`].sort(),
    );
  });

  it("--delete deletes the orphans listed and nothing else", async () => {
    const made = await makeObjects();
    const state = stateFile("held.json", [
      { type: "pulumi-nodejs:dynamic/vastai:Instance", id: made.held.instance },
      { type: "pulumi-nodejs:dynamic/vastai:NetworkVolume", id: made.held.volume },
    ]);
    const { code, out } = await run(["orphans", state, "--delete"]);
    expect(code).toBe(0);
    expect(out).toContain(`instance ${made.orphan.instance}: deleted`);
    expect(out).toContain(`volume ${made.orphan.volume}: deleted`);
    expect(out).toContain("Deleted 2.");
    const live = await liveIds();
    expect(live.instances).toEqual([made.held.instance, made.unmarked.instance].sort());
    expect(live.volumes).toEqual([made.held.volume, made.unmarked.volume].sort());
    expect((await run(["orphans", state])).out).toMatch(/^No orphans/);
  });

  it("a volume an orphan instance uses goes after the instance, and a failed delete exits 1 naming it", async () => {
    const made = await makeObjects();
    // The orphan volume used by an unmarked instance: the service refuses its delete.
    await h.client.instances.create(SEED.offerIds[0], { image: "ubuntu:22.04", volumeInfo: { createNew: false, volumeId: made.orphan.volume, mountPath: "/data" } });
    const { code, out } = await run(["orphans", "--delete", "--json"]);
    expect(code).toBe(1);
    const report = JSON.parse(out) as { orphans: Array<{ kind: string; id: number; deleted?: string }> };
    expect(report.orphans.find((o) => o.id === made.orphan.instance)?.deleted).toBe("deleted");
    expect(report.orphans.find((o) => o.id === made.orphan.volume)?.deleted).toMatch(/in use|instances? \d+/i);
    expect((await liveIds()).volumes).toContain(made.orphan.volume);
  });

  it("reports a volume made with an orphan instance (it has no name to mark), and not one a Fleet member holds", async () => {
    const client = h.client;
    // Instances on offers 700001 and 700002 with a new volume each from a volume offer on the same
    // machine (900001, 900002), as Fleet members with `volume` are.
    const withVolume = async (marker: string, offerId: number, volumeOfferId: number) =>
      (await client.instances.create(offerId, { image: "ubuntu:22.04", env: { [MARKER_ENV]: marker }, volumeInfo: { createNew: true, volumeId: volumeOfferId, size: 10, mountPath: "/data" } })).id;
    const kept = await withVolume("ffffffffffffffff.aaaaaaaaaaaaaaaa.700001", 700001, 900001);
    const lost = await withVolume("ffffffffffffffff.bbbbbbbbbbbbbbbb.700002", 700002, 900002);
    const volumeOf = async (instanceId: number) => (await client.volumes.list()).find((v) => v.instanceIds.includes(instanceId))!.id;
    const keptVolume = await volumeOf(kept);
    const lostVolume = await volumeOf(lost);
    const state = stateFile("fleet-volumes.json", [
      { type: "pulumi-nodejs:dynamic/vastai:Fleet", id: "ffffffffffffffff", outputs: { members: [{ id: kept, volumeId: keptVolume }] } },
    ]);
    const { code, out } = await run(["orphans", "--json", state]);
    expect(code).toBe(0);
    const report = JSON.parse(out) as { orphans: Array<{ kind: string; id: number; marker: string }> };
    expect(report.orphans.map((o) => `${o.kind} ${o.id} ${o.marker}`).sort()).toEqual(
      [`instance ${lost} ffffffffffffffff.bbbbbbbbbbbbbbbb.700002`, `volume ${lostVolume} ffffffffffffffff.bbbbbbbbbbbbbbbb.700002`].sort(),
    );
    // --delete takes the instance first, then its volume.
    expect((await run(["orphans", "--delete", "--json", state])).code).toBe(0);
    const live = await liveIds();
    expect(live.instances).toEqual([kept]);
    expect(live.volumes).toEqual([keptVolume]);
  });

  it("refuses a state file it cannot read before any request, naming the file and the problem", async () => {
    await h.clearRequests();
    const broken = path.join(dir, "broken.json");
    fs.writeFileSync(broken, "{ not json");
    const notExport = stateFile("plain.json", []);
    fs.writeFileSync(notExport, JSON.stringify({ resources: [] }));
    const missing = path.join(dir, "missing.json");
    const first = await run(["orphans", broken]);
    expect(first.code).toBe(2);
    expect(first.err).toMatch(new RegExp(`^pulumi-vastai: ${broken.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: not JSON .*\\(expected the JSON of \`pulumi stack export\`\\)$`));
    expect((await run(["orphans", notExport])).err).toContain("no `deployment` object");
    expect((await run(["orphans", missing])).err).toContain("cannot be read (ENOENT)");
    expect(first.err).not.toMatch(/\n\s+at /);
    expect(await h.requests()).toEqual([]);
  });

  it("an unknown option is refused with exit code 2", async () => {
    const { code, err } = await run(["orphans", "--dlete"]);
    expect(code).toBe(2);
    expect(err).toMatch(/unknown option '--dlete'/);
  });
});
