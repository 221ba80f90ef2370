/**
 * One scenario per resource: valid inputs, the update the engine would run, the endpoint
 * that carries each operation's effect (where the fault matrix injects its fault), and how
 * the simulator's live state (`GET /_sim/state`) is matched against the engine's state.
 */
import { workerGroupSearchParams } from "../../../provider/client/wire/filters";
import { onstartScript } from "../../../provider/client";
import { SEED } from "pulumi-vastai/simulator";
import { getClient } from "../../../provider/context";
import { Driven, Entry, Op, Props, driven, ed25519PublicKey } from "./drive";
import type { Rig, StateView } from "./rig";

/** Recognizable secret values: none may appear anywhere a user can read them. */
export const SECRET_VALUES = {
  apiKey: "rel-api-key-6f1c0e9a2b7d4c35",
  registryPassword: "rel-registry-pass-3b8e1f0c9a",
  envVarValue: "rel-envvar-value-9d27c4e1b6",
  envVarValueUpdated: "rel-envvar-value-updated-51aa",
  /** A secret among a Template's env values: it also travels in the `envFlags` output. */
  templateEnvValue: "rel-template-env-secret-0c4d7e",
  /** The password inside an Instance's private-registry login (`imageLogin`). */
  imageLoginPassword: "rel-image-login-pass-8e03a1",
  /** A Subaccount's login password (issue 27 item 1). */
  subaccountPassword: "rel-subaccount-pass-4c9e02b7",
  /** A token in an Instance's start script, and one in its arguments (issue 33 item 4: a refusal may echo them). */
  onstartToken: "rel-onstart-token-2d81f5",
  argsToken: "rel-args-token-7a3c09",
};

export interface Target {
  method: string;
  /** Fault path pattern: `*` matches one segment. */
  path: string;
}

/** A live object of the scenario's kind, keyed as state entries claim them. */
export interface LiveObject {
  key: string;
  view: Record<string, unknown>;
}

export interface Scenario {
  name: string;
  /** The operations of the matrix this row runs (default all): variants of a resource run only the operation they add. */
  ops?: readonly Op[];
  provider: Driven;
  /** Objects the resource needs that other resources own (rsync needs instances); returns context for `inputs`. */
  prepare?(rig: Rig): Promise<Props>;
  inputs(context: Props): Props;
  /** The inputs of an in-place update; without `__provider` the engine sees new provider code only. */
  updateInputs(outs: Props): Props;
  /** Where each operation's effect is carried; null: the operation makes no API call. */
  targets: Record<Op, Target | null>;
  /** Live objects of this kind that were not in the seed state. */
  live(state: StateView, baseline: StateView): LiveObject[];
  /** Keys of the live objects a state entry stands for. */
  claims(entry: Entry): string[];
  /** Differences between a live object and the entry that claims it. */
  compare(live: LiveObject, entry: Entry): string[];
  /** Run after the set-up create, before the operation: what happens outside the program in between (a person accepts an invitation). */
  settle?(rig: Rig, entries: Entry[]): Promise<void>;
  /** Checks that need calls (key values work); `before` is the live state before the operation. */
  verify?(rig: Rig, entries: Entry[], state: StateView, before: StateView): Promise<string[]>;
  /** Secret values the service returned into a state entry (key values, derived keys). */
  secretsOf?(entry: Entry): string[];
  /**
   * The delete removes an entry's objects one after another, in the order `claims` lists them
   * (an Instance, then the volume it created). A delete that fails part way keeps the entry for
   * the next destroy to finish: the judge then allows the objects removed before the failure to
   * be gone, never a later one, and runs the delete again to see it finish (judge.ts).
   */
  deletesInOrder?: boolean;
}

const str = (v: unknown) => (v === undefined || v === null ? "" : String(v));

function differs(what: string, live: unknown, reported: unknown): string[] {
  return str(live) === str(reported) ? [] : [`${what}: live ${JSON.stringify(live)}, reported ${JSON.stringify(reported)}`];
}

const ids = (items: { id: unknown }[]) => new Set(items.map((i) => String(i.id)));

/** Whether `key` authenticates, and as which user. */
async function whoIs(rig: Rig, key: string): Promise<number | undefined> {
  const res = await fetch(`${rig.sim.url}/api/v0/users/current/`, { headers: { authorization: `Bearer ${key}` } });
  if (!res.ok) return undefined;
  return ((await res.json()) as { id: number }).id;
}

const template: Scenario = {
  name: "Template",
  provider: driven("template"),
  inputs: () => ({
    name: "reliability",
    image: "pytorch/pytorch",
    tag: "2.3.1",
    env: { MODE: "train", HF_TOKEN: SECRET_VALUES.templateEnvValue },
    ports: ["8080:8080"],
    dockerLoginUser: "builder",
    dockerLoginPass: SECRET_VALUES.registryPassword,
  }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["name", "image", "tag", "env", "ports", "dockerLoginUser", "dockerLoginPass"]), desc: "edited" }),
  targets: {
    create: { method: "POST", path: "/api/v0/template" },
    read: { method: "GET", path: "/api/v0/template" },
    update: { method: "PUT", path: "/api/v0/template" },
    delete: { method: "DELETE", path: "/api/v0/template" },
  },
  live: (state, baseline) => {
    const seed = ids(baseline.templates as { id: unknown }[]);
    return state.templates.filter((t) => !seed.has(String(t.id))).map((t) => ({ key: String(t.id), view: t }));
  },
  claims: (entry) => [entry.id],
  compare: (live, entry) => [
    ...differs("hash_id", live.view.hash_id, entry.outs.hashId),
    ...differs("desc", live.view.desc, entry.outs.desc),
  ],
};

/** What every Instance row rents. */
const instanceInputs = () => ({ offerId: SEED.offerIds[0], image: "nvidia/cuda:12.4.1-runtime-ubuntu22.04", label: "reliability-a" });

const instance: Scenario = {
  name: "Instance",
  provider: driven("instance"),
  // A private-registry login: its password must not reach any error, log or plain state.
  inputs: () => ({ ...instanceInputs(), imageLogin: `-u bot -p ${SECRET_VALUES.imageLoginPassword} registry.example.com` }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["offerId", "image", "imageLogin"]), label: "reliability-b" }),
  targets: {
    create: { method: "PUT", path: "/api/v0/asks/*" },
    // A new process reads through the shared list walk, not per instance.
    read: { method: "GET", path: "/api/v1/instances" },
    update: { method: "PUT", path: "/api/v0/instances/*" },
    delete: { method: "DELETE", path: "/api/v0/instances/*" },
  },
  live: (state) => state.instances.map((i) => ({ key: String(i.id), view: i })),
  claims: (entry) => [entry.id],
  compare: (live, entry) => differs("label", live.view.label, entry.outs.label),
  secretsOf: (entry) => (typeof entry.outs.instanceApiKey === "string" ? [entry.outs.instanceApiKey] : []),
};

