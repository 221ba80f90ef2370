/**
 * Secrets: every resource's lifecycle runs with recognizable secret values (the API key, a
 * registry password, env var values, the created API key, derived subaccount keys, the
 * instance key), then failures are provoked, some with a service that echoes every secret in
 * its error message. Everything a user can see is scanned: outputs not marked secret (against
 * each class's additionalSecretOutputs and secret inputs), the serialized providers, error
 * messages and check failures, the client's log lines, and what the client sent (outside the
 * Authorization header a secret may travel only in the body field meant for it).
 */
import * as pulumi from "@pulumi/pulumi";
import { createHash } from "node:crypto";
import { registerSecret, scrub } from "../../provider/client";
import { resolveConfig } from "../../provider/config";
import { getUser } from "../../provider/lookups";
import { getClient, resetRuntime, setClientOptions } from "../../provider/context";
import { LATER_SPEC_KEYS, SPEC_KEYS } from "../../provider/resources/fleet/inputs";
import { providers } from "../../provider/providers";
import type { ResourceKind } from "../../provider/runtime";
import { classSecrecy, type ClassSecrecy } from "./support/class-secrets";
import { checked, createVia, driven, PROVIDER_TEXT, readVia, updateVia, type Entry, type Props } from "./support/drive";
import { profile } from "./support/profile";
import { print } from "./support/report";
import { Rig, startRig, type LoggedRequest } from "./support/rig";
import { SCENARIOS, SECRET_VALUES, type Scenario } from "./support/scenarios";
import { found, requestLeaks, type Allowance, type Secret } from "./support/secret-scan";
import { guardedOnstart } from "../../provider/resources/instance/guard/script";
import { SEED } from "pulumi-vastai/simulator";
import { dynamicUrn, type ProviderPlugin } from "pulumi-vastai/testing";
import { scratchProject, startPlugin } from "../contract/harness";

const p = profile();
const ROTATED_PASSWORD = "rel-registry-pass-rotated-77c1d0";
/** Secrets that only ever stand in inputs check refuses (issue 23 item 8): never sent, never in an output. */
const CHECK_ONLY = {
  webhookPassword: "rel-hook-pass-6b1e9f",
  webhookToken: "rel-hook-token-0a7c55d2",
  launchArgsToken: "rel-launch-token-93be1c",
  argsStrToken: "rel-argsstr-token-4d0e77",
  subaccountPassword: "rel-subaccount-pass-2f9d41",
};
const PRIVATE_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nrel-private-key-material-4e2a\n-----END OPENSSH PRIVATE KEY-----";

const secrets: Secret[] = [
  { name: "API key", value: SECRET_VALUES.apiKey },
  { name: "registry password", value: SECRET_VALUES.registryPassword },
  { name: "rotated registry password", value: ROTATED_PASSWORD },
  { name: "env var value", value: SECRET_VALUES.envVarValue },
  { name: "updated env var value", value: SECRET_VALUES.envVarValueUpdated },
  { name: "template env value", value: SECRET_VALUES.templateEnvValue },
  { name: "image login password", value: SECRET_VALUES.imageLoginPassword },
  { name: "private key", value: "rel-private-key-material-4e2a" },
  { name: "webhook URL password", value: CHECK_ONLY.webhookPassword },
  { name: "webhook URL token", value: CHECK_ONLY.webhookToken },
  { name: "launchArgs token", value: CHECK_ONLY.launchArgsToken },
  { name: "argsStr token", value: CHECK_ONLY.argsStrToken },
  { name: "subaccount password", value: CHECK_ONLY.subaccountPassword },
  // 27.1: the password of a Subaccount the lifecycle creates (sent once, kept as a secret output).
  { name: "created subaccount password", value: SECRET_VALUES.subaccountPassword },
];
const CHECK_ONLY_NAMES = ["webhook URL password", "webhook URL token", "launchArgs token", "argsStr token", "subaccount password"];

const KIND: Record<string, ResourceKind> = {
  Template: "template", Instance: "instance", SshKey: "sshKey", MaintenanceWindow: "maintenanceWindow",
  EnvVar: "envVar", ApiKey: "apiKey", SubaccountKeyRotation: "subaccountKeyRotation", RsyncCopy: "rsyncCopy",
  // Instance variants of the fault matrix (one extra call each).
  "Instance bid": "instance", "Instance reboot": "instance", "Instance recycle": "instance", "Instance prepay": "instance",
  // The import variant (an outside key taken over with importId).
  "SshKey import": "sshKey",
  Volume: "volume", NetworkVolume: "networkVolume", VolumeListing: "volumeListing", NetworkVolumeListing: "networkVolumeListing",
  Endpoint: "endpoint", WorkerGroup: "workerGroup",
  Webhook: "webhook",
  ScheduledJob: "scheduledJob",
  Fleet: "fleet",
  TeamRole: "teamRole",
  Cluster: "cluster", Overlay: "overlay",
  Team: "team", TeamMember: "teamMember", Subaccount: "subaccount",
  MachineListing: "machineListing", "MachineListing minbid": "machineListing", "MachineListing defjob": "machineListing",
  ClusterMember: "clusterMember", OverlayMember: "overlayMember",
  "Instance update_template": "instance", "Instance ssh attach": "instance", "Instance ssh detach": "instance",
  "Instance schedule": "instance", "Instance start command": "instance", "Instance created volume": "instance",
  "Instance autostop": "instance", "Instance wake": "instance", "Fleet wake": "fleet",
};

