/**
 * `pulumi-vastai orphans` against the simulator: which objects it reports (those of the given
 * stacks that none of them holds, and unattributable ones of an earlier release), their cost,
 * JSON for scripts, and that it deletes only the given stacks' orphans, only with --delete and
 * a confirmation (issue 23 item 4).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main, type CliIo } from "../../provider/cli/main";
import { INSTANCE_MARKER_ENV, stackTagOfMarker } from "../../provider/cli/orphans";
import { GENERATION_KEY, IDENTITY_KEY, identityMarker, stackIdentityOf, stackTagOf } from "../../provider/resources/kit/create-once";
import { MARKER_ENV } from "../../provider/resources/instance/inputs";
import { serviceName } from "../../provider/resources/volume/impl";
import { planOf as jobPlanOf } from "../../provider/resources/scheduledJob/plan";
import { SEED } from "../../simulator/seed/seed";
import { useSimulator } from "../support/simulator";

/**
 * The simulator's clock runs an hour behind this machine's: objects are made an hour before an
 * export written now (as a stack's objects are older than its last checkpoint). A test may set
 * another lag to make objects at a chosen time before or after an export.
 */
const HOUR = 3_600_000;
let simLagMs = HOUR;
const simNow = () => Date.now() - simLagMs;
const h = useSimulator({ simulator: { now: simNow } });
let dir: string;
beforeEach(() => {
  simLagMs = HOUR;
});

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "orphans-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Two stacks' nonces, as their StackIdentity resources hold them. */
const NONCE = { a: "0123456789abcdef0123456789abcdef", b: "fedcba9876543210fedcba9876543210" };
/** The marker the providers write for resource `name` of stack `stack`. */
const markerOf = (stack: keyof typeof NONCE, type: string, name: string) =>
  identityMarker({ [IDENTITY_KEY]: stackIdentityOf(NONCE[stack], type, name), [GENERATION_KEY]: 1 }) as string;
const LEGACY = "1111111111111111";

interface Pair {
  instance: number;
  volume: number;
}
interface Made {
  /** Stack a's objects, one pair held by its state, one not. */
  held: Pair;
  orphan: Pair;
  /** Stack b's objects (its state is not given unless a test says so). */
  other: Pair;
  /** Objects with a marker of an earlier release (16 hex digits of names only). */
  legacy: Pair;
  unmarked: Pair;
}

// A rented offer is taken: each instance rents an offer of its own (700001 is left free).
let nextOffer = 1;
async function rent(marker?: string): Promise<number> {
  const label = marker ? `m-${marker}` : "by hand";
  return (await h.client.instances.create(SEED.offerIds[nextOffer++], { image: "ubuntu:22.04", label, ...(marker ? { env: { [MARKER_ENV]: marker } } : {}) })).id;
}

async function volume(name: string): Promise<number> {
  const made = await h.client.volumes.create("local", { offerId: 900001, sizeGb: 10, name });
  const id = made.id ?? (await h.client.volumes.list("local")).find((v) => v.name === name)?.id;
  if (id === undefined) throw new Error(`volume ${name} not found`);
  return id;
}

async function makeObjects(): Promise<Made> {
  nextOffer = 1;
  const pair = async (marker: string | undefined, name: string) => ({
    instance: await rent(marker),
    volume: await volume(marker ? (serviceName(name, marker) as string) : name),
  });
  return {
    held: await pair(markerOf("a", "Instance", "kept"), "kept"),
    orphan: await pair(markerOf("a", "Instance", "lost"), "lost"),
    other: await pair(markerOf("b", "Instance", "lost"), "lost"),
    legacy: await pair(LEGACY, "old"),
    unmarked: await pair(undefined, "mine"),
  };
}

type StateResource = { type: string; id?: number | string; urn?: string; outputs?: Record<string, unknown> };
const identityOf = (stack: keyof typeof NONCE): StateResource => ({ type: "pulumi-nodejs:dynamic/vastai:StackIdentity", id: stackTagOf(NONCE[stack]), outputs: { nonce: NONCE[stack] } });

interface ExportOptions {
  /** The checkpoint's time (`deployment.manifest.time`); default now, an hour after the objects are made. */
  time?: string | null;
  /** The stack the export is of: its `pulumi:pulumi:Stack` resource (`<project>/<stack>`); none by default. */
  ownStack?: string;
  /** Outputs added to its StackIdentity's. */
  identity?: Record<string, unknown>;
  /** `deployment.pending_operations` (the Pulumi CLI writes it only when there are some). */
  pending?: unknown;
}

function stateFile(name: string, resources: StateResource[], stack: keyof typeof NONCE | null = "a", options: ExportOptions = {}): string {
  const file = path.join(dir, name);
  const identity = stack ? [{ ...identityOf(stack), outputs: { ...identityOf(stack).outputs, ...options.identity } }] : [];
  const own: StateResource[] = options.ownStack
    ? [{ type: "pulumi:pulumi:Stack", urn: `urn:pulumi:${options.ownStack.split("/")[1]}::${options.ownStack.split("/")[0]}::pulumi:pulumi:Stack::${options.ownStack.replace("/", "-")}` }]
    : [];
  const all = [...own, ...identity, ...resources];
  const time = options.time === undefined ? new Date().toISOString() : options.time;
  const manifest = time === null ? {} : { time, magic: "m", version: "v3.248.0" };
  const resourcesOut = all.map((r) => ({ urn: `urn:pulumi:dev::p::${r.type}::x`, custom: true, ...r }));
  fs.writeFileSync(file, JSON.stringify({ version: 3, deployment: { manifest, resources: resourcesOut, ...(options.pending === undefined ? {} : { pending_operations: options.pending }) } }));
  return file;
}