/** Instance variants: each adds one in-place (or after-create) call of its own to the matrix. */
const instanceBid: Scenario = {
  ...instance,
  name: "Instance bid",
  ops: ["update"],
  inputs: () => ({ ...instanceInputs(), bidPricePerHour: 0.25 }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["offerId", "image", "label"]), bidPricePerHour: 0.3 }),
  targets: { ...instance.targets, update: { method: "PUT", path: "/api/v0/instances/bid_price/*" } },
  compare: (live, entry) => differs("bid", live.view.bid_price, entry.outs.bidPricePerHour),
};

const instanceReboot: Scenario = {
  ...instance,
  name: "Instance reboot",
  ops: ["update"],
  inputs: () => ({ ...instanceInputs(), rebootTrigger: "1" }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["offerId", "image", "label"]), rebootTrigger: "2" }),
  targets: { ...instance.targets, update: { method: "PUT", path: "/api/v0/instances/reboot/*" } },
};

const instanceRecycle: Scenario = {
  ...instanceReboot,
  name: "Instance recycle",
  inputs: () => ({ ...instanceInputs(), recycleTrigger: "1" }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["offerId", "image", "label"]), recycleTrigger: "2" }),
  targets: { ...instance.targets, update: { method: "PUT", path: "/api/v0/instances/recycle/*" } },
};

const instancePrepay: Scenario = {
  ...instance,
  name: "Instance prepay",
  ops: ["create", "update"],
  inputs: () => ({ ...instanceInputs(), prepayAmount: 10 }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["offerId", "image", "label"]), prepayAmount: 15 }),
  // The create's prepayment and a later one: never paid twice, never lost from state.
  targets: { ...instance.targets, create: { method: "PUT", path: "/api/v0/instances/prepay/*" }, update: { method: "PUT", path: "/api/v0/instances/prepay/*" } },
  compare: (live, entry) => differs("prepaid", live.view.prepaid ?? 0, entry.outs.prepaidBalance ?? 0),
};

/** In-place update that keeps the machine: a new image through update_template (never a new rental). */
const instanceUpdateTemplate: Scenario = {
  ...instance,
  name: "Instance update_template",
  ops: ["update"],
  inputs: () => instanceInputs(),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["offerId", "label"]), image: "nvidia/cuda:12.6.0-runtime-ubuntu22.04" }),
  targets: { ...instance.targets, update: { method: "PUT", path: "/api/v0/instances/update_template/*" } },
  compare: (live, entry) => differs("image", live.view.image_uuid, entry.outs.image),
};

/**
 * Issue 34: the in-machine guard rides in the start command. Create sends it (with the user's
 * onstart, the deadline fixed at create); a changed idle time recreates the container in place
 * with the new guard (update_template). Compared: the live onstart carries the state's guard.
 */
const instanceAutostop: Scenario = {
  ...instance,
  name: "Instance autostop",
  ops: ["create", "update"],
  inputs: () => ({ ...instanceInputs(), onstart: "echo reliability-guarded", autostop: { idleMinutes: 30 }, ttl: "8h" }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["offerId", "image", "label", "onstart", "ttl"]), autostop: { idleMinutes: 45 } }),
  targets: { ...instance.targets, update: { method: "PUT", path: "/api/v0/instances/update_template/*" } },
  compare: (live, entry) => {
    const script = onstartScript(String(live.view.onstart ?? ""));
    const idle = (entry.outs.autostop as { idleMinutes?: number } | undefined)?.idleMinutes;
    return [
      ...(script.includes(` I=${idle} `) ? [] : [`onstart: live guard ${JSON.stringify(script.slice(0, 200))}, reported idleMinutes ${idle}`]),
      ...(script.includes(String(entry.outs.deadline)) ? [] : [`onstart: live guard lacks the reported deadline ${String(entry.outs.deadline)}`]),
      ...(script.includes("echo reliability-guarded") ? [] : ["onstart: the user's script is missing from the live start command"]),
    ];
  },
};

/**
 * Issue 33 item 4: a start script and arguments that carry tokens, sent at create and in place
 * (update_template). The `echo` column's refusal repeats them; no message may show them.
 */
const instanceStartCommand: Scenario = {
  ...instance,
  name: "Instance start command",
  ops: ["create", "update"],
  inputs: () => ({
    ...instanceInputs(),
    onstart: `#!/bin/bash\nexport HF_TOKEN=${SECRET_VALUES.onstartToken}\necho ready`,
    argsStr: `--token ${SECRET_VALUES.argsToken} --port 8000`,
  }),
  updateInputs: (outs) => ({
    ...pickInputs(outs, ["offerId", "image", "label", "argsStr"]),
    onstart: `#!/bin/bash\nexport HF_TOKEN=${SECRET_VALUES.onstartToken}\necho ready again`,
  }),
  targets: { ...instance.targets, update: { method: "PUT", path: "/api/v0/instances/update_template/*" } },
  compare: (live, entry) => differs("onstart", onstartScript(String(live.view.onstart ?? "")), entry.outs.onstart),
};

/** Issue 34: `wake` starts an instance (its guard stopped it): one state change, never two. */
const instanceWake: Scenario = {
  ...instance,
  name: "Instance wake",
  ops: ["update"],
  inputs: () => ({ ...instanceInputs(), autostop: { idleMinutes: 30 }, wake: "1" }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["offerId", "image", "label", "autostop"]), wake: "2" }),
  // Its guard stopped it (the call the guard makes) before the update that wakes it.
  settle: async (_rig, entries) => {
    for (const e of entries) await getClient().instances.stop(Number(e.id));
  },
  targets: { ...instance.targets, update: { method: "PUT", path: "/api/v0/instances/*" } },
};

/**
 * Issue 33 item 5: an Instance with a volume it creates (`volume.createNew`). Its delete
 * destroys the instance, then deletes the volume (kit/instance-volumes.ts): a volume delete
 * that fails keeps the entry (with `createdVolumeId`), whose next destroy finds the instance
 * gone and deletes the volume. Live objects are the account's instances and volumes; an entry
 * claims its instance, then its volume, in the order its delete removes them.
 */