let rig: Rig;
let secrecy: Record<ResourceKind, ClassSecrecy>;
const outputs: { kind: ResourceKind; phase: string; outs: Props }[] = [];
const texts: { where: string; text: string }[] = [];
const logLines: string[] = [];
const sent: LoggedRequest[] = [];
/** Secret values the service handed out. */
const issued = new Set<string>();

/** The values the service handed out become secrets to look for too. */
function learn(outs: Props): void {
  const add = (name: string, value: unknown) => {
    if (typeof value !== "string" || value.length < 8 || secrets.some((s) => s.value === value)) return;
    secrets.push({ name, value });
    issued.add(value);
  };
  add("created API key", outs.key !== undefined && outs.keyId !== undefined ? outs.key : undefined);
  add("instance API key", outs.instanceApiKey);
  add("endpoint API key", outs.endpointId !== undefined ? outs.apiKey : undefined);
  add("webhook signing secret", outs.webhookId !== undefined ? outs.secret : undefined);
  for (const k of (outs.regeneratedKeys ?? []) as { derivedKey?: string }[]) add("derived subaccount key", k.derivedKey);
}

function record(kind: ResourceKind, phase: string, entry: Entry | null): Entry | null {
  if (entry) {
    learn(entry.outs);
    outputs.push({ kind, phase, outs: entry.outs });
  }
  return entry;
}

/** Every text of an error a user may be shown: message, its causes, the text the plugin prints, and what a partial failure keeps. */
function errorTexts(where: string, error: unknown): void {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    texts.push({ where, text: `${String(e)}\n${e.stack ?? ""}` });
    const { properties, reasons } = e as { properties?: Props; reasons?: string[] };
    if (reasons) texts.push({ where: `${where} (reasons)`, text: reasons.join("\n") });
    if (properties) outputs.push({ kind: KIND[where.split(".")[0]], phase: `${where} (partial failure)`, outs: properties });
  }
}

async function attempt(where: string, run: () => Promise<unknown>): Promise<void> {
  await run().then(
    () => undefined,
    (error: unknown) => errorTexts(where, error),
  );
}

function updateInputs(s: Scenario, outs: Props): Props {
  const news = s.updateInputs(outs);
  return s.name === "Template" ? { ...news, dockerLoginPass: ROTATED_PASSWORD } : news;
}

async function lifecycle(s: Scenario): Promise<void> {
  const kind = KIND[s.name];
  const context = await fresh(s);
  const created = record(kind, "create", await createVia(s.provider, s.inputs(context)))!;
  const read = record(kind, "read", await readVia(s.provider, created)) ?? created;
  const updated = record(kind, "update", await updateVia(s.provider, read, updateInputs(s, read.outs)))!;
  await s.provider.delete(updated.id, updated.outs);
}

/** Back to the seed state (keeping what was sent so far), with the scenario's prerequisites made again. */
async function fresh(s: Scenario): Promise<Props> {
  sent.push(...(await rig.requests()));
  await rig.reset();
  return (await s.prepare?.(rig)) ?? {};
}

/** The secrets the service has seen or issued so far: the key, values sent to it, values it handed out. */
async function knownToService(): Promise<string[]> {
  const bodies = JSON.stringify([...sent, ...(await rig.requests())].map((r) => r.body));
  return secrets.filter((x) => x.name === "API key" || issued.has(x.value) || bodies.includes(x.value)).map((x) => x.value);
}

/** Create and update under faults, one of them a service that echoes every secret it knows in its error message. */
async function failures(s: Scenario): Promise<void> {
  const known = await knownToService();
  const echo = () => ({ status: 400, body: { error: "invalid_args", msg: `refused: ${known.join(" ")}` } });
  const create = s.targets.create!;
  for (const fault of [echo(), { drop: "after" as const }, { status: 503, times: 10 }]) {
    const context = await fresh(s);
    await rig.fault({ method: create.method, path: create.path, ...fault });
    await attempt(`${s.name}.create`, () => createVia(s.provider, s.inputs(context)));
  }
  const update = s.targets.update;
  if (!update) return;
  const entry = await createVia(s.provider, s.inputs(await fresh(s)));
  await rig.fault({ method: update.method, path: update.path, ...echo() });
  await attempt(`${s.name}.update`, () => updateVia(s.provider, entry, updateInputs(s, entry.outs)));
}

