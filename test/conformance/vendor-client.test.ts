/**
 * Issue 24 item 5: the vendor's own client (`vastai` from PyPI, pinned in
 * scripts/vendor-client.sh, installed by `npm run vendor-client`) as a second witness of the
 * simulator. Its commands for every action our resources take run against a simulator on
 * 127.0.0.1 with `--url` and `--raw`; each must succeed and answer what the client expects
 * (its JSON, or the Python literal it prints where it has no JSON), and objects it makes are
 * read back with our own client. Where the simulator keeps answering differently on purpose,
 * the command is listed in VENDOR_CLIENT_DIFFERENCES (known-differences.ts, README table) and
 * must still differ.
 *
 * Skipped, with one line, when `.venv-vastai/` is absent; with VENDOR_CLIENT_REQUIRED=1 (CI)
 * an absent client fails the suite instead.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { SEED, startSimulator, type Simulator } from "pulumi-vastai/simulator";
import { createClient, type VastClient } from "../../provider/client";
import { VENDOR_CLIENT_DIFFERENCES } from "./known-differences";
import { cliError, pinnedVersion, REQUIRED_ENV, startVendorCli, unavailableReason, VENV, type CliResult, type VendorCli } from "./vendor-cli";

const reason = unavailableReason();
const required = process.env[REQUIRED_ENV] === "1";
if (reason !== undefined && !required) process.stderr.write(`vendor-client conformance skipped: ${reason}\n`);
const suite = reason !== undefined && !required ? describe.skip : describe;

const KEY_A = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIVendorClientKeyA vendor@test";
const KEY_B = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIVendorClientKeyB vendor@test";

let sim: Simulator;
let cli: VendorCli;
let client: VastClient;

/** Ids the scenario makes, shared by the tests that follow (they run in order). */
const made: {
  offers: { id: number; minBid: number }[];
  sshKeyId?: number;
  apiKey?: { id: number; key: string };
  template?: { id: number; hashId: string };
  editedHash?: string;
  onDemand?: number;
  spot?: number;
  fromTemplate?: number;
  bid?: number;
  volumes: number[];
  endpointId?: number;
  workerGroupId?: number;
  machineId?: number;
} = { offers: [], volumes: [] };

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`an earlier step did not make ${what}`);
  return value;
}

/** Runs a command that must succeed. */
async function ok(words: string[], input?: string): Promise<CliResult> {
  const r = await cli.run(words, input);
  expect({ command: r.command, error: cliError(r) }).toEqual({ command: r.command, error: undefined });
  return r;
}

/** A command whose --raw output is JSON. */
async function json<T = unknown>(words: string[]): Promise<T> {
  const r = await ok(words);
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`vastai ${r.command}: stdout is not JSON: ${r.stdout.slice(0, 300)}`);
  }
}

/** The Python literal a command printed after `prefix` on one line. */
async function printed<T = Record<string, unknown>>(r: CliResult, prefix: string): Promise<T> {
  const line = r.stdout.split("\n").find((l) => l.startsWith(prefix));
  if (line === undefined) throw new Error(`vastai ${r.command}: no line starting "${prefix}" in ${JSON.stringify(r.stdout)}`);
  return (await cli.literal(line.slice(prefix.length))) as T;
}

/** The stdout must hold this text (commands that print a sentence, not a value). */
function says(r: CliResult, text: string): void {
  expect({ command: r.command, stdout: r.stdout.includes(text) ? text : r.stdout }).toEqual({ command: r.command, stdout: text });
}

interface RawInstance {
  id: number;
  label: string | null;
  actual_status: string;
  intended_status: string;
  is_bid: boolean;
  dph_total: number;
  num_gpus: number;
  image_uuid: string;
  image_runtype: string;
  onstart: string | null;
  extra_env: Record<string, string>;
  template_hash_id: string | null;
  ssh_port: number;
  public_ipaddr: string;
}