const instanceVolume: Scenario = {
  ...instance,
  name: "Instance created volume",
  ops: ["delete"],
  inputs: () => ({ ...instanceInputs(), volume: { createNew: true, volumeId: 900001, size: 20, mountPath: "/data" } }),
  live: (state, baseline) => {
    const seed = ids(baseline.volumes as { id: unknown }[]);
    return [
      ...state.instances.map((i) => ({ key: `instance ${str(i.id)}`, view: i })),
      ...state.volumes.filter((v) => !seed.has(String(v.id))).map((v) => ({ key: `volume ${str(v.id)}`, view: v })),
    ];
  },
  claims: (entry) => [`instance ${entry.id}`, ...(typeof entry.outs.createdVolumeId === "number" ? [`volume ${entry.outs.createdVolumeId}`] : [])],
  compare: (live, entry) => (live.key.startsWith("instance ") ? differs("label", live.view.label, entry.outs.label) : []),
  // Only the delete is faulted; a lifecycle elsewhere (the secrets scan) updates it too, keeping the volume.
  updateInputs: (outs) => ({ ...instance.updateInputs(outs), volume: outs.volume }),
  deletesInOrder: true,
  // The step the fast profile faults: the volume's delete, after the instance is destroyed (the full profile faults every call of the delete).
  targets: { ...instance.targets, delete: { method: "DELETE", path: "/api/v0/volumes" } },
  // The set-up recorded the volume it made: a delete without that id could not be judged.
  settle: async (_rig, entries) => {
    for (const e of entries) if (typeof e.outs.createdVolumeId !== "number") throw new Error(`Instance ${e.id} recorded no createdVolumeId`);
  },
};

/** SSH keys of an instance: attach an added key, detach a removed one (the account's keys are prepared). */
const instanceSshAttach: Scenario = {
  ...instance,
  name: "Instance ssh attach",
  ops: ["update"],
  prepare: async () => {
    const client = getClient();
    const a = await client.sshKeys.create(ed25519PublicKey("reliability@attach-a"));
    const b = await client.sshKeys.create(ed25519PublicKey("reliability@attach-b"));
    return { a: a.id, b: b.id };
  },
  inputs: (c) => ({ ...instanceInputs(), sshKeyIds: [c.a] }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["offerId", "image", "label"]), sshKeyIds: [...((outs.sshKeyIds as number[]) ?? []), ...extraKey(outs)] }),
  targets: { ...instance.targets, update: { method: "POST", path: "/api/v0/instances/*/ssh" } },
  compare: (live, entry) => attachedDiffers(live, entry),
};

const instanceSshDetach: Scenario = {
  ...instanceSshAttach,
  name: "Instance ssh detach",
  inputs: (c) => ({ ...instanceInputs(), sshKeyIds: [c.a, c.b] }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["offerId", "image", "label"]), sshKeyIds: ((outs.sshKeyIds as number[]) ?? []).slice(0, 1) }),
  targets: { ...instance.targets, update: { method: "DELETE", path: "/api/v0/instances/*/ssh/*" } },
};

/** The second prepared key, added by the attach row's update. */
function extraKey(outs: Props): number[] {
  const ids = (outs.sshKeyIds as number[]) ?? [];
  return [ids[0] + 1];
}

/** Every key the state lists is attached on the service (the service may attach more: account keys at create). */
function attachedDiffers(live: LiveObject, entry: Entry): string[] {
  const attached = (live.view.ssh_key_ids as number[]) ?? [];
  const missing = ((entry.outs.sshKeyIds as number[]) ?? []).filter((k) => !attached.includes(Number(k)));
  return missing.length > 0 ? [`ssh keys: state lists ${JSON.stringify(missing)} that are not attached`] : [];
}

const sshKey: Scenario = {
  name: "SshKey",
  provider: driven("sshKey"),
  prepare: async () => ({ first: ed25519PublicKey("reliability@a"), second: ed25519PublicKey("reliability@b") }),
  inputs: (c) => ({ publicKey: c.first }),
  updateInputs: () => ({ publicKey: ed25519PublicKey("reliability@b") }),
  targets: {
    create: { method: "POST", path: "/api/v0/ssh" },
    read: { method: "GET", path: "/api/v0/ssh" },
    update: { method: "PUT", path: "/api/v0/ssh/*" },
    delete: { method: "DELETE", path: "/api/v0/ssh/*" },
  },
  live: (state) => state.sshKeys.map((k) => ({ key: String(k.id), view: k as unknown as Record<string, unknown> })),
  claims: (entry) => [entry.id],
  compare: (live, entry) => differs("key", live.view.key, entry.outs.publicKey),
};

/** The id of the key registered outside the program in the current cell, before the run that takes it over. */
let outsideKeyId = "";

const sshKeyImport: Scenario = {
  ...sshKey,
  name: "SshKey import",
  ops: ["create"],
  // The takeover (importId) sends no create: it lists the keys and writes the declared text in place.
  prepare: async () => {
    outsideKeyId = String((await getClient().sshKeys.create(ed25519PublicKey("outside@import"))).id);
    return { id: outsideKeyId };
  },
  inputs: (c) => ({ publicKey: ed25519PublicKey("reliability@b"), importId: c.id }),
  targets: { ...sshKey.targets, create: { method: "PUT", path: "/api/v0/ssh/*" } },
  // The outside key existed before the run, so whether state claims it is judged by verify;
  // any other live key is one the takeover must never have made.
  live: (state) => sshKey.live(state, state).filter((k) => k.key !== outsideKeyId),
  claims: () => [],
  verify: async (_rig, entries, state) => {
    const outside = state.sshKeys.find((k) => String(k.id) === outsideKeyId);
    if (!outside) return ["the outside key is gone: a takeover must never delete it"];
    const problems: string[] = [];
    for (const e of entries) {
      if (e.id !== outsideKeyId) problems.push(`state holds ${e.id}, not the outside key ${outsideKeyId}`);
      // A takeover whose write failed records what the service showed (the next up writes again).
      else if (e.outs.publicKey !== outside.key) problems.push(`the outside key holds ${JSON.stringify(outside.key)}, state reports ${JSON.stringify(e.outs.publicKey)}`);
    }
    return problems;
  },
};

const WEEK_MS = 7 * 24 * 3600 * 1000;

const maintenanceWindow: Scenario = {
  name: "MaintenanceWindow",
  provider: driven("maintenanceWindow"),
  prepare: async () => ({ start: new Date(Math.floor((Date.now() + WEEK_MS) / 1000) * 1000).toISOString() }),
  inputs: (c) => ({ machineIds: [SEED.hostedMachineIds[0], SEED.hostedMachineIds[1]], startTime: c.start, durationHours: 2, category: "disk" }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["machineIds", "startTime", "durationHours", "category"]), allowPartial: true }),
  targets: {
    create: { method: "POST", path: "/api/v0/machines/maintenances/batch" },
    read: { method: "GET", path: "/api/v0/machines/maintenances" },
    update: null,
    delete: { method: "DELETE", path: "/api/v0/machines/maintenances/batch" },
  },
  live: (state) => state.maintenances.map((m) => ({ key: String(m.id), view: m })),
  claims: (entry) => (Array.isArray(entry.outs.maintenanceIds) ? entry.outs.maintenanceIds.map(String) : []),
  compare: (live, entry) => {
    const machines = Array.isArray(entry.outs.scheduledMachineIds) ? entry.outs.scheduledMachineIds : [];
    return machines.includes(live.view.machine_id) ? [] : [`machine ${str(live.view.machine_id)} is not among the reported ${JSON.stringify(machines)}`];
  },
};