async function badInputs(): Promise<void> {
  const cases: [ResourceKind, Props][] = [
    ["template", { name: "", image: "i", dockerLoginPass: SECRET_VALUES.registryPassword }],
    ["envVar", { key: "bad-key", value: SECRET_VALUES.envVarValue }],
    ["instance", { offerId: 1, image: "i", env: { "bad name": SECRET_VALUES.envVarValue } }],
    ["sshKey", { publicKey: PRIVATE_KEY }],
    // An invalid env entry of a template, and one whose value is not a string.
    ["template", { name: "t", image: "i", env: { "1BAD": SECRET_VALUES.envVarValue, OK: [SECRET_VALUES.envVarValueUpdated] } }],
    // A registry password of the wrong type.
    ["template", { name: "t", image: "i", dockerLoginPass: [SECRET_VALUES.registryPassword] }],
    // An unknown property beside secret inputs: the failure names it without the inputs.
    ["instance", { offerId: 1, image: "i", env: { TOKEN: SECRET_VALUES.envVarValue }, onstart: SECRET_VALUES.registryPassword, lable: "x" }],
    // The API key passed where no input takes it, and under a misspelt name.
    ["apiKey", { name: "k", apiKey: SECRET_VALUES.apiKey }],
    ["envVar", { key: "A", vaule: SECRET_VALUES.envVarValue }],
    ["template", { name: "t", image: "i", dockerLoginPas: SECRET_VALUES.registryPassword }],
    // 23.8: a webhook URL's password and token, an overlong launchArgs and a mistyped argsStr carrying a token.
    ["webhook", { url: `https://bob:${CHECK_ONLY.webhookPassword}@hooks.example.com/vast?token=${CHECK_ONLY.webhookToken}`, eventTypes: ["client:low_credit"] }],
    ["webhook", { url: `https://hooks.example.com/vast?token=${CHECK_ONLY.webhookToken} `, eventTypes: ["client:low_credit"] }],
    ["webhook", { url: `https://hooks.example.com/${"p".repeat(2100)}?sig=${CHECK_ONLY.webhookToken}`, eventTypes: ["client:low_credit"] }],
    ["workerGroup", { endpointId: 1, searchParams: "x", launchArgs: `--hf-token ${CHECK_ONLY.launchArgsToken} ${"--flag ".repeat(700)}` }],
    ["instance", { offerId: 1, image: "i", argsStr: ["--token", CHECK_ONLY.argsStrToken] }],
    // 27.1: a subaccount's password beside a refused address, and one too long to be a password.
    ["subaccount", { email: "bot@vast.ai", username: "bot", password: CHECK_ONLY.subaccountPassword }],
    ["subaccount", { email: "bot@example.com", username: "bot", password: `${CHECK_ONLY.subaccountPassword}${"x".repeat(300)}` }],
  ];
  for (const [kind, news] of cases) {
    const { failures } = await driven(kind).check({}, news);
    expect(failures ?? []).not.toEqual([]);
    texts.push({ where: `${kind}.check`, text: (failures ?? []).map((f) => `${f.property}: ${f.reason}`).join("\n") });
  }
  // An API key that cannot be sent is refused by the configuration, naming where it came from.
  try {
    resolveConfig({}, { config: (key) => (key === "vastai:apiKey" ? `${SECRET_VALUES.apiKey}\u0007` : undefined), homeDir: "/nonexistent" });
    throw new Error("resolveConfig accepted a key with a control character");
  } catch (error) {
    errorTexts("config", error);
  }
}

beforeAll(async () => {
  secrecy = await classSecrecy({
    registryPassword: SECRET_VALUES.registryPassword,
    envVarValue: SECRET_VALUES.envVarValue,
    templateEnvValue: SECRET_VALUES.templateEnvValue,
  });
  rig = await startRig(p, { apiKey: SECRET_VALUES.apiKey });
  // As the plugin does: credentials and timing from the stack configuration, handed over by
  // configure(). The profile's polling comes the same way (issue 28 item 6): the product's
  // 10 s look-ups after a dropped create would make this set-up wait 40 s on nothing.
  resetRuntime();
  const config: Record<string, string> = {
    "vastai:apiKey": SECRET_VALUES.apiKey,
    "vastai:apiUrl": rig.sim.url,
    "vastai:runUrl": rig.sim.runUrl,
    "vastai:pollIntervalMs": String(p.pollIntervalMs),
    "vastai:lostResponseLookups": String(p.lostResponseLookups),
  };
  await providers.template.configure!({ config: { get: (key: string) => config[key] } } as unknown as pulumi.dynamic.ConfigureRequest);
  const log = (line: string) => logLines.push(line);
  setClientOptions({ timeoutMs: p.clientTimeoutMs, maxAttempts: p.maxAttempts, backoff: p.backoff, pacing: false, logger: { debug: log, warn: log } });
  for (const s of SCENARIOS) {
    await lifecycle(s);
    await failures(s);
    await fresh(s);
  }
  await badInputs();
  // The user record carries the key id and a session id: the lookup shows neither, nor any key.
  texts.push({ where: "getUser", text: JSON.stringify(await getUser()) });
}, 120_000);
afterAll(() => rig?.close());