/** A Pulumi secret as `pulumi stack export` writes it: encrypted, or with --show-secrets in plain. */
const SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const encrypted = (): Record<string, unknown> => ({ ...SIG, ciphertext: "v1:Zm9vYmFy:ZW5jcnlwdGVk" });
const plainSecret = (value: unknown): Record<string, unknown> => ({ ...SIG, plaintext: JSON.stringify(value) });

const heldBy = (made: Made) =>
  stateFile("a.json", [
    { type: "pulumi-nodejs:dynamic/vastai:Instance", id: String(made.held.instance) },
    { type: "pulumi-nodejs:dynamic/vastai:Volume", id: made.held.volume },
  ]);

async function run(args: string[], extra: Partial<CliIo> = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), client: h.client, sleep: async () => {}, ...extra });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const liveIds = async () => ({
  instances: (await h.client.instances.listAll()).map((i) => i.id).sort((x, y) => x - y),
  volumes: (await h.client.volumes.list()).map((v) => v.id).sort((x, y) => x - y),
});
const sorted = (ids: number[]) => [...ids].sort((x, y) => x - y);

interface JsonReport {
  orphans: Array<{ kind: string; id: number; marker: string; stack: string | null; attribution: string; costPerHour: number; deleted?: string; seenGone?: boolean; why?: string }>;
  otherStacks: number;
  costPerHour: number;
  deleted: boolean;
}