const envVar: Scenario = {
  name: "EnvVar",
  provider: driven("envVar"),
  inputs: () => ({ key: "RELIABILITY_TOKEN", value: SECRET_VALUES.envVarValue }),
  updateInputs: (outs) => ({ key: outs.key, value: SECRET_VALUES.envVarValueUpdated }),
  targets: {
    create: { method: "POST", path: "/api/v0/secrets" },
    read: { method: "GET", path: "/api/v0/secrets" },
    update: { method: "PUT", path: "/api/v0/secrets" },
    delete: { method: "DELETE", path: "/api/v0/secrets" },
  },
  live: (state) => state.secrets.filter((s) => s.user_id === SEED.user.id).map((s) => ({ key: s.name, view: s })),
  claims: (entry) => [entry.id],
  compare: () => [],
};

const apiKey: Scenario = {
  name: "ApiKey",
  provider: driven("apiKey"),
  inputs: () => ({ name: "reliability-ci", permissions: { instances: "write" } }),
  updateInputs: (outs) => pickInputs(outs, ["name", "permissions"]),
  targets: {
    create: { method: "POST", path: "/api/v0/auth/apikeys" },
    read: { method: "GET", path: "/api/v0/auth/apikeys" },
    update: null,
    delete: { method: "DELETE", path: "/api/v0/auth/apikeys/*" },
  },
  live: (state, baseline) => {
    const seed = ids(baseline.apiKeys);
    return state.apiKeys
      .filter((k) => k.user_id === SEED.user.id && !seed.has(String(k.id)))
      .map((k) => ({ key: String(k.id), view: k as unknown as Record<string, unknown> }));
  },
  claims: (entry) => [entry.id],
  // With an identity the service holds the name with the create's marker (see ApiKey in docs/account-and-teams.md).
  compare: (live, entry) => differs("name", live.view.name, entry.outs.nameMarker ? `${str(entry.outs.name)} [${str(entry.outs.nameMarker)}]` : entry.outs.name),
  secretsOf: (entry) => (typeof entry.outs.key === "string" ? [entry.outs.key] : []),
  verify: async (rig, entries) => {
    const problems: string[] = [];
    for (const e of entries) {
      const user = await whoIs(rig, str(e.outs.key));
      if (user !== SEED.user.id) problems.push(`key ${e.id}: the reported key value does not authenticate`);
    }
    return problems;
  },
};

const SUBACCOUNT = SEED.subaccounts[0].userId;

const subaccountKeyRotation: Scenario = {
  name: "SubaccountKeyRotation",
  provider: driven("subaccountKeyRotation"),
  inputs: () => ({ subaccountUserId: SUBACCOUNT, triggers: "2030-01" }),
  updateInputs: (outs) => pickInputs(outs, ["subaccountUserId", "triggers"]),
  targets: { create: { method: "PUT", path: "/api/v0/subaccounts/regenerate_keys" }, read: null, update: null, delete: null },
  live: () => [],
  claims: () => [],
  compare: () => [],
  secretsOf: (entry) => ((entry.outs.regeneratedKeys ?? []) as { derivedKey: string }[]).map((k) => k.derivedKey),
  // The keys of a rotation must be the ones that work; a rotation nobody holds the keys of locks the subaccount out.
  verify: async (rig, entries, state, before) => {
    const problems: string[] = [];
    const keyIdOf = (s: StateView) => s.apiKeys.find((k) => k.user_id === SUBACCOUNT && k.primary)?.id;
    for (const e of entries) {
      const keys = (e.outs.regeneratedKeys ?? []) as { userId: number; derivedKey: string }[];
      for (const k of keys) if ((await whoIs(rig, k.derivedKey)) !== k.userId) problems.push(`the reported key of user ${k.userId} does not authenticate`);
    }
    if (entries.length === 0 && keyIdOf(state) !== keyIdOf(before)) problems.push(`the key of user ${SUBACCOUNT} was rotated but no state holds the new value`);
    return problems;
  },
};

const rsyncCopy: Scenario = {
  name: "RsyncCopy",
  provider: driven("rsyncCopy"),
  prepare: async () => {
    const client = getClient();
    const src = await client.instances.create(SEED.offerIds[1], { image: "alpine" });
    const dst = await client.instances.create(SEED.offerIds[2], { image: "alpine" });
    return { src: src.id, dst: dst.id };
  },
  inputs: (c) => ({ srcId: c.src, dstId: c.dst, srcPath: "/workspace/out/", dstPath: "/models/", triggers: "1" }),
  updateInputs: (outs) => pickInputs(outs, ["srcId", "dstId", "srcPath", "dstPath", "triggers"]),
  // Two instances: the copy goes through copy_direct, as the vendor's client sends it.
  targets: { create: { method: "PUT", path: "/api/v0/commands/copy_direct" }, read: null, update: null, delete: null },
  live: () => [],
  claims: () => [],
  compare: () => [],
};

/** Issue 27 item 1: a role of the key's team (the team made first); edited in place by id, removed by name. */
const teamRole: Scenario = {
  name: "TeamRole",
  provider: driven("teamRole"),
  prepare: async () => {
    await getClient().teams.create({ name: "reliability-team" });
    return {};
  },
  inputs: () => ({ name: "reliability-dev", permissions: { instances: "write", user: "read" } }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["name"]), permissions: { instances: "read" } }),
  targets: {
    create: { method: "POST", path: "/api/v0/team/roles" },
    read: { method: "GET", path: "/api/v0/team/roles/*" },
    update: { method: "PUT", path: "/api/v0/team/roles/*" },
    delete: { method: "DELETE", path: "/api/v0/team/roles/*" },
  },
  live: (state) => (state.teamRoles ?? []).filter((r) => !r.built_in).map((r) => ({ key: String(r.id), view: r as unknown as Record<string, unknown> })),
  claims: (entry) => [entry.id],
  compare: (live, entry) => [...differs("name", live.view.name, entry.outs.name), ...differs("scopes", (live.view.scopes as string[]).join(","), ((entry.outs.scopes ?? []) as string[]).join(","))],
};