const leaksIn = (text: string) => found(text, secrets);

it("saw every kind of secret in play, in the places meant for them", () => {
  const names = new Set(secrets.map((s) => s.name));
    for (const n of ["created API key", "derived subaccount key", "instance API key", "endpoint API key", "webhook signing secret"]) expect(names).toContain(n);
  const inSecretOutputs = outputs.flatMap((o) => [...secrecy[o.kind].secretOutputs].flatMap((k) => leaksIn(JSON.stringify(o.outs[k] ?? null))));
  expect(new Set(inSecretOutputs)).toEqual(new Set(secrets.map((s) => s.name).filter((n) => !["API key", "private key", ...CHECK_ONLY_NAMES].includes(n))));
  expect(logLines.length).toBeGreaterThan(0);
  expect(texts.length).toBeGreaterThan(SCENARIOS.length);
  // The echoing service did put secrets into error messages; the client scrubbed them.
  expect(texts.filter((t) => t.text.includes("refused: <redacted>")).length).toBeGreaterThanOrEqual(SCENARIOS.length);
});

it("shows no secret in an output the class does not mark secret", () => {
  const leaks = outputs.flatMap(({ kind, phase, outs }) =>
    Object.entries(outs)
      .filter(([name]) => !secrecy[kind].secretOutputs.has(name))
      .flatMap(([name, v]) => leaksIn(JSON.stringify(v ?? null)).map((s) => `${s} in ${kind} output ${name} (${phase})`)),
  );
  expect(leaks).toEqual([]);
});

it("(6) keeps a secret Template env value secret in every output derived from it (env, envFlags), also after a refresh", () => {
  const template = outputs.filter((o) => o.kind === "template" && !o.phase.includes("partial"));
  // The value did reach the derived outputs in each phase, so the check below can fail.
  for (const phase of ["create", "read", "update"]) {
    const outs = template.find((o) => o.phase === phase)?.outs ?? {};
    expect(String(outs.envFlags)).toContain(SECRET_VALUES.templateEnvValue);
  }
  expect([...secrecy.template.secretOutputs]).toEqual(expect.arrayContaining(["env", "envFlags", "dockerLoginPass"]));
  // The same rule for an Instance's env holding a secret Output.
  expect([...secrecy.instance.secretOutputs]).toEqual(expect.arrayContaining(["env", "instanceApiKey"]));
  // And for a Fleet's env (its members' environment).
  expect([...secrecy.fleet.secretOutputs]).toEqual(expect.arrayContaining(["env"]));
});