describe("pulumi-vastai orphans", () => {
  it("looks for the marker the Instance provider writes, and reads a marker's stack tag", () => {
    expect(INSTANCE_MARKER_ENV).toBe(MARKER_ENV);
    const tag = stackTagOf(NONCE.a);
    expect(stackTagOfMarker(markerOf("a", "Instance", "x"))).toBe(tag);
    expect(stackTagOfMarker(`${tag}abcdefghijk.${markerOf("a", "Fleet", "f")}.700001`)).toBe(tag);
    // A fleet of an earlier release updated by this one: the operation marker names the stack.
    expect(stackTagOfMarker(`${LEGACY}.${markerOf("a", "Fleet", "f")}.700001`)).toBe(tag);
    expect(stackTagOfMarker(`${LEGACY}.${LEGACY}.700001`)).toBeUndefined();
    expect(stackTagOfMarker(LEGACY)).toBeUndefined();
  });

  it("without state lists every marked instance and volume with its stack and cost, and deletes nothing", async () => {
    const made = await makeObjects();
    const before = await liveIds();
    await h.clearRequests();
    const { code, out } = await run(["orphans", "--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(out) as JsonReport;
    const marked = [made.held, made.orphan, made.other, made.legacy];
    expect(report.orphans.map((o) => `${o.kind} ${o.id}`).sort()).toEqual(marked.flatMap((p) => [`instance ${p.instance}`, `volume ${p.volume}`]).sort());
    expect(report.orphans.every((o) => o.attribution === "unscoped")).toBe(true);
    expect(report.orphans.find((o) => o.id === made.other.instance)).toMatchObject({ marker: markerOf("b", "Instance", "lost"), stack: stackTagOf(NONCE.b) });
    expect(report.orphans.find((o) => o.id === made.legacy.instance)).toMatchObject({ marker: LEGACY, stack: null });
    const live = await h.client.instances.get(made.orphan.instance);
    expect(report.orphans.find((o) => o.id === made.orphan.instance)?.costPerHour).toBe(live?.dphTotal);
    expect(report.costPerHour).toBeCloseTo(report.orphans.reduce((s, o) => s + o.costPerHour, 0), 6);
    expect(report.orphans.every((o) => o.costPerHour > 0)).toBe(true);
    expect(report.deleted).toBe(false);
    expect(await liveIds()).toEqual(before);
    expect((await h.requests()).filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("23.4 with a stack's state lists only its unheld objects and the unattributable ones; another stack's are left out", async () => {
    const made = await makeObjects();
    const b = stateFile("other-package.json", [
      // Another package's resource with the orphan's id is not a holding.
      { type: "aws:ec2/instance:Instance", id: String(made.orphan.instance) },
    ], null);
    const { code, out } = await run(["orphans", heldBy(made), b]);
    expect(code).toBe(0);
    expect(out).toContain(`(stack ${stackTagOf(NONCE.a)}; checkpoint `);
    expect(out).toContain("other-package.json (no stack identity");
    expect(out).toMatch(/^2 orphan\(s\) of the given stacks, in none of 2 state file\(s\), costing \$\d+\.\d{3}\/h in all:/m);
    const marker = markerOf("a", "Instance", "lost");
    expect(out).toMatch(new RegExp(`instance +${made.orphan.instance} +m-${marker} +\\S+ +\\$\\d+\\.\\d{3}/h +${stackTagOf(NONCE.a)} +${marker}`));
    expect(out).toMatch(new RegExp(`^2 object\\(s\\) marked by an earlier release that no given stack holds`, "m"));
    expect(out).toMatch(new RegExp(`volume +${made.legacy.volume} +old \\[${LEGACY}\\] .*\\(earlier release\\) +${LEGACY}`));
    expect(out).toContain("2 marked object(s) of stacks not given were left out");
    for (const id of [made.held.instance, made.other.instance, made.other.volume, made.unmarked.instance]) expect(out).not.toMatch(new RegExp(`\\b${id}\\b`));
    expect(out).toContain("Nothing was deleted; run again with --delete --yes");
  });

  it("an instance a Fleet's state lists among its members is held; a second object with a held marker is not", async () => {
    const made = await makeObjects();
    const state = stateFile("fleet.json", [
      { type: "pulumi-nodejs:dynamic/vastai:Fleet", id: "fleet-1", outputs: { members: [{ id: made.orphan.instance }] } },
      // The held instance's marker in state does not hold another object carrying it.
      { type: "pulumi-nodejs:dynamic/vastai:Instance", id: String(made.unmarked.instance), outputs: { marker: markerOf("a", "Instance", "kept") } },
    ]);
    const report = JSON.parse((await run(["orphans", state, "--json"])).out) as JsonReport;
    expect(report.orphans.filter((o) => o.attribution === "orphan").map((o) => `${o.kind} ${o.id}`).sort()).toEqual(
      [`instance ${made.held.instance}`, `volume ${made.held.volume}`, `volume ${made.orphan.volume}`].sort(),
    );
    expect(report.otherStacks).toBe(2);
  });

  it("23.4 --delete --yes deletes the given stack's orphans and nothing else: not another stack's, not an unattributable one", async () => {
    const made = await makeObjects();
    const { code, out } = await run(["orphans", heldBy(made), "--delete", "--yes"]);
    expect(code).toBe(0);
    expect(out).toContain(`instance ${made.orphan.instance}: deleted`);
    expect(out).toContain(`volume ${made.orphan.volume}: deleted`);
    expect(out).toContain("Deleted 2.");
    const keep = [made.held, made.other, made.legacy, made.unmarked];
    expect(await liveIds()).toEqual({ instances: sorted(keep.map((p) => p.instance)), volumes: sorted(keep.map((p) => p.volume)) });
    // Stack b's own report still sees its objects as its orphans.
    const b = stateFile("b.json", [], "b");
    const report = JSON.parse((await run(["orphans", b, "--json"])).out) as JsonReport;
    expect(sorted(report.orphans.filter((o) => o.attribution === "orphan").map((o) => o.id))).toEqual(sorted([made.other.instance, made.other.volume]));
  });

  it("23.4 --delete without a state file, or with only stacks of an earlier release, is refused before any request", async () => {
    await makeObjects();
    const before = await liveIds();
    await h.clearRequests();
    const bare = await run(["orphans", "--delete", "--yes"]);
    expect(bare.code).toBe(2);
    expect(bare.err).toMatch(/^pulumi-vastai orphans: --delete needs the state of the stacks whose orphans to delete .*Nothing was deleted\.$/);
    const legacy = await run(["orphans", stateFile("legacy.json", [], null), "--delete", "--yes"]);
    expect(legacy.code).toBe(2);
    expect(legacy.err).toContain("none of the given state files holds a stack identity");
    expect(await h.requests()).toEqual([]);
    expect(await liveIds()).toEqual(before);
  });

  it("23.4 --delete lists what it would delete and asks: without --yes and no terminal it refuses; 'no' keeps all; 'yes' deletes", async () => {
    const made = await makeObjects();
    const state = heldBy(made);
    const before = await liveIds();
    const refused = await run(["orphans", state, "--delete"], { confirm: undefined });
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(new RegExp(`instance +${made.orphan.instance} `));
    expect(refused.err).toContain("confirm with --yes to delete the 2 orphan(s) listed (no terminal to ask)");
    expect(await liveIds()).toEqual(before);

    // JSON is for scripts: never a prompt inside it, --yes or nothing.
    const scripted = await run(["orphans", state, "--delete", "--json"], { confirm: async () => true });
    expect(scripted.code).toBe(2);
    expect(scripted.err).toContain("confirm with --yes");
    expect(await liveIds()).toEqual(before);

    const questions: string[] = [];
    const declined = await run(["orphans", state, "--delete"], { confirm: async (q) => (questions.push(q), false) });
    expect(declined.code).toBe(2);
    expect(questions).toEqual(["Delete these 2? [y/N] "]);
    expect(declined.out).toContain("will be deleted");
    expect(await liveIds()).toEqual(before);

    const accepted = await run(["orphans", state, "--delete"], { confirm: async () => true });
    expect(accepted.code).toBe(0);
    expect(accepted.out).toContain("Deleted 2.");
    expect((await liveIds()).instances).not.toContain(made.orphan.instance);
  });

  it("a volume an orphan instance uses goes after the instance, and a failed delete exits 1 naming it", async () => {
    const made = await makeObjects();
    // The orphan volume used by an unmarked instance: the service refuses its delete.
    await h.client.instances.create(SEED.offerIds[0], { image: "ubuntu:22.04", volumeInfo: { createNew: false, volumeId: made.orphan.volume, mountPath: "/data" } });
    const { code, out } = await run(["orphans", heldBy(made), "--delete", "--yes", "--json"]);
    expect(code).toBe(1);
    const report = JSON.parse(out) as JsonReport;
    expect(report.orphans.find((o) => o.id === made.orphan.instance)?.deleted).toBe("deleted");
    expect(report.orphans.find((o) => o.id === made.orphan.volume)?.deleted).toMatch(/in use|instances? \d+/i);
    expect(report.orphans.find((o) => o.id === made.legacy.volume)?.deleted).toBeUndefined();
    expect((await liveIds()).volumes).toContain(made.orphan.volume);
  });

  it("reports a volume made with an orphan Fleet member (it has no name to mark), and not one a Fleet member holds", async () => {
    const client = h.client;
    // Instances on offers 700001 and 700002 with a new volume each from a volume offer on the same
    // machine (900001, 900002), as Fleet members with `volume` are.
    const withVolume = async (marker: string, offerId: number, volumeOfferId: number) =>
      (await client.instances.create(offerId, { image: "ubuntu:22.04", env: { [MARKER_ENV]: marker }, volumeInfo: { createNew: true, volumeId: volumeOfferId, size: 10, mountPath: "/data" } })).id;
    const fleetKey = `${stackTagOf(NONCE.a)}fleetkey123`;
    const keptMarker = `${fleetKey}.${markerOf("a", "Fleet", "f")}.700001`;
    const lostMarker = `${fleetKey}.${markerOf("a", "Fleet", "g")}.700002`;
    const kept = await withVolume(keptMarker, 700001, 900001);
    const lost = await withVolume(lostMarker, 700002, 900002);
    const volumeOf = async (instanceId: number) => (await client.volumes.list()).find((v) => v.instanceIds.includes(instanceId))!.id;
    const keptVolume = await volumeOf(kept);
    const lostVolume = await volumeOf(lost);
    const state = stateFile("fleet-volumes.json", [
      { type: "pulumi-nodejs:dynamic/vastai:Fleet", id: fleetKey, outputs: { members: [{ id: kept, volumeId: keptVolume }] } },
    ]);
    const { code, out } = await run(["orphans", "--json", state]);
    expect(code).toBe(0);
    const report = JSON.parse(out) as JsonReport;
    expect(report.orphans.map((o) => `${o.kind} ${o.id} ${o.marker} ${o.attribution}`).sort()).toEqual(
      [`instance ${lost} ${lostMarker} orphan`, `volume ${lostVolume} ${lostMarker} orphan`].sort(),
    );
    // --delete takes the instance first, then its volume.
    expect((await run(["orphans", "--delete", "--yes", "--json", state])).code).toBe(0);
    const live = await liveIds();
    expect(live.instances).toEqual([kept]);
    expect(live.volumes).toEqual([keptVolume]);
  });

  it("23.4 refuses a state file it cannot read or whose format it does not know, before any request, in one line", async () => {
    await h.clearRequests();
    const write = (name: string, content: unknown) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
      return file;
    };
    const cases: Array<[string, string]> = [
      [write("broken.json", "{ not json"), "not JSON"],
      [write("plain.json", { resources: [] }), "format version missing is not one this release reads (version 3)"],
      [write("empty-deployment.json", { version: 3, deployment: {} }), "`deployment.resources` is missing"],
      [write("null-resources.json", { version: 3, deployment: { resources: null } }), "`deployment.resources` is not a list"],
      [write("version-4.json", { version: 4, deployment: { resources: [] } }), "format version 4 is not one this release reads"],
      [write("no-deployment.json", { version: 3 }), "no `deployment` object"],
      [write("bad-identity.json", { version: 3, deployment: { resources: [{ type: "pulumi-nodejs:dynamic/vastai:StackIdentity", outputs: {} }] } }), "its StackIdentity has no readable `outputs.nonce`"],
      [path.join(dir, "missing.json"), "cannot be read (ENOENT)"],
    ];
    for (const [file, problem] of cases) {
      for (const args of [["orphans", file], ["orphans", file, "--delete", "--yes"]]) {
        const { code, err } = await run(args);
        expect({ file, code }).toEqual({ file, code: 2 });
        expect(err).toContain(`pulumi-vastai: ${file}: ${problem}`);
        expect(err).toContain("(expected the JSON of `pulumi stack export`)");
        expect(err.split("\n")).toHaveLength(1);
      }
    }
    expect(await h.requests()).toEqual([]);
  });

  it("an unknown option is refused with exit code 2", async () => {
    const { code, err } = await run(["orphans", "--dlete"]);
    expect(code).toBe(2);
    expect(err).toMatch(/unknown option '--dlete'/);
  });

  describe("issue 27: scheduled jobs, clusters and overlays", () => {
    /** A nightly reboot of `instanceId`, as a ScheduledJob sends it; the same settings for every instance. */
    const job = async (instanceId: number) =>
      (await h.client.scheduledJobs.create(jobPlanOf({ instanceId, action: "reboot", frequency: "DAILY", hour: 3, timeZone: "UTC", end: "2099-01-01T00:00:00Z" }, "2026-01-01T00:00:00Z"))).job.id;
    const liveJobs = async () => sorted((await h.client.scheduledJobs.list()).map((j) => j.id));

    it("27.3 a job on an orphan instance of the given stack is listed with it and cancelled once the instance is gone; jobs on a held, another stack's or an unmarked instance are left alone", async () => {
      const made = await makeObjects();
      const onOrphan = await job(made.orphan.instance);
      const onHeld = await job(made.held.instance);
      const onOther = await job(made.other.instance);
      const onUnmarked = await job(made.unmarked.instance);
      const onLegacy = await job(made.legacy.instance);
      // A second job on the orphan instance that a ScheduledJob of the stack holds.
      const held = await h.client.scheduledJobs.create(jobPlanOf({ instanceId: made.orphan.instance, action: "reboot", frequency: "DAILY", hour: 5, timeZone: "UTC", end: "2099-01-01T00:00:00Z" }, "2026-01-01T00:00:00Z"));
      const state = stateFile("jobs.json", [
        { type: "pulumi-nodejs:dynamic/vastai:Instance", id: String(made.held.instance) },
        { type: "pulumi-nodejs:dynamic/vastai:Volume", id: made.held.volume },
        { type: "pulumi-nodejs:dynamic/vastai:ScheduledJob", id: String(held.job.id) },
      ]);
      const report = JSON.parse((await run(["orphans", state, "--json"])).out) as JsonReport;
      const marker = markerOf("a", "Instance", "lost");
      expect(report.orphans.filter((o) => o.attribution === "orphan").map((o) => `${o.kind} ${o.id}`).sort()).toEqual(
        [`instance ${made.orphan.instance}`, `volume ${made.orphan.volume}`, `scheduledJob ${onOrphan}`].sort(),
      );
      expect(report.orphans.find((o) => o.kind === "scheduledJob" && o.attribution === "orphan")).toMatchObject({ marker, stack: stackTagOf(NONCE.a), costPerHour: 0 });
      // The legacy instance's job is unattributable with it: listed, never deleted.
      expect(report.orphans.find((o) => o.kind === "scheduledJob" && o.id === onLegacy)).toMatchObject({ attribution: "unattributable" });
      for (const id of [onHeld, onOther, onUnmarked, held.job.id]) expect(report.orphans.some((o) => o.kind === "scheduledJob" && o.id === id)).toBe(false);

      const { code, out } = await run(["orphans", state, "--delete", "--yes"]);
      expect(code).toBe(0);
      // The job goes once its instance is seen gone (nothing gives a job's own age).
      expect(out.indexOf(`instance ${made.orphan.instance}: deleted`)).toBeGreaterThan(-1);
      expect(out.indexOf(`scheduledJob ${onOrphan}: deleted`)).toBeGreaterThan(out.indexOf(`instance ${made.orphan.instance}: deleted`));
      expect(out).toContain("Deleted 3.");
      expect(await liveJobs()).toEqual(sorted([onHeld, onOther, onUnmarked, onLegacy, held.job.id]));

      // Stack b's report sees the job on its instance (equal settings) as its own orphan.
      const b = JSON.parse((await run(["orphans", stateFile("b-jobs.json", [], "b"), "--json"])).out) as JsonReport;
      expect(b.orphans.filter((o) => o.kind === "scheduledJob" && o.attribution === "orphan").map((o) => o.id)).toEqual([onOther]);
    });

    it("27.2 clusters and overlays carry no marker: never listed and never deleted, an equal one of another stack neither", async () => {
      const made = await makeObjects();
      const [a, b] = [SEED.hostedMachineIds[5], SEED.hostedMachineIds[6]];
      await h.client.clusters.create("10.61.0.0/24", a);
      await h.client.clusters.create("10.62.0.0/24", b);
      const clusters = await h.client.clusters.list();
      for (const c of clusters) await h.client.clusters.createOverlay(c.id, `net-${c.managerId}`);
      // The orphan instance of stack a joined to an overlay of the market cluster its machine is in
      // (an instance joins only an overlay of its own machine's cluster).
      const machine = (await h.client.instances.get(made.orphan.instance))!.machineId;
      const site = SEED.marketClusters.find((c) => c.machineIds.includes(machine as number))!;
      await h.client.clusters.createOverlay(site.id, "net-site");
      await h.client.clusters.joinOverlay("net-site", made.orphan.instance);
      const overlaysBefore = sorted((await h.client.clusters.overlays()).map((o) => o.id));
      const clustersBefore = sorted(clusters.map((c) => c.id));

      const state = heldBy(made);
      const report = JSON.parse((await run(["orphans", state, "--json"])).out) as JsonReport;
      expect(report.orphans.map((o) => o.kind).filter((k) => k !== "instance" && k !== "volume")).toEqual([]);
      expect((await run(["orphans", state, "--delete", "--yes"])).code).toBe(0);
      expect((await run(["orphans", stateFile("b-net.json", [], "b"), "--delete", "--yes"])).code).toBe(0);
      expect(sorted((await h.client.clusters.list()).map((c) => c.id))).toEqual(clustersBefore);
      expect(sorted((await h.client.clusters.overlays()).map((o) => o.id))).toEqual(overlaysBefore);
      expect((await liveIds()).instances).not.toContain(made.orphan.instance);
    });
  });

  describe("issue 33: nothing it cannot prove is the stack's orphan", () => {
    const FLEET = "pulumi-nodejs:dynamic/vastai:Fleet";
    const deletes = async () => (await h.requests()).filter((r) => r.method === "DELETE");

    it("33.1 an object created after the export's checkpoint, or within the clock margin before it, is never its orphan", async () => {
      const made = await makeObjects();
      const createdMs = (await h.client.instances.get(made.orphan.instance))!.startDate! * 1000;
      const at = (offsetMin: number) => new Date(createdMs + offsetMin * 60_000).toISOString();
      // Yesterday's export (before the objects were made), and one written 5 minutes after them (within the margin).
      for (const [name, time] of [["old.json", new Date(Date.now() - 24 * HOUR).toISOString()], ["margin.json", at(5)]] as const) {
        const state = stateFile(name, [], "a", { time });
        await h.clearRequests();
        const { code, out } = await run(["orphans", state, "--delete", "--yes"]);
        expect({ name, code }).toEqual({ name, code: 0 });
        expect(await deletes()).toEqual([]);
        expect(out).toMatch(/^4 object\(s\) of the given stacks that no given export holds but that were created after its checkpoint, or less than 10 min before it/m);
        expect(out).toContain("Nothing to delete.");
        expect(out).not.toMatch(/Deleted \d/);
        const report = JSON.parse((await run(["orphans", state, "--json"])).out) as JsonReport;
        expect(report.orphans.filter((o) => o.stack === stackTagOf(NONCE.a)).map((o) => o.attribution)).toEqual(["newer", "newer", "newer", "newer"]);
      }
      // Written 15 minutes after them: the unheld ones are orphans, the held ones stay.
      const later = stateFile("later.json", [
        { type: "pulumi-nodejs:dynamic/vastai:Instance", id: String(made.held.instance) },
        { type: "pulumi-nodejs:dynamic/vastai:Volume", id: made.held.volume },
      ], "a", { time: at(15) });
      const { code, out } = await run(["orphans", later, "--delete", "--yes"]);
      expect(code).toBe(0);
      expect(out).toContain("Deleted 2.");
      expect((await liveIds()).instances).toContain(made.held.instance);
      expect((await liveIds()).instances).not.toContain(made.orphan.instance);
    });

    it("33.1 an export taken before the stack's last up: the instance that up made is kept, the older orphan goes", async () => {
      const made = await makeObjects();
      const exportTime = new Date(simNow() + 30 * 60_000).toISOString();
      // The next `up`, 40 minutes after the objects, makes an instance the old export does not hold.
      simLagMs = HOUR - 40 * 60_000;
      const newer = await rent(markerOf("a", "Instance", "added-later"));
      const state = stateFile("yesterday.json", [
        { type: "pulumi-nodejs:dynamic/vastai:Instance", id: String(made.held.instance) },
        { type: "pulumi-nodejs:dynamic/vastai:Volume", id: made.held.volume },
      ], "a", { time: exportTime });
      const { code, out } = await run(["orphans", state, "--delete", "--yes"]);
      expect(code).toBe(0);
      expect(out).toMatch(new RegExp(`^instance +${newer} `, "m"));
      expect(out).toContain("Deleted 2.");
      const live = await liveIds();
      expect(live.instances).toContain(newer);
      expect(live.instances).not.toContain(made.orphan.instance);
    });

    it("33.1 an object whose creation time the service does not give is listed apart and never deleted", async () => {
      const made = await makeObjects();
      // The service's page of instances without start_date for the orphan.
      const page = (await (await fetch(`${h.sim.url}/api/v1/instances/?limit=25`, { headers: { authorization: `Bearer ${h.sim.apiKey}` } })).json()) as { instances: Array<Record<string, unknown>> };
      for (const i of page.instances) if (i.id === made.orphan.instance) delete i.start_date;
      await h.fault({ method: "GET", path: "/api/v1/instances/", status: 200, body: page, times: 100 });
      const state = heldBy(made);
      await h.clearRequests();
      const { code, out } = await run(["orphans", state, "--delete", "--yes"]);
      expect(code).toBe(0);
      expect(out).toMatch(/^1 object\(s\) of the given stacks that no given export holds but whose creation time the service does not give: they cannot be proved older than the export, so they are never deleted/m);
      expect(out).toMatch(new RegExp(`^instance +${made.orphan.instance} .*\\(not given\\)$`, "m"));
      expect((await deletes()).map((r) => r.path)).toEqual([`/api/v0/volumes/`]);
      expect((await liveIds()).instances).toContain(made.orphan.instance);
    });

    it("33.1 a field it relies on that is encrypted or unreadable refuses, naming the file, the resource and the field, before any request", async () => {
      const made = await makeObjects();
      const fleet = (outputs: Record<string, unknown>): StateResource => ({ type: FLEET, id: "fleet-1", urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/vastai:Fleet::gpus", outputs });
      const member = { id: made.orphan.instance, volumeId: made.orphan.volume };
      const cases: Array<[string, StateResource[], ExportOptions, string, string]> = [
        ["members.json", [fleet({ members: encrypted() })], {}, "urn:pulumi:dev::p::pulumi-nodejs:dynamic/vastai:Fleet::gpus", "`outputs.members` is encrypted (a Pulumi secret)"],
        ["member.json", [fleet({ members: [encrypted()] })], {}, "Fleet::gpus", "`outputs.members[0]` is encrypted"],
        ["member-id.json", [fleet({ members: [{ ...member, id: encrypted() }] })], {}, "Fleet::gpus", "`outputs.members[0].id` is encrypted"],
        ["volume-id.json", [fleet({ members: [{ ...member, volumeId: encrypted() }] })], {}, "Fleet::gpus", "`outputs.members[0].volumeId` is encrypted"],
        ["no-members.json", [fleet({})], {}, "Fleet::gpus", "`outputs.members` is missing, not a list"],
        ["bad-member-id.json", [fleet({ members: [{ id: "i-1" }] })], {}, "Fleet::gpus", '`outputs.members[0].id` is "i-1", not an id'],
        ["instance-id.json", [{ type: "pulumi-nodejs:dynamic/vastai:Instance", id: "", urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/vastai:Instance::web" }], {}, "Instance::web", '`id` is "", not an id'],
        ["job-id.json", [{ type: "pulumi-nodejs:dynamic/vastai:ScheduledJob", id: "job" }], {}, "ScheduledJob::x", '`id` is "job", not an id'],
        ["nonce.json", [], { identity: { nonce: encrypted() } }, "StackIdentity::x", "`outputs.nonce` is encrypted"],
        ["made-for.json", [], { identity: { stackName: encrypted() } }, "StackIdentity::x", "`outputs.stackName` is encrypted"],
        ["no-time.json", [], { time: null }, "the checkpoint", "`deployment.manifest.time` is missing, not an RFC 3339 time"],
        ["bad-time.json", [], { time: "yesterday" }, "the checkpoint", '`deployment.manifest.time` is "yesterday", not an RFC 3339 time'],
        ["future.json", [], { time: new Date(Date.now() + 2 * HOUR).toISOString() }, "the checkpoint", "more than 10 minutes ahead of this machine's clock"],
      ];
      const before = await liveIds();
      await h.clearRequests();
      for (const [name, resources, options, resource, problem] of cases) {
        const file = stateFile(name, resources, "a", options);
        for (const args of [["orphans", file], ["orphans", file, "--delete", "--yes"]]) {
          const { code, err } = await run(args);
          expect({ name, args: args.length, code }).toEqual({ name, args: args.length, code: 2 });
          expect(err).toContain(`pulumi-vastai: ${file}: `);
          expect(err).toContain(resource);
          expect(err).toContain(problem);
          expect(err).toContain("Nothing was deleted");
          expect(err).toContain("`pulumi stack export --show-secrets --file <file>`");
          expect(err.split("\n")).toHaveLength(1);
        }
      }
      expect(await h.requests()).toEqual([]);
      expect(await liveIds()).toEqual(before);
    });

    it("33.1 secrets shown by --show-secrets are read: plaintext Fleet members are held, and nothing of theirs is deleted", async () => {
      const made = await makeObjects();
      const state = stateFile("shown.json", [
        { type: "pulumi-nodejs:dynamic/vastai:Instance", id: String(made.held.instance) },
        { type: "pulumi-nodejs:dynamic/vastai:Volume", id: made.held.volume },
        // As `pulumi stack export --show-secrets` writes a secret output, also one inside another.
        { type: FLEET, id: "fleet-1", outputs: { members: plainSecret([{ id: made.orphan.instance, volumeId: plainSecret(made.orphan.volume) }]) } },
      ]);
      const { code, out } = await run(["orphans", state, "--delete", "--yes"]);
      expect(code).toBe(0);
      expect(out).toContain("Nothing to delete.");
      expect(await liveIds()).toEqual({ instances: sorted(Object.values(made).map((p: Pair) => p.instance)), volumes: sorted(Object.values(made).map((p: Pair) => p.volume)) });
    });

    it("33.1 --delete prints what it deletes and why each is the stack's before the first delete, also with --yes", async () => {
      const made = await makeObjects();
      const events: string[] = [];
      const client = Object.create(h.client) as typeof h.client;
      const instances = Object.create(h.client.instances) as typeof h.client.instances;
      const volumes = Object.create(h.client.volumes) as typeof h.client.volumes;
      instances.destroy = (id) => (events.push(`DELETE instance ${id}`), h.client.instances.destroy(id));
      volumes.delete = (id) => (events.push(`DELETE volume ${id}`), h.client.volumes.delete(id));
      Object.assign(client, { instances, volumes });
      const state = heldBy(made);
      const checkpoint = new Date(JSON.parse(fs.readFileSync(state, "utf8")).deployment.manifest.time as string).toISOString();
      const tag = stackTagOf(NONCE.a);
      const marker = markerOf("a", "Instance", "lost");
      for (const json of [false, true]) {
        events.length = 0;
        const extra: Partial<CliIo> = { client, out: (t) => events.push(`out ${t}`), err: (t) => events.push(`err ${t}`) };
        const code = await main(["orphans", state, "--delete", "--yes", ...(json ? ["--json"] : [])], { sleep: async () => {}, ...extra } as CliIo);
        expect(code).toBe(0);
        const first = events.findIndex((e) => e.startsWith("DELETE"));
        const plan = events.slice(0, first).join("\n");
        expect(plan).toContain(`${json ? "err" : "out"} These 2 orphan(s) of the given stacks will be deleted, each provably theirs:`);
        for (const [kind, id] of [["instance", made.orphan.instance], ["volume", made.orphan.volume]] as const) {
          expect(plan).toMatch(new RegExp(
            `^- ${kind} ${id}: the tag ${tag} of its marker ${marker} is that of ${state.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}; no resource of the given exports holds ${kind} ${id}; created \\S+Z, at least 10 min before the export's checkpoint ${checkpoint}$`,
            "m",
          ));
        }
        expect(events.slice(first)).toEqual(expect.arrayContaining([`DELETE instance ${made.orphan.instance}`, `DELETE volume ${made.orphan.volume}`]));
        if (json) {
          const report = JSON.parse(events.find((e) => e.startsWith("out "))!.slice(4)) as JsonReport;
          expect(report.orphans.find((o) => o.id === made.orphan.instance)?.why).toContain(`no resource of the given exports holds instance ${made.orphan.instance}`);
        }
        // Again for the JSON run: a second pair of orphans.
        if (!json) made.orphan = { instance: await rent(marker), volume: await volume(serviceName("lost", marker) as string) };
      }
    });

    it("33.3 a delete answered as done while the object stays is named, never counted in 'Deleted N', and exits 1", async () => {
      const made = await makeObjects();
      // The documented success answer, but nothing is deleted.
      await h.fault({ method: "DELETE", path: `/api/v0/instances/${made.orphan.instance}/`, status: 200, body: { success: true }, times: 5 });
      await h.fault({ method: "DELETE", path: "/api/v0/volumes/", status: 200, body: { success: true }, times: 5 });
      const waits: number[] = [];
      const { code, out } = await run(["orphans", heldBy(made), "--delete", "--yes"], { sleep: async (ms) => void waits.push(ms) });
      expect(code).toBe(1);
      expect(out).toContain(`instance ${made.orphan.instance}: still present: the service answered the delete as done, but a fresh listing still shows it (read 3 time(s))`);
      expect(out).toContain(`volume ${made.orphan.volume}: still present`);
      expect(out).not.toMatch(/Deleted \d/);
      expect(out).toContain("0 of 2 seen gone; 2 not deleted or still present (named above).");
      expect(waits).toEqual([5000, 5000, 5000, 5000]);
      const json = JSON.parse((await run(["orphans", heldBy(made), "--delete", "--yes", "--json"])).out) as JsonReport;
      expect(json.orphans.filter((o) => o.attribution === "orphan").map((o) => o.seenGone)).toEqual([false, false]);
      expect(await liveIds()).toMatchObject({ instances: expect.arrayContaining([made.orphan.instance]), volumes: expect.arrayContaining([made.orphan.volume]) });
    });

    it("33.1 a stack identity made for another stack than the export's own refuses --delete, naming both", async () => {
      const made = await makeObjects();
      const held = [
        { type: "pulumi-nodejs:dynamic/vastai:Instance", id: String(made.held.instance) },
        { type: "pulumi-nodejs:dynamic/vastai:Volume", id: made.held.volume },
      ];
      await h.clearRequests();
      for (const key of ["stackName", "fullyQualifiedStackName"]) {
        const copied = stateFile(`copied-${key}.json`, held, "a", { ownStack: "p/staging", identity: { [key]: "acme/p/prod" } });
        const { code, err } = await run(["orphans", copied, "--delete", "--yes"]);
        expect(code).toBe(2);
        expect(err).toContain(`the stack identity in ${copied} was made for stack acme/p/prod, but the export is of stack p/staging`);
        expect(err).toContain("Nothing was deleted.");
        // Listing still works, with the warning.
        const listed = await run(["orphans", copied]);
        expect(listed.code).toBe(0);
        expect(listed.out).toContain("Warning: the stack identity in");
      }
      const noStack = stateFile("copied-nostack.json", held, "a", { identity: { stackName: "acme/p/prod" } });
      expect((await run(["orphans", noStack, "--delete", "--yes"])).err).toContain("but the export is of no stack it names");
      expect((await h.requests()).filter((r) => r.method !== "GET")).toEqual([]);
      expect((await liveIds()).instances).toContain(made.orphan.instance);
      // The identity made for the export's own stack: deletes.
      const own = stateFile("own.json", held, "a", { ownStack: "p/prod", identity: { stackName: "acme/p/prod" } });
      const { code, out } = await run(["orphans", own, "--delete", "--yes"]);
      expect(code).toBe(0);
      expect(out).toContain("Deleted 2.");
    });

    it("33.1 two exports holding one nonce (a copied state) refuse --delete; the copy's instance made after the first export's checkpoint is never its orphan", async () => {
      const made = await makeObjects();
      const first = stateFile("first.json", [{ type: "pulumi-nodejs:dynamic/vastai:Instance", id: String(made.held.instance) }], "a", { ownStack: "p/prod" });
      // A second stack runs on a copy of the first's state: its new instance carries the first's tag.
      simLagMs = 0;
      const copysInstance = await rent(markerOf("a", "Instance", "copy-web"));
      const copy = stateFile("copy.json", [{ type: "pulumi-nodejs:dynamic/vastai:Instance", id: String(copysInstance) }], "a", { ownStack: "p/copy" });
      await h.clearRequests();
      const both = await run(["orphans", first, copy, "--delete", "--yes"]);
      expect(both.code).toBe(2);
      expect(both.err).toContain(`${first} (stack p/prod) and ${copy} (stack p/copy) hold the same stack identity (tag ${stackTagOf(NONCE.a)})`);
      expect(await deletes()).toEqual([]);
      // Given the first stack's export alone, the copy's instance (made after its checkpoint) is not its orphan.
      const alone = await run(["orphans", first, "--delete", "--yes"]);
      expect(alone.code).toBe(0);
      expect((await liveIds()).instances).toContain(copysInstance);
      expect((await liveIds()).instances).not.toContain(made.orphan.instance);
    });

    it("33.1 an export written while an update ran (an operation of this package in progress) refuses --delete: what it makes may be older than the checkpoint", async () => {
      const made = await makeObjects();
      const held = [
        { type: "pulumi-nodejs:dynamic/vastai:Instance", id: String(made.held.instance) },
        { type: "pulumi-nodejs:dynamic/vastai:Volume", id: made.held.volume },
      ];
      // The orphan pair is an instance still booting (created an hour ago) while other steps wrote checkpoints.
      const creating = { type: "creating", resource: { urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/vastai:Instance::lost", custom: true, type: "pulumi-nodejs:dynamic/vastai:Instance", inputs: {} } };
      const running = stateFile("running.json", held, "a", { pending: [creating] });
      await h.clearRequests();
      const refused = await run(["orphans", running, "--delete", "--yes"]);
      expect(refused.code).toBe(2);
      expect(refused.err).toContain(`${running} records operations of this package in progress at its checkpoint ("creating" urn:pulumi:dev::p::pulumi-nodejs:dynamic/vastai:Instance::lost)`);
      expect(refused.err).toContain("resolve them (`pulumi refresh --clear-pending-creates`, or `pulumi refresh` at a terminal, which asks; a later `pulumi up` keeps a pending create), then export again");
      expect(await h.requests()).toEqual([]);
      const listed = await run(["orphans", running]);
      expect(listed.code).toBe(0);
      expect(listed.out).toContain(`Warning: ${running} records operations of this package in progress`);
      expect(await deletes()).toEqual([]);
      // Another package's pending operation says nothing of this package's objects; a list that is not one is refused.
      const other = stateFile("other-pending.json", held, "a", { pending: [{ ...creating, resource: { ...creating.resource, type: "aws:s3/bucket:Bucket" } }] });
      expect((await run(["orphans", other, "--delete", "--yes"])).code).toBe(0);
      const broken = await run(["orphans", stateFile("broken-pending.json", held, "a", { pending: { creating: 1 } })]);
      expect(broken.code).toBe(2);
      expect(broken.err).toContain("`deployment.pending_operations` is {\"creating\":1}, not a list");
    });
  });
});
