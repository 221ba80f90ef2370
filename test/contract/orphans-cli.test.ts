/**
 * The orphan report as a user runs it: `pulumi-vastai orphans` from the installed package's
 * bin, reading a `pulumi stack export` file, about an instance the real plugin created (a run
 * killed before it wrote its state is exactly this: the object exists, no state holds it).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { dynamicUrn } from "pulumi-vastai/testing";
import { scratchProject, useContract } from "./harness";

const run = promisify(execFile);
// The simulator's clock runs an hour behind: the instances are older than the export written now.
const fx = useContract("instance", { config: { "vastai:pollIntervalMs": "5" }, simulator: { now: () => Date.now() - 3_600_000 } });
const urn = (name: string) => dynamicUrn("dev", "proj", "Instance", name);

/** The stack's nonce, as its StackIdentity holds it; the identity the Instance class gives each resource. */
const NONCE = "00112233445566778899aabbccddeeff";
const identity = (name: string) => `stack:${NONCE}/Instance/${name}`;

test("the installed bin reports the plugin's instance held by no state, and deletes it only with --delete --yes", async () => {
  const news = { __provider: fx.provider, offerId: 700001, image: "ubuntu:22.04", label: "kept" };
  const kept = await fx.plugin.create(urn("kept"), (await fx.plugin.check(urn("kept"), {}, { ...news, __identity: identity("kept") })).inputs);
  const lostNews = { ...news, offerId: 700002, label: "lost", __identity: identity("lost") };
  const lost = await fx.plugin.create(urn("lost"), (await fx.plugin.check(urn("lost"), {}, lostNews)).inputs);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "orphans-contract-"));
  const state = path.join(dir, "stack.json");
  fs.writeFileSync(state, JSON.stringify({
    version: 3,
    deployment: {
      manifest: { time: new Date().toISOString(), magic: "m", version: "v3.248.0" },
      resources: [
        { urn: dynamicUrn("dev", "proj", "StackIdentity", "stack"), custom: true, type: "pulumi-nodejs:dynamic/vastai:StackIdentity", id: "tag", outputs: { nonce: NONCE } },
        { urn: urn("kept"), custom: true, type: "pulumi-nodejs:dynamic/vastai:Instance", id: kept.id, outputs: kept.properties },
      ],
    },
  }));
  const bin = path.join(scratchProject().dir, "node_modules", ".bin", "pulumi-vastai");
  const env = { ...process.env, VAST_API_KEY: fx.sim.apiKey, VAST_URL: fx.sim.url };
  try {
    const listed = await run(bin, ["orphans", state, "--json"], { env });
    const report = JSON.parse(listed.stdout) as { orphans: Array<{ kind: string; id: number; marker: string }> };
    expect(report.orphans).toEqual([expect.objectContaining({ kind: "instance", id: Number(lost.id), marker: lost.properties.marker })]);
    expect(fx.sim.state().instances.map((i) => String(i.id)).sort()).toEqual([kept.id, lost.id].sort());

    // Without --yes and with no terminal to ask, nothing is deleted.
    await expect(run(bin, ["orphans", state, "--delete"], { env })).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("confirm with --yes") });
    expect(fx.sim.state().instances).toHaveLength(2);
    const deleted = await run(bin, ["orphans", state, "--delete", "--yes"], { env });
    expect(deleted.stdout).toContain(`instance ${lost.id}: deleted`);
    expect(fx.sim.state().instances.map((i) => String(i.id))).toEqual([kept.id]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