/** Volume and NetworkVolume: one list and one delete serve both kinds; the service's name carries the marker. */
function volumeScenario(name: "Volume" | "NetworkVolume", offerId: number, kind: "local_volume" | "network_volume", createPath: string): Scenario {
  return {
    name,
    provider: driven(name === "Volume" ? "volume" : "networkVolume"),
    inputs: () => ({ offerId, sizeGb: 20, name: "reliability" }),
    // Every input change replaces a volume: the update the engine can run is a code-only one.
    updateInputs: (outs) => pickInputs(outs, ["offerId", "sizeGb", "name"]),
    targets: {
      create: { method: "PUT", path: createPath },
      read: { method: "GET", path: "/api/v0/volumes" },
      update: null,
      delete: { method: "DELETE", path: "/api/v0/volumes" },
    },
    live: (state) => state.volumes.filter((v) => v.type === kind).map((v) => ({ key: String(v.id), view: v })),
    claims: (entry) => [entry.id],
    compare: (live, entry) => [
      ...differs("label", live.view.label, entry.outs.serviceName),
      ...differs("label marker", str(live.view.label).endsWith(` [${str(entry.outs.nameMarker)}]`), true),
      ...differs("disk_space", live.view.disk_space, entry.outs.sizeGb),
    ],
  };
}

const volume = volumeScenario("Volume", 900001, "local_volume", "/api/v0/volumes");
const networkVolume = volumeScenario("NetworkVolume", 950001, "network_volume", "/api/v0/network_volumes");

/** VolumeListing (27.4): disk on a hosted machine listed for volumes; the price changes in place. */
const volumeListing: Scenario = {
  name: "VolumeListing",
  provider: driven("volumeListing"),
  inputs: () => ({ machineId: SEED.hostedMachineIds[7], sizeGb: 120, pricePerGbMonth: 0.09 }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["machineId", "sizeGb", "endDate"]), pricePerGbMonth: 0.11 }),
  targets: {
    create: { method: "POST", path: "/api/v0/volumes" },
    read: { method: "POST", path: "/api/v0/volumes/search" },
    update: { method: "POST", path: "/api/v0/volumes" },
    delete: { method: "POST", path: "/api/v0/volumes/unlist" },
  },
  live: (state) => (state.volumeListings ?? []).filter((l) => l.user_id === SEED.user.id && l.kind === "local").map((l) => ({ key: String(l.machine_id), view: l as unknown as Record<string, unknown> })),
  claims: (entry) => [entry.id],
  compare: (live, entry) => [
    ...differs("price_disk", live.view.price_disk, entry.outs.pricePerGbMonth),
    ...differs("size", live.view.size, entry.outs.sizeGb),
    ...differs("id", live.view.id, entry.outs.listingId),
  ],
};

/** NetworkVolumeListing (issue 33 item 3): space on a network disk the account hosts, listed for volumes. */
const networkVolumeListing: Scenario = {
  name: "NetworkVolumeListing",
  provider: driven("networkVolumeListing"),
  inputs: () => ({ diskId: SEED.hostNetworkDisks[0].id, sizeGb: 500, pricePerGbMonth: 0.1 }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["diskId", "sizeGb", "endDate"]), pricePerGbMonth: 0.12 }),
  targets: {
    create: { method: "POST", path: "/api/v0/network_volumes" },
    read: { method: "POST", path: "/api/v0/network_volumes/search" },
    update: { method: "POST", path: "/api/v0/network_volumes" },
    delete: { method: "POST", path: "/api/v0/network_volumes/unlist" },
  },
  live: (state) => (state.volumeListings ?? []).filter((l) => l.user_id === SEED.user.id && l.kind === "network").map((l) => ({ key: String(l.disk_id), view: l as unknown as Record<string, unknown> })),
  claims: (entry) => [entry.id],
  compare: (live, entry) => [
    ...differs("price_disk", live.view.price_disk, entry.outs.pricePerGbMonth),
    ...differs("size", live.view.size, entry.outs.sizeGb),
    ...differs("id", live.view.id, entry.outs.listingId),
  ],
};

const endpoint: Scenario = {
  name: "Endpoint",
  provider: driven("endpoint"),
  inputs: () => ({ name: "reliability-llm", maxWorkers: 4 }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["name"]), maxWorkers: 8 }),
  targets: {
    create: { method: "POST", path: "/api/v0/endptjobs" },
    read: { method: "GET", path: "/api/v0/endptjobs" },
    update: { method: "PUT", path: "/api/v0/endptjobs/*" },
    delete: { method: "DELETE", path: "/api/v0/endptjobs/*" },
  },
  live: (state) => state.endpoints.map((e) => ({ key: String(e.id), view: e })),
  claims: (entry) => [entry.id],
  compare: (live, entry) => [...differs("endpoint_name", live.view.endpoint_name, entry.outs.name), ...differs("max_workers", live.view.max_workers, entry.outs.maxWorkers)],
  // The endpoint's API key, listed by the service, is kept as a secret output.
  secretsOf: (entry) => (typeof entry.outs.apiKey === "string" ? [entry.outs.apiKey] : []),
};

const workerGroup: Scenario = {
  name: "WorkerGroup",
  provider: driven("workerGroup"),
  prepare: async () => ({ endpointId: String(await getClient().endpointGroups.create({ name: "reliability-groups" })) }),
  inputs: (c) => ({ endpointId: c.endpointId, searchParams: "gpu_ram>=23 num_gpus=1", testWorkers: 2 }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["endpointId", "searchParams", "testWorkers"]), coldWorkers: 3 }),
  targets: {
    create: { method: "POST", path: "/api/v0/workergroups" },
    read: { method: "GET", path: "/api/v0/workergroups" },
    update: { method: "PUT", path: "/api/v0/workergroups/*" },
    delete: { method: "DELETE", path: "/api/v0/workergroups/*" },
  },
  live: (state) => state.workerGroups.map((g) => ({ key: String(g.id), view: g })),
  claims: (entry) => [entry.id],
  // The service holds the search as sent: the user's terms and the vendor's defaults added (issue 26 item 3).
  compare: (live, entry) => differs("search_params", live.view.search_params, workerGroupSearchParams(entry.outs.searchParams as string)),
  // Workers are instances of the account: none may outlive its group.
  verify: async (_rig, _entries, state) => {
    const groups = new Set(state.workerGroups.flatMap((g) => g.worker_ids));
    return state.instances
      .filter((i) => typeof i.label === "string" && i.label.startsWith("workergroup-") && !groups.has(i.id as number))
      .map((i) => `worker instance ${str(i.id)} outlived its group`);
  },
};