it("captures no secret in the serialized providers", async () => {
  const texts = Object.values(secrecy).map((c) => c.serializedProvider);
  for (const [kind, provider] of Object.entries(providers)) {
    texts.push((await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text);
    expect(texts.at(-1)).toContain(kind);
  }
  expect(texts.flatMap(leaksIn)).toEqual([]);
});

it("puts no secret in an error message, its causes or stack, or a check failure", () => {
  expect(texts.flatMap((t) => leaksIn(t.text).map((s) => `${s} in ${t.where}`))).toEqual([]);
});

it("writes no secret to the client's log", () => {
  expect(logLines.flatMap(leaksIn)).toEqual([]);
});

it("sends a secret only in the body field meant for it", () => {
  const allowed: Allowance[] = [
    ...["registry password", "rotated registry password"].flatMap((secret) =>
      ["POST", "PUT"].map((method) => ({ secret, method, path: /^\/api\/v0\/template\/?$/, field: "docker_login_pass" })),
    ),
    // The service stores env values inside the flag string of its `env` field.
    ...["POST", "PUT"].map((method) => ({ secret: "template env value", method, path: /^\/api\/v0\/template\/?$/, field: "env" })),
    ...["env var value", "updated env var value"].flatMap((secret) =>
      ["POST", "PUT"].map((method) => ({ secret, method, path: /^\/api\/v0\/secrets\/?$/, field: "value" })),
    ),
    // A private-registry login goes to the instance creation, in its own field.
    { secret: "image login password", method: "PUT", path: /^\/api\/v0\/asks\/\d+\/?$/, field: "image_login" },
    // A subaccount's password goes to its creation only.
    { secret: "created subaccount password", method: "POST", path: /^\/api\/v0\/users\/?$/, field: "password" },
  ];
  expect(requestLeaks(sent, secrets, allowed)).toEqual([]);
  print(
    `\nSecrets: ${secrets.length} secret values over ${SCENARIOS.length} resource lifecycles; scanned ${outputs.length} output sets, ` +
      `${Object.keys(secrecy).length * 2} serialized providers, ${texts.length} error and check texts, ${logLines.length} log lines, ` +
      `${sent.length} requests: no leak`,
  );
});

describe("issue 23 item 8: secrets the scan above does not reach", () => {
  const SHORT = "k9Tz4q";
  // The scans above take seconds without a request: the first call after them may meet the
  // simulator closing the idle keep-alive connection (ECONNRESET), and is sent once more.
  const reset = () => rig.reset().catch(() => rig.reset());

  it("23.8 hides a short secret (under 8 characters) the service echoes, in errors and in retry warnings", async () => {
    await reset();
    const client = getClient();
    await client.secrets.add("SHORT_SECRET", SHORT);
    const from = logLines.length;
    await rig.fault({ method: "GET", path: "/api/v0/secrets", status: 503, times: 1, body: { error: "busy", msg: `busy with ${SHORT}, try later` } });
    await client.secrets.list();
    await rig.fault({ method: "PUT", path: "/api/v0/secrets", status: 400, body: { error: "invalid_args", msg: `refused: ${SHORT}.` } });
    const error = await client.secrets.update("SHORT_SECRET", SHORT).then(() => undefined, (e: unknown) => e as Error);
    const warnings = logLines.slice(from).filter((l) => l.includes("attempt 1 failed"));
    // The echo did reach both texts (the check below can fail), with the secret hidden.
    expect(warnings.join("\n")).toContain("busy with <redacted>, try later");
    expect(error?.message).toContain("refused: <redacted>.");
    expect([...warnings, error?.message ?? ""].filter((t) => t.includes(SHORT))).toEqual([]);
  });

  it("23.8 hides short secrets as whole tokens only, and leaves digits and setting words readable (the documented rule)", () => {
    for (const s of ["on", "8080", "true", "zq7x"]) registerSecret(s);
    expect(scrub("turn on port 8080: must be true or false")).toBe("turn on port 8080: must be true or false");
    expect(scrub('{"value":"8080"} and PORT=8080')).toBe('{"value":"<redacted>"} and PORT=<redacted>');
    expect(scrub("refused zq7x; kept xzq7xy and zq7x_1")).toBe("refused <redacted>; kept xzq7xy and zq7x_1");
  });

  /** What a reader of the plain state computes to test a guess: the digest of the spec inputs with the guessed env. */
  function plainDigest(outs: Props, env: Record<string, string>): string {
    const props: Props = { ...outs, env };
    const unset = (k: string) => LATER_SPEC_KEYS.includes(k) && (props[k] === undefined || props[k] === null);
    const picked = SPEC_KEYS.filter((k) => !unset(k)).map((k) => [k, props[k] ?? null]);
    return createHash("sha256").update(JSON.stringify(picked)).digest("hex").slice(0, 12);
  }
  const FLEET_SECRET = "rel-fleet-env-secret-5e1d";
  const fleetInputs = { count: 1, offer: { numGpus: 1, gpuRamGb: 24 }, image: "nvidia/cuda:12.4.1-runtime-ubuntu22.04", env: { HF_TOKEN: FLEET_SECRET } };

  it("23.8 a Fleet's plain members[].spec cannot confirm a guessed env value: it is keyed with a secret output", async () => {
    await reset();
    const fleet = driven("fleet");
    const entry = await createVia(fleet, fleetInputs);
    const specs = (entry.outs.members as { spec: string }[]).map((m) => m.spec);
    expect(specs).toHaveLength(1);
    expect(specs[0]).not.toBe(plainDigest(entry.outs, { HF_TOKEN: FLEET_SECRET }));
    // The key is in state as a secret output only.
    expect(entry.outs.specKey).toEqual(expect.stringMatching(/^[0-9a-f]{64}$/));
    expect([...secrecy.fleet.secretOutputs]).toContain("specKey");
    await fleet.delete(entry.id, entry.outs);
  });

  it("23.8 a Fleet made by the previous release (plain digests, no key) takes a key at its next update without a roll", async () => {
    await reset();
    const fleet = driven("fleet");
    const made = await createVia(fleet, fleetInputs);
    // State as the previous release wrote it.
    const { specKey: _key, ...previous } = made.outs;
    previous.members = (made.outs.members as Props[]).map((m) => ({ ...m, spec: plainDigest(made.outs, fleetInputs.env) }));
    const before = (await rig.liveState()).instances.map((i) => i.id);
    const news = await checked(fleet, previous, { __provider: PROVIDER_TEXT, ...fleetInputs });
    expect((await fleet.diff(made.id, previous, news)).changes).toBe(false);
    const { outs } = await fleet.update(made.id, previous, news);
    const after = (await rig.liveState()).instances.map((i) => i.id);
    expect(after).toEqual(before);
    expect((outs!.members as Props[]).map((m) => m.id)).toEqual((previous.members as Props[]).map((m) => m.id));
    expect(outs!.specKey).toEqual(expect.stringMatching(/^[0-9a-f]{64}$/));
    expect((outs!.members as { spec: string }[])[0].spec).not.toBe(plainDigest(made.outs, fleetInputs.env));
    // And the next run sees nothing to do.
    expect((await fleet.diff(made.id, outs as Props, news)).changes).toBe(false);
    await fleet.delete(made.id, outs as Props);
  });
});

describe("issue 34: an instance's own key (instance_api_key, injected as CONTAINER_API_KEY)", () => {
  const reset = () => rig.reset().catch(() => rig.reset());

  it("34.5 stays in the create result only: not in the guard's onstart, the rows, the client's log, an error echoing it, or the simulator's state", async () => {
    await reset();
    const client = getClient();
    const from = logLines.length;
    const onstart = guardedOnstart("echo ready", {
      apiUrl: rig.sim.url,
      autostop: { idleMinutes: 30, gpuUtilBelowPercent: 5, action: "stop" },
      expiresAt: "2030-01-01T00:00:00Z",
    });
    const created = await client.instances.create(SEED.offerIds[0], { image: "pytorch/pytorch", onstart, label: "guarded" });
    const key = created.instanceApiKey ?? "";
    // The service did issue one (so the scans below can fail), and it is the instance's own.
    expect(key).toMatch(/^[0-9a-f]{48}$/);
    expect(await client.instances.get(created.id).then((i) => i?.id)).toBe(created.id);
    const row = await client.instances.get(created.id);
    await rig.fault({ method: "GET", path: `/api/v0/instances/${created.id}`, status: 400, body: { error: "invalid_args", msg: `refused: ${key}` } });
    const error = await client.instances.get(created.id).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain("refused: ");
    // The onstart sent names the key by its variable only.
    const requests = await rig.requests();
    const sentOnstart = requests.find((r) => r.method === "PUT" && r.path.startsWith("/api/v0/asks/"))?.body as { onstart?: string };
    expect(sentOnstart.onstart).toContain("$CONTAINER_API_KEY");
    const seen = [JSON.stringify(row), `${error?.message}\n${error?.stack}`, logLines.slice(from).join("\n"), JSON.stringify(requests), JSON.stringify(await rig.liveState())];
    expect(seen.filter((t) => t.includes(key))).toEqual([]);
    expect(scrub(`key ${key} here`)).not.toContain(key);
  });
});

describe("issue 33 item 4: what a request sent, echoed back in the answer's error text", () => {
  const reset = () => rig.reset().catch(() => rig.reset());
  /** Parts of a start script, arguments and a webhook address that no message may show. */
  const PARTS = {
    hfToken: "rel-echo-hf-token-5b20c7",
    pat: "rel-echo-pat-91d4aa",
    unicode: "ключ-rel-echo-3e7f",
    quoted: "rel-echo-quoted-c0f1'x\\y",
    args: "rel-echo-args-token-64be02",
    launch: "rel-echo-launch-token-0d93f1",
    hookPath: "rel-echo-hook-path-7c5e18",
    hookQuery: "rel-echo-hook-query-a24d96",
  };
  const SCRIPT = [
    "#!/bin/bash",
    "set -e",
    `export HF_TOKEN=${PARTS.hfToken}`,
    `git clone https://oauth2:${PARTS.pat}@git.example.com/team/model.git /workspace/model`,
    `python3 -c "print('${PARTS.unicode}')" --secret '${PARTS.quoted}'`,
    "echo ready",
  ].join("\n");
  const ARGS = `--hf-token ${PARTS.args} --port 8000`;
  const HOOK = `https://hooks.slack.com/services/T0A1B2C3D/B4E5F6G7H/${PARTS.hookPath}?sig=${PARTS.hookQuery}`;
  const shown = (text: string) => Object.entries(PARTS).filter(([, v]) => text.includes(v) || text.includes(v.slice(0, 16))).map(([k]) => k);
  const ascii = (t: string) => t.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const pythonRepr = (t: string) => `'${t.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/'/g, "\\'")}'`;
  const failure = (run: () => Promise<unknown>) =>
    run().then(
      () => {
        throw new Error("the call succeeded: the fault did not answer it");
      },
      (e: unknown) => e as Error & { initFailure?: { reasons: string[] } },
    );
  const textOf = (e: Error & { initFailure?: { reasons: string[] } }) => `${String(e)}\n${e.stack ?? ""}\n${(e.initFailure?.reasons ?? []).join("\n")}`;

  it("33.4 hides a start script and arguments an Instance create's refusal echoes, in every form an answer carries them (over HTTP)", async () => {
    await reset();
    const client = getClient();
    const create = () => client.instances.create(SEED.offerIds[0], { image: "pytorch/pytorch", onstart: SCRIPT, argsStr: ARGS, label: "echo" });
    const refusal = (msg: string) => ({ status: 400, body: { error: "invalid_args", msg } });
    const oneLine = SCRIPT.replace(/\s+/g, " ");
    const answers = [
      { echo: "onstart" },
      { echo: "args_str" },
      { echo: "*" },
      refusal(`invalid request: ${ascii(JSON.stringify({ onstart: SCRIPT, args_str: ARGS }))}`),
      refusal(`invalid request: {'onstart': ${pythonRepr(SCRIPT)}, 'args_str': ${pythonRepr(ARGS)}}`),
      // A service that cuts what it repeats: the cut line shows nothing of its token either.
      refusal(`invalid onstart: ${oneLine.slice(0, oneLine.indexOf(PARTS.hfToken) + 12)}`),
      refusal(`line 4 failed: git clone https://oauth2:${PARTS.pat}@git.example.com/team/model.git`),
      refusal(`unknown argument ${PARTS.args}`),
      // The same echo at HTTP 200 with success=false.
      { status: 200, body: { success: false, error: "invalid_args", msg: `bad onstart ${SCRIPT}` } },
    ];
    const messages: string[] = [];
    for (const answer of answers) {
      await rig.fault({ method: "PUT", path: "/api/v0/asks/*", ...answer });
      messages.push(textOf(await failure(create)));
    }
    // Each answer did echo (the service's text reached the message: the check below can fail), hidden.
    expect(messages.filter((m) => !m.includes("<redacted>"))).toEqual([]);
    expect(messages.map(shown)).toEqual(messages.map(() => []));
    // A retried call's warning in the log hides it too.
    const made = await client.instances.create(SEED.offerIds[0], { image: "pytorch/pytorch", label: "echo-update" });
    const from = logLines.length;
    await rig.fault({ method: "PUT", path: "/api/v0/instances/update_template/*", status: 503, times: 1, body: { error: "busy", msg: `busy applying ${SCRIPT}` } });
    await client.instanceActions.updateTemplate(made.id, { onstart: SCRIPT, argsStr: ARGS });
    const warnings = logLines.slice(from).filter((l) => l.includes("attempt 1 failed"));
    expect(warnings.join("\n")).toContain("busy applying <redacted>");
    expect(shown(warnings.join("\n"))).toEqual([]);
  });

  describe("through the real plugin", () => {
    let plugin: ProviderPlugin;
    beforeAll(async () => {
      plugin = await startPlugin({ "vastai:apiKey": SECRET_VALUES.apiKey, "vastai:apiUrl": rig.sim.url, "vastai:runUrl": rig.sim.runUrl });
    }, 300_000);
    afterAll(() => plugin?.close());
    const urn = (type: string, name: string) => dynamicUrn("dev", "proj", type, name);
    const withProvider = (kind: string, props: Props): Props => ({ __provider: scratchProject().serialized[kind], ...props });
    async function checkedVia(type: string, kind: string, name: string, props: Props, olds: Props = {}): Promise<Props> {
      const { inputs, failures } = await plugin.check(urn(type, name), olds, withProvider(kind, props));
      expect(failures).toEqual([]);
      return inputs;
    }

    it("33.4 Instance create and in-place update, Template create and WorkerGroup create refused with an echo show none of the script or arguments", async () => {
      await reset();
      const messages: Record<string, string> = {};
      const instanceProps = { offerId: SEED.offerIds[0], image: "pytorch/pytorch", label: "echo", onstart: SCRIPT, argsStr: ARGS };
      await rig.fault({ method: "PUT", path: "/api/v0/asks/*", echo: "*" });
      const inputs = await checkedVia("Instance", "instance", "echo", instanceProps);
      messages["Instance create"] = textOf(await failure(() => plugin.create(urn("Instance", "echo"), inputs)));

      const plain = await checkedVia("Instance", "instance", "echo2", { offerId: SEED.offerIds[0], image: "pytorch/pytorch", label: "echo2" });
      const made = await plugin.create(urn("Instance", "echo2"), plain);
      const changed = await checkedVia("Instance", "instance", "echo2", { offerId: SEED.offerIds[0], image: "pytorch/pytorch", label: "echo2", onstart: SCRIPT }, plain);
      await rig.fault({ method: "PUT", path: "/api/v0/instances/update_template/*", echo: "onstart" });
      messages["Instance update"] = textOf(await failure(() => plugin.update(urn("Instance", "echo2"), made.id, made.properties, changed)));
      // Its offer is free again for the tests after this one (the plugin process's claims outlive a simulator reset).
      await plugin.delete(urn("Instance", "echo2"), made.id, made.properties);

      const template = await checkedVia("Template", "template", "echo", { name: "echo", image: "pytorch/pytorch", onstart: SCRIPT, argsStr: ARGS });
      await rig.fault({ method: "POST", path: "/api/v0/template", echo: "*" });
      messages["Template create"] = textOf(await failure(() => plugin.create(urn("Template", "echo"), template)));

      const endpointId = String(await getClient().endpointGroups.create({ name: "echo-groups" }));
      const group = await checkedVia("WorkerGroup", "workerGroup", "echo", { endpointId, searchParams: "gpu_ram>=23 num_gpus=1", launchArgs: `--token ${PARTS.launch}` });
      await rig.fault({ method: "POST", path: "/api/v0/workergroups", echo: "launch_args" });
      messages["WorkerGroup create"] = textOf(await failure(() => plugin.create(urn("WorkerGroup", "echo"), group)));

      // Each refusal reached the message (so the scan can fail), with what was sent hidden.
      for (const [where, text] of Object.entries(messages)) expect([where, /invalid (request|onstart|launch_args): /.test(text)]).toEqual([where, true]);
      expect(Object.entries(messages).map(([where, text]) => [where, shown(text)])).toEqual(Object.keys(messages).map((where) => [where, []]));
    });

    it("33.4 an Instance whose container cannot start, the service's status repeating its arguments, fails without showing them", async () => {
      await reset();
      const statusMsg = `OCI runtime create failed: runc create failed: exec: "${ARGS}": executable file not found in $PATH`;
      await rig.control("POST", "/next-boot", { actual_status: "created", status_msg: statusMsg });
      const inputs = await checkedVia("Instance", "instance", "dead", { offerId: SEED.offerIds[0], image: "pytorch/pytorch", label: "dead", argsStr: ARGS, onstart: SCRIPT });
      const text = textOf(await failure(() => plugin.create(urn("Instance", "dead"), inputs)));
      // The service's text reached the message (so the scan can fail), with the arguments hidden.
      expect(text).toContain("OCI runtime create failed: runc create failed: exec: \"<redacted>\"");
      expect(shown(text)).toEqual([]);
    });

    it("33.4 a Fleet whose member cannot start, the service's status repeating its arguments, fails without showing them", async () => {
      await reset();
      const statusMsg = `OCI runtime create failed: runc create failed: exec: "${ARGS}": executable file not found in $PATH`;
      await rig.control("POST", "/next-boot", { actual_status: "created", status_msg: statusMsg });
      const props = { count: 1, offer: { numGpus: 1, gpuRamGb: 24 }, image: "pytorch/pytorch", argsStr: ARGS, __identity: "proj/dev/Fleet/dead" };
      const inputs = await checkedVia("Fleet", "fleet", "dead", props);
      const text = textOf(await failure(() => plugin.create(urn("Fleet", "dead"), inputs)));
      expect(text).toContain("OCI runtime create failed: runc create failed: exec: \"<redacted>\"");
      expect(shown(text)).toEqual([]);
    });

    it("33.4 an Instance's statusMsg output that repeats its arguments keeps them out of state, at create and at refresh", async () => {
      await reset();
      await rig.control("POST", "/next-boot", { actual_status: "running", status_msg: `started: ${ARGS}` });
      const inputs = await checkedVia("Instance", "instance", "status", { offerId: SEED.offerIds[0], image: "pytorch/pytorch", label: "status", argsStr: ARGS });
      const made = await plugin.create(urn("Instance", "status"), inputs);
      const read = await plugin.read(urn("Instance", "status"), made.id, made.properties, inputs);
      // The service's message reached the outputs (the scan can fail), without the arguments.
      expect([made.properties.statusMsg, read.properties.statusMsg]).toEqual(["started: <redacted>", "started: <redacted>"]);
      await plugin.delete(urn("Instance", "status"), made.id, read.properties);
    });

    it("33.4 a webhook URL holding a token shows as scheme://host/… in a check failure and an echoed refusal, and is a secret in state", async () => {
      await reset();
      const withUser = HOOK.replace("https://", `https://bot:${PARTS.hookQuery}@`);
      const refused = await plugin.check(urn("Webhook", "echo"), {}, withProvider("webhook", { url: withUser, eventTypes: ["client:low_credit"] }));
      const reasons = refused.failures.map((f) => f.reason).join("\n");
      expect(reasons).toContain("https://hooks.slack.com/…");
      expect(shown(reasons)).toEqual([]);
      expect(reasons).not.toContain("T0A1B2C3D");

      const inputs = await checkedVia("Webhook", "webhook", "echo", { url: HOOK, eventTypes: ["client:low_credit"] });
      await rig.fault({ method: "POST", path: "/api/v0/webhooks", echo: "webhook_url" });
      const text = textOf(await failure(() => plugin.create(urn("Webhook", "echo"), inputs)));
      expect(text).toContain("invalid webhook_url: https://hooks.slack.com/…");
      expect(shown(text)).toEqual([]);
      expect(text).not.toContain("T0A1B2C3D");
      // The class keeps the whole address secret in state, as input and as output.
      expect([...secrecy.webhook.secretOutputs]).toContain("url");
    });
  });
});