const showInstance = async (id: number) => (await json<RawInstance>(["show", "instance", String(id)]));

suite("issue 24 item 5: the vendor's client (vastai) against the simulator", () => {
  beforeAll(async () => {
    if (reason !== undefined) throw new Error(`${REQUIRED_ENV}=1 and ${reason}`);
    sim = await startSimulator({ port: 0, bootMs: 0 });
    cli = await startVendorCli(sim.url, sim.apiKey);
    client = createClient({ apiKey: sim.apiKey, apiUrl: sim.url, runUrl: sim.runUrl, pacing: false, maxAttempts: 1 });
  }, 60_000);
  afterAll(async () => {
    await cli?.close();
    await sim?.close();
  });

  describe("the client", () => {
    it("24.5 is the pinned version", () => {
      expect(cli.version).toBe(pinnedVersion());
    });

    it("24.5 runs as its own script: vastai show user", async () => {
      // The `vastai` entry point itself, in a process of its own (the other tests fork it).
      const env: NodeJS.ProcessEnv = { ...process.env, VASTAI_NO_UPDATE_CHECK: "1", HOME: cli.cwd };
      delete env.VAST_URL;
      delete env.VAST_API_KEY;
      const { stdout } = await promisify(execFile)(path.join(VENV, "bin", "vastai"), ["--url", sim.url, "--api-key", sim.apiKey, "--raw", "show", "user"], { env });
      expect(JSON.parse(stdout)).toMatchObject({ id: sim.userId });
    }, 30_000);

    it("24.5 show user", async () => {
      expect(await json(["show", "user"])).toMatchObject({ id: sim.userId, email: expect.any(String) });
    });
  });

  describe("offers", () => {
    it("24.5 search offers (the client insists on Content-Type: application/json)", async () => {
      const offers = await json<{ id: number; min_bid: number; num_gpus: number }[]>(["search", "offers", "num_gpus=1", "--limit", "8"]);
      expect(offers.length).toBeGreaterThanOrEqual(3);
      made.offers = offers.map((o) => ({ id: o.id, minBid: o.min_bid }));
    });
  });

  describe("SSH keys", () => {
    it("24.5 create ssh-key", async () => {
      const r = await ok(["create", "ssh-key", KEY_A]);
      const out = await printed<{ success: boolean; key: { id: number } }>(r, "ssh-key created ");
      expect(out.success).toBe(true);
      made.sshKeyId = out.key.id;
      expect((await client.sshKeys.list()).map((k) => k.publicKey)).toContain(KEY_A);
    });

    it("24.5 show ssh-keys", async () => {
      const keys = await json<{ id: number; key: string }[]>(["show", "ssh-keys"]);
      expect(keys).toContainEqual(expect.objectContaining({ id: made.sshKeyId, key: KEY_A }));
    });

    it("24.5 update ssh-key", async () => {
      await ok(["update", "ssh-key", String(need(made.sshKeyId, "an SSH key")), KEY_B]);
      expect(await json(["show", "ssh-keys"])).toContainEqual(expect.objectContaining({ id: made.sshKeyId, key: KEY_B }));
    });
  });

  describe("env vars", () => {
    it("24.5 create env-var", async () => {
      says(await ok(["create", "env-var", "HF_TOKEN", "hf_abc.123"]), "HF_TOKEN");
      expect(Object.keys(await client.secrets.list())).toContain("HF_TOKEN");
    });

    it("24.5 show env-vars", async () => {
      expect(await json(["show", "env-vars"])).toMatchObject({ HF_TOKEN: expect.any(String) });
    });

    it("24.5 update env-var", async () => {
      says(await ok(["update", "env-var", "HF_TOKEN", "hf_def.456"]), "HF_TOKEN");
    });

    it("24.5 delete env-var", async () => {
      says(await ok(["delete", "env-var", "HF_TOKEN"]), "HF_TOKEN");
      expect(await json(["show", "env-vars"])).not.toHaveProperty("HF_TOKEN");
    });
  });

  describe("API keys", () => {
    it("24.5 create api-key", async () => {
      fs.writeFileSync(path.join(cli.cwd, "permissions.json"), JSON.stringify({ api: { instance_read: {}, user_read: {} } }));
      const r = await ok(["create", "api-key", "--name", "vendor-ci", "--permission_file", "permissions.json"]);
      const out = await printed<{ success: boolean; id: number; key: string }>(r, "api-key created ");
      expect(out).toMatchObject({ success: true, id: expect.any(Number), key: expect.stringMatching(/^[0-9a-f]{32,}$/) });
      made.apiKey = { id: out.id, key: out.key };
    });

    it("24.5 show api-keys", async () => {
      const { apikeys } = await json<{ apikeys: { id: number; name: string; key: unknown }[] }>(["show", "api-keys"]);
      expect(apikeys).toContainEqual(expect.objectContaining({ id: made.apiKey?.id, name: "vendor-ci", key: null }));
    });

    it("24.5 delete api-key", async () => {
      const { id, key } = need(made.apiKey, "an API key");
      const r = await ok(["delete", "api-key", String(id)]);
      expect(r.stdout.trim()).toBe("Successfully Deleted API Key");
      // The deleted key is refused at once.
      const refused = await createClient({ apiKey: key, apiUrl: sim.url, runUrl: sim.runUrl, pacing: false, maxAttempts: 1 }).users.current().then(
        () => "accepted",
        (e: Error) => e.message,
      );
      expect(refused).not.toBe("accepted");
    });
  });

  describe("templates", () => {
    it("24.5 create template", async () => {
      const r = await ok([
        "create", "template", "--name", "vendor-template", "--image", "pytorch/pytorch", "--image_tag", "2.4.0",
        "--env", "-e MODE=train -p 8080:8080", "--ssh", "--direct", "--onstart-cmd", "echo ready", "--disk_space", "20",
        "--search_params", "gpu_ram>=8 num_gpus=1",
      ]);
      const t = await printed<{ id: number; hash_id: string; recommended_disk_space: number; ssh_direct: boolean }>(r, "New Template: ");
      expect(t).toMatchObject({ id: expect.any(Number), hash_id: expect.stringMatching(/^[0-9a-f]{32}$/), recommended_disk_space: 20, ssh_direct: true });
      made.template = { id: t.id, hashId: t.hash_id };
      expect((await client.templates.search({ hashId: t.hash_id })).map((x) => x.id)).toEqual([t.id]);
    });

    it("24.5 search templates", async () => {
      const found = await json<{ id: number; name: string; image: string }[]>(["search", "templates", "name=vendor-template"]);
      expect(found).toEqual([expect.objectContaining({ id: made.template?.id, name: "vendor-template", image: "pytorch/pytorch" })]);
    });

    it("24.5 update template", async () => {
      const { id, hashId } = need(made.template, "a template");
      const r = await ok([
        "update", "template", hashId, "--name", "vendor-template", "--image", "pytorch/pytorch", "--image_tag", "2.5.0",
        "--env", "-e MODE=train -p 8080:8080", "--ssh", "--onstart-cmd", "echo ready", "--disk_space", "24",
      ]);
      const prefix = "updated template: ";
      const at = r.stdout.indexOf(prefix);
      expect(at).toBeGreaterThanOrEqual(0);
      const t = JSON.parse(r.stdout.slice(at + prefix.length)) as { id: number; hash_id: string; tag: string; recommended_disk_space: number };
      expect(t).toMatchObject({ id, tag: "2.5.0", recommended_disk_space: 24 });
      expect(t.hash_id).not.toBe(hashId);
      made.editedHash = t.hash_id;
    });
  });

  describe("instances", () => {
    it("24.5 create instance (on demand, direct SSH, env and ports)", async () => {
      const offer = need(made.offers[0], "an offer");
      const out = await json<{ success: boolean; new_contract: number }>([
        "create", "instance", String(offer.id), "--image", "pytorch/pytorch", "--disk", "20", "--ssh", "--direct",
        "--env", "-e TZ=UTC -p 8080:8080", "--label", "vendor-on-demand", "--onstart-cmd", "echo hi",
      ]);
      expect(out).toMatchObject({ success: true, new_contract: expect.any(Number) });
      made.onDemand = out.new_contract;
      expect((await client.instances.get(out.new_contract))?.label).toBe("vendor-on-demand");
    });

    it("24.5 show instance", async () => {
      const inst = await showInstance(need(made.onDemand, "an instance"));
      expect(inst).toMatchObject({ id: made.onDemand, label: "vendor-on-demand", is_bid: false, onstart: "echo hi" });
      expect(inst.extra_env).toMatchObject({ TZ: "UTC" });
    });

    it("24.5 create instance (interruptible, --bid_price)", async () => {
      const offer = need(made.offers[1], "a second offer");
      const bid = Math.round((offer.minBid + 0.01) * 100) / 100;
      const out = await json<{ success: boolean; new_contract: number }>(["create", "instance", String(offer.id), "--image", "pytorch/pytorch", "--disk", "16", "--bid_price", String(bid)]);
      expect(out.success).toBe(true);
      made.spot = out.new_contract;
      expect(await showInstance(out.new_contract)).toMatchObject({ is_bid: true });
    });

    it("24.5 change bid", async () => {
      const id = need(made.spot, "an interruptible instance");
      const offer = need(made.offers[1], "a second offer");
      const price = Math.round((offer.minBid + 0.05) * 100) / 100;
      says(await ok(["change", "bid", String(id), "--price", String(price)]), "bid price changed");
      const inst = await showInstance(id);
      expect(inst.dph_total).toBeCloseTo(price * inst.num_gpus, 6);
    });

    it("24.5 create instance (from a template, --template_hash)", async () => {
      const offer = need(made.offers[2], "a third offer");
      const hash = need(made.editedHash, "an edited template");
      const out = await json<{ success: boolean; new_contract: number }>(["create", "instance", String(offer.id), "--template_hash", hash, "--disk", "16"]);
      expect(out.success).toBe(true);
      made.fromTemplate = out.new_contract;
      expect(await showInstance(out.new_contract)).toMatchObject({ template_hash_id: hash, image_uuid: "pytorch/pytorch:2.5.0" });
    });

    it("24.5 show instances", async () => {
      const rows = await json<RawInstance[]>(["show", "instances"]);
      expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining([made.onDemand, made.spot, made.fromTemplate]));
    });

    it("24.5 label instance", async () => {
      const id = need(made.onDemand, "an instance");
      says(await ok(["label", "instance", String(id), "vendor-renamed"]), `label for ${id} set to vendor-renamed.`);
      expect((await showInstance(id)).label).toBe("vendor-renamed");
    });

    it("24.5 stop instance, start instance", async () => {
      const id = need(made.onDemand, "an instance");
      says(await ok(["stop", "instance", String(id)]), `stopping instance ${id}.`);
      expect((await showInstance(id)).intended_status).toBe("stopped");
      says(await ok(["start", "instance", String(id)]), `starting instance ${id}.`);
      expect((await showInstance(id)).intended_status).toBe("running");
    });

    it("24.5 reboot instance, recycle instance", async () => {
      const id = need(made.onDemand, "an instance");
      says(await ok(["reboot", "instance", String(id)]), `Rebooting instance ${id}.`);
      says(await ok(["recycle", "instance", String(id)]), `Recycling instance ${id}.`);
    });

    it("24.5 prepay instance, show deposit", async () => {
      const id = need(made.onDemand, "an instance");
      says(await ok(["prepay", "instance", String(id), "5"]), `of instance ${id} applying $5.0 credits`);
      expect(await json(["show", "deposit", String(id)])).toMatchObject({ refundable_deposit: 5 });
    });

    it("24.5 attach ssh, detach ssh", async () => {
      const id = need(made.onDemand, "an instance");
      const keyId = need(made.sshKeyId, "an SSH key");
      const attached = await ok(["attach", "ssh", String(id), KEY_B]);
      expect(await cli.literal(attached.stdout.trim())).toMatchObject({ success: true });
      const detached = await ok(["detach", "ssh", String(id), String(keyId)]);
      expect(await cli.literal(detached.stdout.trim())).toMatchObject({ success: true });
    });

    it("24.5 update instance (update_template): to a template", async () => {
      const id = need(made.onDemand, "an instance");
      const hash = need(made.editedHash, "an edited template");
      const out = await json<{ success: boolean; updated_instance: RawInstance }>(["update", "instance", String(id), "--template_hash_id", hash]);
      expect(out).toMatchObject({ success: true, updated_instance: { id, template_hash_id: hash } });
      expect((await client.instances.get(id))?.templateHashId).toBe(hash);
    });

    it("24.5 update instance (update_template): image, env, onstart", async () => {
      const id = need(made.spot, "an interruptible instance");
      const out = await json<{ success: boolean; updated_instance: RawInstance }>([
        "update", "instance", String(id), "--image", "pytorch/pytorch:2.5.0", "--env", JSON.stringify({ STAGE: "two" }), "--onstart", "echo two",
      ]);
      expect(out).toMatchObject({ success: true, updated_instance: { id, image_uuid: "pytorch/pytorch:2.5.0", onstart: "echo two" } });
      expect((await showInstance(id)).extra_env).toMatchObject({ STAGE: "two" });
    });
  });

  describe("copy", () => {
    it("24.5 copy between two instances (copy_direct)", async () => {
      const [src, dst] = [need(made.onDemand, "an instance"), need(made.fromTemplate, "a second instance")];
      says(await ok(["copy", `C.${src}:/workspace/`, `C.${dst}:/workspace/`]), "Remote to Remote copy initiated");
    });

    it("24.5 cancel copy", async () => {
      const dst = need(made.fromTemplate, "a second instance");
      says(await ok(["cancel", "copy", String(dst)]), "Remote copy canceled");
    });

    it("24.5 copy from local (rsync: the client runs rsync to the address the service gives)", async () => {
      const id = need(made.onDemand, "an instance");
      const inst = await showInstance(id);
      says(await ok(["copy", "local:data/", `C.${id}:/workspace/`]), "copying");
      const call = cli.rsyncCalls().at(-1) ?? [];
      expect(call.join(" ")).toContain(`-p ${inst.ssh_port}`);
      expect(call.at(-1)).toMatch(new RegExp(`^vastai_kaalia@${inst.public_ipaddr.replace(/\./g, "\\.")}::C\\.${id}/`));
    });

    it("24.5 copy to local (rsync)", async () => {
      const id = need(made.onDemand, "an instance");
      const inst = await showInstance(id);
      const before = cli.rsyncCalls().length;
      says(await ok(["copy", `C.${id}:/workspace/`, "local:out/"]), "copying");
      const calls = cli.rsyncCalls();
      expect(calls.length).toBe(before + 1);
      expect(calls.at(-1)?.join(" ")).toContain(`-p ${inst.ssh_port}`);
      expect(calls.at(-1)?.at(-2)).toMatch(new RegExp(`^vastai_kaalia@${inst.public_ipaddr.replace(/\./g, "\\.")}::C\\.${id}/`));
    });
  });

  describe("volumes", () => {
    it("24.5 search volumes, create volume", async () => {
      const offers = await json<{ id: number }[]>(["search", "volumes", "--limit", "3"]);
      expect(offers.length).toBeGreaterThan(0);
      const out = await json<{ success: boolean; volume_name: string }>(["create", "volume", String(offers[0].id), "-s", "20", "-n", "vendor-vol"]);
      expect(out).toMatchObject({ success: true, volume_name: expect.stringMatching(/^V\.\d+$/) });
      made.volumes.push(Number(out.volume_name.slice(2)));
    });

    it("24.5 search network-volumes, create network-volume", async () => {
      const offers = await json<{ id: number }[]>(["search", "network-volumes", "--limit", "3"]);
      expect(offers.length).toBeGreaterThan(0);
      const out = await json<{ success: boolean; volume_name: string }>(["create", "network-volume", String(offers[0].id), "-s", "20", "-n", "vendor-nv"]);
      expect(out).toMatchObject({ success: true, volume_name: expect.stringMatching(/^V\.\d+$/) });
      made.volumes.push(Number(out.volume_name.slice(2)));
    });

    it("24.5 show volumes", async () => {
      const all = await json<{ id: number; label: string; type: string }[]>(["show", "volumes"]);
      expect(all).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: made.volumes[0], label: "vendor-vol", type: "local_volume" }),
          expect.objectContaining({ id: made.volumes[1], label: "vendor-nv", type: "network_volume" }),
        ]),
      );
      const network = await json<{ id: number }[]>(["show", "volumes", "-t", "network"]);
      expect(network.map((v) => v.id)).toEqual([made.volumes[1]]);
    });

    it("24.5 delete volume", async () => {
      expect(made.volumes).toHaveLength(2);
      for (const id of made.volumes) expect(await json(["delete", "volume", String(id)])).toMatchObject({ success: true });
      expect((await client.volumes.list()).map((v) => v.id)).not.toEqual(expect.arrayContaining([made.volumes[0]]));
      expect(await json(["show", "volumes"])).toEqual([]);
    });
  });

  describe("volume listings (host)", () => {
    type Offer = { id: number; machine_id?: number; disk_id?: number; storage_cost: number; disk_space: number };
    const machineId = SEED.hostedMachineIds[4];
    const disk = SEED.hostNetworkDisks[1];

    it("27.4 list volume, search volumes shows it, unlist volume removes it", async () => {
      expect(await json(["list", "volume", String(machineId), "-s", "50", "-p", "0.07"])).toMatchObject({ success: true });
      const listed = (await json<Offer[]>(["search", "volumes"])).find((o) => o.machine_id === machineId);
      expect(listed).toMatchObject({ storage_cost: 0.07, disk_space: 50 });
      expect((await client.volumeListings.find("local", { machineId }))?.id).toBe(listed?.id);
      expect(await json(["unlist", "volume", String(listed?.id)])).toEqual({ success: true, msg: `Unlisted Volume ${String(listed?.id)}.` });
      expect((await json<Offer[]>(["search", "volumes"])).some((o) => o.machine_id === machineId)).toBe(false);
    });

    it("27.4 list network-volume, search network-volumes shows it, unlist network-volume removes it", async () => {
      expect(await json(["list", "network-volume", String(disk.id), "-s", "100", "-p", "0.12"])).toMatchObject({ success: true, msg: expect.any(String) });
      const listed = (await json<Offer[]>(["search", "network-volumes"])).find((o) => o.disk_id === disk.id);
      expect(listed).toMatchObject({ storage_cost: 0.12, disk_space: 100 });
      expect((await client.volumeListings.find("network", { diskId: disk.id }))?.id).toBe(listed?.id);
      expect(await json(["unlist", "network-volume", String(listed?.id)])).toMatchObject({ success: true });
      expect((await json<Offer[]>(["search", "network-volumes"])).some((o) => o.disk_id === disk.id)).toBe(false);
    });
  });

  describe("endpoints and worker groups", () => {
    it("24.5 create endpoint", async () => {
      const out = await json<{ success: boolean; result: number }>(["create", "endpoint", "--endpoint_name", "vendor-ep", "--max_workers", "3", "--cold_workers", "1"]);
      expect(out).toMatchObject({ success: true, result: expect.any(Number) });
      made.endpointId = out.result;
    });

    it("24.5 show endpoints", async () => {
      expect(await json(["show", "endpoints"])).toContainEqual(expect.objectContaining({ id: made.endpointId, endpoint_name: "vendor-ep", max_workers: 3 }));
    });

    it("24.5 update endpoint", async () => {
      const id = need(made.endpointId, "an endpoint");
      expect(await json(["update", "endpoint", String(id), "--endpoint_name", "vendor-ep", "--max_workers", "5"])).toMatchObject({ success: true });
      expect((await client.endpointGroups.list()).find((e) => e.id === id)).toMatchObject({ maxWorkers: 5 });
    });

    it("24.5 create workergroup", async () => {
      const endpointId = need(made.endpointId, "an endpoint");
      const hash = need(made.editedHash, "a template");
      const r = await ok(["create", "workergroup", "--endpoint_id", String(endpointId), "--template_hash", hash, "--gpu_ram", "8", "--search_params", "num_gpus=1"]);
      const out = await printed<{ success: boolean; id: number }>(r, "workergroup create ");
      expect(out).toMatchObject({ success: true, id: expect.any(Number) });
      made.workerGroupId = out.id;
    });

    it("24.5 show workergroups", async () => {
      expect(await json(["show", "workergroups"])).toContainEqual(
        expect.objectContaining({ id: made.workerGroupId, endpoint_id: made.endpointId, template_hash: made.editedHash, gpu_ram: 8 }),
      );
    });

    it("24.5 update workergroup", async () => {
      const id = need(made.workerGroupId, "a worker group");
      const args = ["update", "workergroup", String(id), "--endpoint_id", String(made.endpointId), "--template_hash", need(made.editedHash, "a template"), "--gpu_ram", "16"];
      expect(await json(args)).toMatchObject({ success: true });
      expect(await json(["show", "workergroups"])).toContainEqual(expect.objectContaining({ id, gpu_ram: 16 }));
    });

    it("24.5 delete workergroup", async () => {
      const id = need(made.workerGroupId, "a worker group");
      const out = await printed<{ success: boolean }>(await ok(["delete", "workergroup", String(id)]), "workergroup delete ");
      expect(out.success).toBe(true);
      expect((await client.workerGroups.list()).map((g) => g.id)).not.toContain(id);
    });

    it("24.5 delete endpoint", async () => {
      const id = need(made.endpointId, "an endpoint");
      const out = await printed<{ success: boolean }>(await ok(["delete", "endpoint", String(id)]), "delete endpoint ");
      expect(out.success).toBe(true);
      expect(await json<{ id: number }[]>(["show", "endpoints"])).not.toContainEqual(expect.objectContaining({ id }));
    });
  });

  describe("maintenance (host)", () => {
    it("24.5 show machines", async () => {
      const { machines } = await json<{ machines: { id: number }[] }>(["show", "machines"]);
      expect(machines.length).toBeGreaterThan(0);
      made.machineId = machines[0].id;
    });

    it("33.7 list machine (every key, -v 0: no volume offer), show machines shows its price and no listed flag, unlist machine leaves none", async () => {
      const id = need(made.machineId, "a machine");
      // The driver runs the client with --raw: list machine then prints the service's answer.
      expect(JSON.parse((await ok(["list", "machine", String(id), "-g", "0.5", "-v", "0"])).stdout)).toMatchObject({ success: true });
      const listed = (await json<{ machines: Record<string, unknown>[] }>(["show", "machines"])).machines.find((m) => m.id === id);
      expect(listed).toMatchObject({ listed_gpu_cost: 0.5 });
      expect(listed).not.toHaveProperty("listed");
      expect(await client.machines.get(id)).toMatchObject({ listed: true });
      says(await ok(["unlist", "machine", String(id)]), `all offers for machine ${id} removed`);
      expect((await json<{ machines: Record<string, unknown>[] }>(["show", "machines"])).machines.find((m) => m.id === id)).toMatchObject({ listed_gpu_cost: null });
      expect(await client.machines.get(id)).toMatchObject({ listed: false });
    });

    it("24.5 schedule maint", async () => {
      const id = need(made.machineId, "a machine");
      const sdate = Math.floor(Date.now() / 1000) + 86_400;
      const r = await ok(["schedule", "maint", String(id), "--sdate", String(sdate), "--duration", "2", "--maintenance_category", "power"], "y\n");
      says(r, "Maintenance window scheduled for");
      expect(await client.machines.listMaintenances([id])).toEqual([expect.objectContaining({ machineId: id, durationHours: 2, category: "power" })]);
    });

    it("24.5 show maints", async () => {
      const id = need(made.machineId, "a machine");
      expect(await json(["show", "maints", "-i", String(id)])).toEqual([expect.objectContaining({ machine_id: id })]);
    });

    it("24.5 cancel maint", async () => {
      const id = need(made.machineId, "a machine");
      says(await ok(["cancel", "maint", String(id)], "y\n"), `Cancel maintenance window(s) scheduled for machine ${id} success`);
      expect(await json(["show", "maints", "-i", String(id)])).toEqual([]);
    });
  });

  describe("destroying what the client made", () => {
    it("24.5 destroy instance", async () => {
      const ids = [need(made.onDemand, "an instance"), need(made.spot, "an instance"), need(made.fromTemplate, "an instance")];
      for (const id of ids) {
        await ok(["destroy", "instance", String(id), "-y"]);
        expect(await json(["show", "instance", String(id)])).toEqual({ instances: null });
      }
    });

    it("24.5 delete template", async () => {
      const { id } = need(made.template, "a template");
      const r = await ok(["delete", "template", "--template-id", String(id)]);
      expect(await cli.literal(r.stdout.trim())).toMatchObject({ success: true });
      expect(await json(["search", "templates", "name=vendor-template"])).toEqual([]);
    });

    it("24.5 delete ssh-key", async () => {
      const id = need(made.sshKeyId, "an SSH key");
      await ok(["delete", "ssh-key", String(id)]);
      expect((await client.sshKeys.list()).map((k) => k.id)).not.toContain(id);
    });
  });

  describe("teams", () => {
    it("33.7 invite member: the vendor's query arguments are what the simulator takes", async () => {
      await client.teams.create({ name: "vendor-team" });
      try {
        says(await ok(["invite", "member", "--email", "ana@example.com", "--role", "member"]), "successfully invited ana@example.com");
        const log = (await (await fetch(`${sim.url}/_sim/requests`)).json()) as { method: string; path: string; status: number; query: unknown }[];
        const sent = log.filter((r) => r.method === "POST" && r.path.startsWith("/api/v0/team/invite"));
        expect(sent.at(-1)).toMatchObject({ status: 200, query: { email: "ana@example.com", role: "member" } });
      } finally {
        await client.teams.destroy();
      }
    });
  });

  describe("known differences (VENDOR_CLIENT_DIFFERENCES): each still differs", () => {
    it.each(VENDOR_CLIENT_DIFFERENCES.map((d) => [d.id, d] as const))("24.5 %s", async (_id, d) => {
      const r = await cli.run(d.command);
      const output = `${r.stdout}${r.stderr}`;
      expect({ id: d.id, differs: output.includes(d.fails) ? true : output }).toEqual({ id: d.id, differs: true });
    });
  });
});

describe("test/conformance/README.md", () => {
  it("24.5 lists every vendor-client difference of known-differences.ts", () => {
    const readme = fs.readFileSync(path.join(__dirname, "README.md"), "utf8");
    expect(VENDOR_CLIENT_DIFFERENCES.filter((d) => !readme.includes(`| \`${d.id}\` | \`vastai ${d.command.join(" ")}\` |`)).map((d) => d.id)).toEqual([]);
  });
});