const webhook: Scenario = {
  name: "Webhook",
  provider: driven("webhook"),
  inputs: () => ({ name: "reliability-ops", url: "https://ops.example.com/vast", eventTypes: ["client:low_credit"], rotateSecretTrigger: 1 }),
  // A new URL (the PUT) and a new trigger (the rotation): the update carries both effects.
  updateInputs: (outs) => ({ ...pickInputs(outs, ["name", "eventTypes"]), url: "https://ops.example.com/v2", rotateSecretTrigger: 2 }),
  targets: {
    create: { method: "POST", path: "/api/v0/webhooks" },
    read: { method: "GET", path: "/api/v0/webhooks" },
    update: { method: "PUT", path: "/api/v0/webhooks/*" },
    delete: { method: "DELETE", path: "/api/v0/webhooks/*" },
  },
  live: (state) => (state.webhooks ?? []).filter((w) => w.user_id === SEED.user.id).map((w) => ({ key: String(w.id), view: w as unknown as Record<string, unknown> })),
  claims: (entry) => [entry.id],
  compare: (live, entry) => [
    ...differs("name", live.view.name, entry.outs.nameMarker ? `${str(entry.outs.name)} [${str(entry.outs.nameMarker)}]` : entry.outs.name),
    ...differs("webhook_url", live.view.webhook_url, entry.outs.url),
  ],
  secretsOf: (entry) => (typeof entry.outs.secret === "string" ? [entry.outs.secret] : []),
  // The secret in state must be the one that signs the webhook's deliveries.
  verify: async (rig, entries) => {
    const problems: string[] = [];
    for (const e of entries) {
      const res = await fetch(`${rig.sim.url}/_sim/webhooks/${e.id}/verify-secret`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ secret: str(e.outs.secret) }),
      });
      const answer = (await res.json()) as { matches?: boolean };
      if (answer.matches !== true) problems.push(`webhook ${e.id}: the reported secret is not the webhook's signing secret`);
    }
    return problems;
  },
};

/** Cluster (27.2): nothing changes in place; the update is the provider's code only. */
const cluster: Scenario = {
  name: "Cluster",
  provider: driven("cluster"),
  inputs: () => ({ subnet: "10.77.0.0/24", managerMachineId: SEED.hostedMachineIds[5] }),
  updateInputs: (outs) => pickInputs(outs, ["subnet", "managerMachineId"]),
  targets: {
    create: { method: "POST", path: "/api/v0/cluster" },
    read: { method: "GET", path: "/api/v0/clusters" },
    update: null,
    delete: { method: "DELETE", path: "/api/v0/cluster" },
  },
  live: (state) => (state.clusters ?? []).filter((c) => c.user_id === SEED.user.id).map((c) => ({ key: String(c.id), view: c as unknown as Record<string, unknown> })),
  claims: (entry) => [entry.id],
  compare: (live, entry) => [...differs("subnet", live.view.subnet, entry.outs.subnet), ...differs("manager_id", live.view.manager_id, entry.outs.managerMachineId)],
};

/** Overlay (27.2) on a cluster the scenario makes first; nothing changes in place. */
const overlay: Scenario = {
  name: "Overlay",
  provider: driven("overlay"),
  prepare: async () => {
    const client = getClient();
    const machine = SEED.hostedMachineIds[6];
    let found = (await client.clusters.list()).find((c) => c.managerId === machine);
    if (!found) {
      await client.clusters.create("10.78.0.0/24", machine);
      found = (await client.clusters.list()).find((c) => c.managerId === machine);
    }
    return { clusterId: found?.id };
  },
  inputs: (c) => ({ clusterId: c.clusterId, name: "reliability-net" }),
  updateInputs: (outs) => pickInputs(outs, ["clusterId", "name"]),
  targets: {
    create: { method: "POST", path: "/api/v0/overlay" },
    read: { method: "GET", path: "/api/v0/overlay" },
    update: null,
    delete: { method: "DELETE", path: "/api/v0/overlay" },
  },
  live: (state) => (state.overlays ?? []).filter((o) => o.user_id === SEED.user.id).map((o) => ({ key: String(o.id), view: o as unknown as Record<string, unknown> })),
  claims: (entry) => [entry.id],
  compare: (live, entry) => [...differs("name", live.view.name, entry.outs.name), ...differs("cluster_id", live.view.cluster_id, entry.outs.clusterId)],
};

/** ScheduledJob (issue 27 item 3): a nightly reboot of an instance the scenario rents, moved an hour by the update. */
const scheduledJob: Scenario = {
  name: "ScheduledJob",
  provider: driven("scheduledJob"),
  prepare: async () => ({ instanceId: (await getClient().instances.create(700003, { image: "alpine", label: "reliability-sched" })).id }),
  inputs: (c) => ({ instanceId: c.instanceId, action: "reboot", frequency: "DAILY", hour: 3, timeZone: "Europe/Berlin", end: "2099-01-01T00:00:00Z" }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["instanceId", "action", "frequency", "timeZone", "end"]), hour: 4 }),
  targets: {
    create: { method: "POST", path: "/api/v0/commands/schedule_job" },
    read: { method: "GET", path: "/api/v0/commands/schedule_job" },
    update: { method: "PUT", path: "/api/v0/commands/schedule_job/*" },
    delete: { method: "DELETE", path: "/api/v0/commands/schedule_job/*" },
  },
  live: (state) => (state.scheduledJobs ?? []).filter((j) => j.user_id === SEED.user.id).map((j) => ({ key: String(j.id), view: j })),
  claims: (entry) => [entry.id],
  compare: (live, entry) => [...differs("hour_of_the_day", live.view.hour_of_the_day, entry.outs.hourUtc), ...differs("api_endpoint", live.view.api_endpoint, entry.outs.apiEndpoint)],
};

/** Team (issue 27 item 1): the key's team; its name cannot change, so the update is code only. */
const team: Scenario = {
  name: "Team",
  provider: driven("team"),
  inputs: () => ({ name: "reliability-team" }),
  updateInputs: (outs) => pickInputs(outs, ["name", "transferCredit"]),
  targets: {
    create: { method: "POST", path: "/api/v0/team" },
    // The team is seen through its role list (the service has no read of a team).
    read: { method: "GET", path: "/api/v0/team/roles-full" },
    update: null,
    delete: { method: "DELETE", path: "/api/v0/team" },
  },
  live: (state) => (state.teams ?? []).filter((t) => t.user_id === SEED.user.id).map((t) => ({ key: t.name, view: t as unknown as Record<string, unknown> })),
  claims: (entry) => [entry.id],
  compare: (live, entry) => differs("name", live.view.name, entry.outs.name),
};

const INVITED = "reliability-member@example.com";

/**
 * TeamMember (issue 27 item 1), invited to the key's team (made first). A pending invitation
 * and an accepted membership both count as the member's live object; read and delete act on
 * a member who accepted (a pending invitation cannot be withdrawn: docs/account-and-teams.md).
 */
