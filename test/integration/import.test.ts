/**
 * importId over real HTTP against the simulator, through the providers as the plugin calls
 * them: what the contract tests do not show. A declared input the service never shows is sent
 * (Template's registry password); an imported object's name carries no marker of the resource,
 * so the marker sweeps of a refresh never touch objects that share the name's marker (ApiKey,
 * Volume); a webhook taken over is renamed without a marker; an update that fails after the
 * takeover keeps the object in state (partial failure with its id).
 */
import { providers } from "../../provider/providers";
import { drive } from "./account-resources-support";
import { simControl } from "../support/control";
import { useSimulator } from "../support/simulator";

type P = Record<string, unknown>;

const h = useSimulator({ providers: true, settings: { pollIntervalMs: 5, lostResponseLookups: 2 } });

async function checked(kind: keyof typeof providers, news: P, olds: P = {}): Promise<P> {
  const { inputs, failures } = await drive(providers[kind]).check(olds, news);
  expect(failures).toEqual([]);
  return inputs as P;
}

test("Template: a declared dockerLoginPass (never shown by the service) is sent on import; nothing else is edited", async () => {
  const { template } = await h.client.templates.create({ name: "private-img", image: "registry.example.com/team/app", dockerLoginRepo: "registry.example.com", dockerLoginUser: "bot" });
  const inputs = await checked("template", { name: "private-img", image: "registry.example.com/team/app", dockerLoginPass: "pw-123456", importId: String(template.id) });
  const made = await drive(providers.template).create(inputs);
  expect(made.outs).toMatchObject({ templateId: template.id, dockerLoginRepo: "registry.example.com", dockerLoginUser: "bot", imported: true });
  // The service never shows the password: the one write is the edit that sends it, with the
  // whole template as the service holds it (26.5), so nothing else changes.
  const writes = ((await simControl(h.sim.url, "GET", "/requests")) as { method: string; path: string; body: unknown }[]).filter((r) => r.method !== "GET" && !r.path.includes("search"));
  expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /api/v0/template/", "PUT /api/v0/template/"]);
  expect(writes[1].body).toMatchObject({
    hash_id: template.hashId,
    docker_login_pass: "pw-123456",
    name: "private-img",
    image: "registry.example.com/team/app",
    docker_login_repo: "registry.example.com",
    docker_login_user: "bot",
  });
  expect(made.outs.hashId).not.toBe(template.hashId);
});

test("ApiKey: a refresh of an imported key never deletes keys that share its name's marker", async () => {
  const a = await h.client.apiKeys.create({ name: "ci [0123456789abcdef]" });
  const b = await h.client.apiKeys.create({ name: "ci [0123456789abcdef]" });
  const inputs = await checked("apiKey", { importId: String(a.id) });
  const made = await drive(providers.apiKey).create(inputs);
  expect(made.outs).toMatchObject({ name: "ci [0123456789abcdef]", keyId: a.id, imported: true });
  expect(made.outs).not.toHaveProperty("nameMarker");
  const read = await drive(providers.apiKey).read(made.id, made.outs as P);
  expect(read.id).toBe(String(a.id));
  expect((await h.client.apiKeys.list()).map((k) => k.id)).toEqual(expect.arrayContaining([a.id, b.id]));
});

test("Volume: a refresh of an imported volume never deletes volumes that share its name's marker", async () => {
  const a = await h.client.volumes.create("local", { offerId: 900001, sizeGb: 20, name: "data [0123456789abcdef]" });
  const b = await h.client.volumes.create("local", { offerId: 900001, sizeGb: 20, name: "data [0123456789abcdef]" });
  const inputs = await checked("volume", { importId: String(a.id) });
  const made = await drive(providers.volume).create(inputs);
  expect(made.outs).toMatchObject({ name: "data [0123456789abcdef]", sizeGb: 20, imported: true });
  expect(made.outs).not.toHaveProperty("nameMarker");
  await drive(providers.volume).read(made.id, made.outs as P);
  expect((await h.client.volumes.list("local")).map((v) => v.id)).toEqual(expect.arrayContaining([a.id, b.id]));
});

test("Webhook: a name declared on import is written as declared (no marker); an eventTypes the account lacks keeps the takeover as a partial failure", async () => {
  const hook = await h.client.webhooks.create({ name: "legacy", url: "https://ops.example.com/a", eventTypes: ["client:low_credit"] });
  const inputs = await checked("webhook", { name: "ops", url: "https://ops.example.com/a", eventTypes: ["client:low_credit"], importId: String(hook.id) });
  const made = await drive(providers.webhook).create(inputs);
  expect(made.outs).toMatchObject({ name: "ops", imported: true, webhookId: hook.id });
  expect((await h.client.webhooks.list()).find((w) => w.id === hook.id)?.name).toBe("ops");

  const other = await h.client.webhooks.create({ name: "other", url: "https://ops.example.com/b", eventTypes: ["client:low_credit"] });
  const bad = await checked("webhook", { url: "https://ops.example.com/b", eventTypes: ["client:no_such_type"], importId: String(other.id) });
  const error = (await drive(providers.webhook).create(bad).then(
    () => undefined,
    (e: unknown) => e,
  )) as { message: string; id?: string; properties?: P } | undefined;
  expect(error?.message).toContain(`Webhook importId "${other.id}": the webhook was taken over, but applying the declared inputs failed`);
  expect(error?.message).toContain("client:no_such_type");
  expect(error?.id).toBe(String(other.id));
  // State records what the service shows, so the next up applies the declared inputs again.
  expect(error?.properties).toMatchObject({ importId: String(other.id), imported: true, url: "https://ops.example.com/b", eventTypes: ["client:low_credit"] });
  const retry = await drive(providers.webhook).diff(String(other.id), error?.properties ?? {}, bad);
  expect(retry).toMatchObject({ changes: true, replaces: [] });
  // The takeover changed nothing on the service.
  expect((await h.client.webhooks.list()).find((w) => w.id === other.id)?.eventTypes).toEqual(["client:low_credit"]);
});

test("SshKey: a listing that fails fails the import clearly with nothing sent or kept; the next run takes the key over", async () => {
  const key = await h.client.sshKeys.create("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFaultFaultFaultFaultFaultFaultFaultFau0 me@host");
  const inputs = await checked("sshKey", { publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFaultFaultFaultFaultFaultFaultFaultFau0 me@host", importId: String(key.id) });
  await simControl(h.sim.url, "DELETE", "/requests");
  await simControl(h.sim.url, "POST", "/faults", { method: "GET", path: "/api/v0/ssh", status: 500, times: 20 });
  const message = await drive(providers.sshKey).create(inputs).then(
    () => "",
    (e: Error) => e.message,
  );
  expect(message).toMatch(new RegExp(`^SshKey importId "${key.id}": reading the SSH key failed, so nothing was taken over, created or changed: `));
  await simControl(h.sim.url, "DELETE", "/faults");
  const logged = (await simControl(h.sim.url, "GET", "/requests")) as { method: string }[];
  expect(logged.filter((r) => r.method !== "GET")).toEqual([]);
  const made = await drive(providers.sshKey).create(inputs);
  expect(made).toMatchObject({ id: String(key.id), outs: { keyId: key.id, imported: true } });
});