const teamMember: Scenario = {
  name: "TeamMember",
  provider: driven("teamMember"),
  prepare: async () => {
    await getClient().teams.create({ name: "reliability-team" });
    return {};
  },
  inputs: () => ({ email: INVITED, role: "member" }),
  updateInputs: (outs) => pickInputs(outs, ["email", "role"]),
  settle: async (rig) => {
    const res = await fetch(`${rig.sim.url}/_sim/team/invitations/accept`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: INVITED }) });
    if (!res.ok) throw new Error(`accepting the invitation failed: HTTP ${res.status}`);
  },
  targets: {
    create: { method: "POST", path: "/api/v0/team/invite" },
    read: { method: "GET", path: "/api/v0/team/members" },
    update: null,
    delete: { method: "DELETE", path: "/api/v0/team/members/*" },
  },
  live: (state) => [
    ...(state.teamInvitations ?? []).filter((i) => i.user_id === SEED.user.id && !i.accepted).map((i) => ({ key: i.email.toLowerCase(), view: { ...i, status: "invited" } })),
    ...(state.teamMembers ?? []).filter((m) => m.user_id === SEED.user.id && m.role !== "owner").map((m) => ({ key: m.email.toLowerCase(), view: { ...m, status: "member" } })),
  ],
  claims: (entry) => [entry.id],
  // An acceptance since the last refresh is seen only by the next refresh: state saying
  // "invited" of a member is as of that refresh; "member" of a pending invitation never is.
  compare: (live, entry) => [
    ...differs("role", live.view.role, entry.outs.role),
    ...(entry.outs.status === "member" ? differs("status", live.view.status, entry.outs.status) : []),
  ],
};

/** Subaccount (issue 27 item 1). Its delete sends nothing and leaves the account (the service has no call): no delete row. */
const subaccount: Scenario = {
  name: "Subaccount",
  ops: ["create", "read", "update"],
  provider: driven("subaccount"),
  inputs: () => ({ email: "reliability-bot@example.com", username: "reliability-bot", password: SECRET_VALUES.subaccountPassword }),
  updateInputs: (outs) => pickInputs(outs, ["email", "username", "password", "hostOnly"]),
  targets: {
    create: { method: "POST", path: "/api/v0/users" },
    read: { method: "GET", path: "/api/v0/subaccounts" },
    update: null,
    delete: null,
  },
  live: (state, baseline) => {
    const seed = ids(baseline.subaccounts ?? []);
    return (state.subaccounts ?? []).filter((u) => u.parent_id === SEED.user.id && !seed.has(String(u.id))).map((u) => ({ key: String(u.id), view: u as unknown as Record<string, unknown> }));
  },
  claims: (entry) => [entry.id],
  compare: (live, entry) => [...differs("email", live.view.email, entry.outs.email), ...differs("username", live.view.username, entry.outs.username)],
};

const LISTED_MACHINE = SEED.hostedMachineIds[3];

/** MachineListing (issue 27 item 4): a listing of a hosted machine; the update raises the price (all terms again). */
const machineListing: Scenario = {
  name: "MachineListing",
  provider: driven("machineListing"),
  inputs: () => ({ machineId: LISTED_MACHINE, pricePerGpu: 0.45, minBidPerGpu: 0.25, storagePricePerGbMonth: 0.12 }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["machineId", "minBidPerGpu", "storagePricePerGbMonth"]), pricePerGpu: 0.5 }),
  targets: {
    create: { method: "PUT", path: "/api/v0/machines/create_asks" },
    read: { method: "GET", path: "/api/v0/machines" },
    update: { method: "PUT", path: "/api/v0/machines/create_asks" },
    delete: { method: "DELETE", path: "/api/v0/machines/*/asks" },
  },
  live: (state) => (state.machineListings ?? []).filter((l) => l.listed === true).map((l) => ({ key: String(l.machine_id), view: l })),
  claims: (entry) => [entry.id],
  compare: (live, entry) => [...differs("listed_gpu_cost", live.view.listed_gpu_cost, entry.outs.pricePerGpu), ...differs("min_bid_price", live.view.min_bid_price, entry.outs.minBidPerGpu)],
};

/** The minimum bid alone changes through its own call (`PUT minbid`). */
const machineListingMinBid: Scenario = {
  ...machineListing,
  name: "MachineListing minbid",
  ops: ["update"],
  updateInputs: (outs) => ({ ...pickInputs(outs, ["machineId", "pricePerGpu", "storagePricePerGbMonth"]), minBidPerGpu: 0.3 }),
  targets: { ...machineListing.targets, update: { method: "PUT", path: "/api/v0/machines/*/minbid" } },
};

/** The default job: set with the listing (`PUT create_bids`), removed with it (`DELETE defjob`). */
const machineListingDefaultJob: Scenario = {
  ...machineListing,
  name: "MachineListing defjob",
  ops: ["create", "delete"],
  inputs: () => ({ ...machineListing.inputs({}), defaultJob: { image: "vastai/idle", pricePerGpu: 0.1 } }),
  targets: { ...machineListing.targets, create: { method: "PUT", path: "/api/v0/machines/create_bids" }, delete: { method: "DELETE", path: "/api/v0/machines/*/defjob" } },
  // A live default job must be the one state records. The reverse is allowed: a delete removes
  // the default job before it unlists, and one that fails in between leaves the listing (in
  // state, with its default job) for the next destroy to finish; the service shows no default
  // job on a machine, so no read could tell.
  compare: (live, entry) => {
    const job = (live.view.defjob as { image?: string } | null)?.image;
    return [...machineListing.compare(live, entry), ...(job === undefined ? [] : differs("defjob image", job, (entry.outs.defaultJob as { image?: string } | undefined)?.image))];
  },
  // A listing gone with its default job left behind still serves the idle job.
  verify: async (_rig, entries, state) =>
    (state.machineListings ?? []).filter((l) => l.defjob && !entries.some((e) => e.id === String(l.machine_id))).map((l) => `machine ${l.machine_id} keeps a default job no state holds`),
};

/** A cluster of the account's own (manager machine `manager`), made without faults. */
async function ownCluster(manager: number, subnet: string): Promise<number> {
  const client = getClient();
  let found = (await client.clusters.list()).find((c) => c.managerId === manager);
  if (!found) {
    await client.clusters.create(subnet, manager);
    found = (await client.clusters.list()).find((c) => c.managerId === manager);
  }
  if (!found) throw new Error(`no cluster with manager ${manager} after creating one`);
  return found.id;
}

/** ClusterMember (27.2): a hosted machine joined to a cluster made first; nothing changes in place. */
const clusterMember: Scenario = {
  name: "ClusterMember",
  provider: driven("clusterMember"),
  prepare: async () => ({ clusterId: await ownCluster(SEED.hostedMachineIds[5], "10.79.0.0/24") }),
  inputs: (c) => ({ clusterId: c.clusterId, machineId: SEED.hostedMachineIds[7] }),
  updateInputs: (outs) => pickInputs(outs, ["clusterId", "machineId"]),
  targets: {
    create: { method: "PUT", path: "/api/v0/cluster" },
    read: { method: "GET", path: "/api/v0/clusters" },
    update: null,
    delete: { method: "DELETE", path: "/api/v0/cluster/remove_machine" },
  },
  // Every machine of the account's clusters but their managers.
  live: (state) =>
    (state.clusters ?? [])
      .filter((c) => c.user_id === SEED.user.id)
      .flatMap((c) => c.machine_ids.filter((m) => m !== c.manager_id).map((m) => ({ key: `${c.id}/${m}`, view: { cluster_id: c.id, machine_id: m } }))),
  claims: (entry) => [entry.id],
  compare: () => [],
};

/**
 * OverlayMember (27.2): an instance joined to an overlay made first. Its delete sends nothing
 * (the service has no call to leave an overlay; docs/clusters.md, OverlayMember): no delete row.
 */
const overlayMember: Scenario = {
  name: "OverlayMember",
  ops: ["create", "read", "update"],
  provider: driven("overlayMember"),
  prepare: async () => {
    const client = getClient();
    // An instance joins an overlay of its machine's cluster: the overlay is on a market cluster.
    const site = SEED.marketClusters[0];
    await client.clusters.createOverlay(site.id, "reliability-net");
    const instance = await client.instances.create(site.offerIds[1], { image: "alpine", label: "reliability-overlay" });
    return { instanceId: instance.id };
  },
  inputs: (c) => ({ overlayName: "reliability-net", instanceId: c.instanceId }),
  updateInputs: (outs) => pickInputs(outs, ["overlayName", "instanceId"]),
  targets: {
    create: { method: "PUT", path: "/api/v0/overlay" },
    read: { method: "GET", path: "/api/v0/overlay" },
    update: null,
    delete: null,
  },
  live: (state) =>
    (state.overlays ?? []).filter((o) => o.user_id === SEED.user.id).flatMap((o) => o.instance_ids.map((i) => ({ key: `${o.id}/${i}`, view: { overlay_id: o.id, instance_id: i } }))),
  claims: (entry) => [entry.id],
  compare: () => [],
};

/**
 * Instance schedule (issue 27 item 5): an interruptible instance whose office hours are two
 * scheduled jobs; the rows are its jobs (the instance itself is the Instance row's), claimed by
 * the job ids in state. The update moves the start hour (one job sent again).
 */
const instanceSchedule: Scenario = {
  name: "Instance schedule",
  provider: driven("instance"),
  inputs: () => ({ offerId: SEED.offerIds[0], image: "alpine", label: "reliability-office", bidPricePerHour: 0.25, schedule: { start: "00:00", end: "23:00", timeZone: "UTC" } }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["offerId", "image", "label", "bidPricePerHour"]), schedule: { start: "01:00", end: "23:00", timeZone: "UTC" } }),
  targets: {
    create: { method: "POST", path: "/api/v0/commands/schedule_job" },
    read: { method: "GET", path: "/api/v0/commands/schedule_job" },
    update: { method: "PUT", path: "/api/v0/commands/schedule_job/*" },
    delete: { method: "DELETE", path: "/api/v0/commands/schedule_job/*" },
  },
  live: (state) => (state.scheduledJobs ?? []).filter((j) => j.user_id === SEED.user.id).map((j) => ({ key: String(j.id), view: j })),
  claims: (entry) => Object.values((entry.outs.scheduleJobIds ?? {}) as Record<string, unknown>).map(String),
  compare: (live, entry) => differs("instance_id", live.view.instance_id, entry.id),
};

/** Fleet: one entry stands for its members; the update scales 1 -> 2 (one more rental). */
const fleet: Scenario = {
  name: "Fleet",
  provider: driven("fleet"),
  inputs: () => ({ count: 1, offer: { numGpus: 1, gpuRamGb: 24 }, image: "nvidia/cuda:12.4.1-runtime-ubuntu22.04", label: "reliability-fleet" }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["offer", "image", "label"]), count: 2 }),
  targets: {
    create: { method: "PUT", path: "/api/v0/asks/*" },
    read: { method: "GET", path: "/api/v1/instances" },
    update: { method: "PUT", path: "/api/v0/asks/*" },
    delete: { method: "DELETE", path: "/api/v0/instances/*" },
  },
  live: (state) => state.instances.map((i) => ({ key: String(i.id), view: i })),
  claims: (entry) => (Array.isArray(entry.outs.members) ? (entry.outs.members as { id: unknown }[]).map((m) => String(m.id)) : []),
  compare: (live, entry) => differs("label", live.view.label, entry.outs.label),
};

/** Issue 34: a Fleet's wake starts the members their guard stopped: one start each, never lost. */
const fleetWake: Scenario = {
  ...fleet,
  name: "Fleet wake",
  ops: ["update"],
  inputs: () => ({ ...fleet.inputs({}), autostop: { idleMinutes: 30 } }),
  updateInputs: (outs) => ({ ...pickInputs(outs, ["count", "offer", "image", "label", "autostop"]), wake: "1" }),
  settle: async (_rig, entries) => {
    for (const e of entries) for (const m of (e.outs.members ?? []) as { id: number }[]) await getClient().instances.stop(m.id);
  },
  targets: { ...fleet.targets, update: { method: "PUT", path: "/api/v0/instances/*" } },
};

export const SCENARIOS: readonly Scenario[] = [template, instance, instanceBid, instanceReboot, instanceRecycle, instancePrepay, instanceUpdateTemplate, instanceStartCommand, instanceAutostop, instanceWake, instanceVolume, instanceSshAttach, instanceSshDetach, sshKey, sshKeyImport, maintenanceWindow, envVar, apiKey, subaccountKeyRotation, rsyncCopy, volume, networkVolume, volumeListing, networkVolumeListing, endpoint, workerGroup, webhook, fleet, cluster, overlay, teamRole, scheduledJob, team, teamMember, subaccount, machineListing, machineListingMinBid, machineListingDefaultJob, clusterMember, overlayMember, instanceSchedule, fleetWake];


/** The named inputs out of a state entry (which holds inputs and outputs together). */
export function pickInputs(outs: Props, names: readonly string[]): Props {
  return Object.fromEntries(names.filter((n) => outs[n] !== undefined).map((n) => [n, outs[n]]));
}
