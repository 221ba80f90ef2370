/**
 * Webhook through its provider against the simulator: the secret shown once, edits in place,
 * rotation by trigger, drift, lost responses and a killed run's webhook adopted with a rotated
 * secret, event types judged against the notification types, a signed test delivery.
 */
import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startSimulator } from "pulumi-vastai/simulator";
import { z } from "zod";
import { PermissionDeniedError, createClient } from "../../provider/client";
import { providers } from "../../provider/providers";
import { drive, failureOf } from "./account-resources-support";
import { simControl } from "../support/control";
import { pointProviders, useSimulator } from "../support/simulator";

const webhook = drive(providers.webhook);
type P = Record<string, unknown>;

const h = useSimulator({ providers: true, settings: { pollIntervalMs: 5, lostResponseLookups: 2 } });

const identity = { __identity: "proj/dev/Webhook/ops" };
const base = { url: "https://ops.example.com/vast", eventTypes: ["client:low_credit"], name: "ops" };

async function checked(news: P, olds: P = {}): Promise<P> {
  const { inputs, failures } = await webhook.check(olds, news);
  expect(failures).toEqual([]);
  return inputs as P;
}

async function created(news: P) {
  const result = await webhook.create(await checked(news));
  return { id: result.id, outs: result.outs as P };
}

/** The webhooks the simulator holds, secrets included (for checking which secret is live). */
async function live() {
  return h.sim.state().webhooks;
}

/** The secret the simulator holds for webhook `id`, through a rotation-free path: sign a test delivery. */
async function deliveredSignature(id: string): Promise<{ signature: string; body: string }> {
  let got: { signature: string; body: string } | undefined;
  const server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      got = { signature: String(req.headers["x-vast-signature-256"]), body };
      res.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  try {
    await h.client.webhooks.update(Number(id), { url });
    await h.client.webhooks.test(Number(id));
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
  if (!got) throw new Error("no delivery arrived");
  return got;
}

const sign = (secret: string, body: string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

it("creates the webhook and captures the secret shown once; the secret signs its deliveries", async () => {
  const { id, outs } = await created(base);
  expect(outs).toMatchObject({ ...base, webhookId: Number(id), adopted: false, secret: expect.stringMatching(/^whsec_[0-9a-f]{48}$/) });
  expect(outs.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  const sent = (await h.requests()).find((r) => r.method === "POST" && r.path === "/api/v0/webhooks/");
  expect(sent?.body).toEqual({ name: "ops", webhook_url: base.url, event_types: ["client:low_credit"] });
  const { signature, body } = await deliveredSignature(id);
  expect(signature).toBe(sign(String(outs.secret), body));
  expect(JSON.parse(body)).toMatchObject({ event_type: "test", webhook_id: Number(id) });
});

it("the list never carries the secret, and read keeps it from state", async () => {
  const { id, outs } = await created(base);
  const listed = await h.client.webhooks.list();
  expect(JSON.stringify(listed)).not.toContain(String(outs.secret));
  const read = await webhook.read(id, outs);
  expect(read.id).toBe(id);
  expect(read.inputs).toEqual(base);
  expect((read.props as P).secret).toBe(outs.secret);
});

it("name, url and event types change in place with one PUT of the changed fields; the secret stays", async () => {
  const { id, outs } = await created(base);
  const news = await checked({ ...base, url: "https://ops.example.com/v2", eventTypes: ["client:low_credit", "host:machine_offline"] }, outs);
  expect(await webhook.diff(id, outs, news)).toMatchObject({ changes: true, replaces: [] });
  await h.clearRequests();
  const updated = (await webhook.update(id, outs, news)).outs as P;
  const puts = (await h.requests()).filter((r) => r.method === "PUT");
  expect(puts.map((r) => [r.path, r.body])).toEqual([[`/api/v0/webhooks/${id}/`, { webhook_url: "https://ops.example.com/v2", event_types: ["client:low_credit", "host:machine_offline"] }]]);
  expect(updated.secret).toBe(outs.secret);
  expect((await live()).find((w) => String(w.id) === id)).toMatchObject({ webhook_url: "https://ops.example.com/v2", event_types: ["client:low_credit", "host:machine_offline"] });
});

it("a new rotateSecretTrigger rotates the secret in place: the new secret replaces the output and signs deliveries", async () => {
  const { id, outs } = await created({ ...base, rotateSecretTrigger: 1 });
  const news = await checked({ ...base, rotateSecretTrigger: 2 }, outs);
  expect(await webhook.diff(id, outs, news)).toMatchObject({ changes: true, replaces: [] });
  const updated = (await webhook.update(id, outs, news)).outs as P;
  expect(updated.secret).not.toBe(outs.secret);
  expect(updated.webhookId).toBe(Number(id));
  const { signature, body } = await deliveredSignature(id);
  expect(signature).toBe(sign(String(updated.secret), body));
  expect(signature).not.toBe(sign(String(outs.secret), body));
});

it("a refresh sees changes made outside Pulumi (drift), and event types in another order are no drift", async () => {
  const { id, outs } = await created({ ...base, eventTypes: ["host:machine_offline", "client:low_credit"] });
  await h.client.webhooks.update(Number(id), { eventTypes: ["client:low_credit", "host:machine_offline"] });
  expect((await webhook.read(id, outs)).inputs).toMatchObject({ eventTypes: ["host:machine_offline", "client:low_credit"] });
  await h.client.webhooks.update(Number(id), { url: "https://elsewhere.example.com/x", eventTypes: ["client:outbid"] });
  // The next refresh runs in a new plugin process: nothing listed before is cached.
  pointProviders(h, h.sim.apiKey, { pollIntervalMs: 5, lostResponseLookups: 2 });
  const read = await webhook.read(id, outs);
  expect(read.inputs).toEqual({ ...base, url: "https://elsewhere.example.com/x", eventTypes: ["client:outbid"] });
});

it("a webhook deleted outside Pulumi reads as gone; deleting it again succeeds", async () => {
  const { id, outs } = await created(base);
  await webhook.delete(id, outs);
  expect(await live()).toEqual([]);
  expect(await webhook.read(id, outs)).toEqual({ id: "" });
  await expect(webhook.delete(id, outs)).resolves.toBeUndefined();
});

it("an unknown event type is refused before anything is written, naming the nearest real one", async () => {
  const inputs = await checked({ ...base, eventTypes: ["client:low_credits"] });
  const message = await failureOf(webhook.create(inputs));
  expect(message).toMatch(/^Webhook "ops": eventTypes: "client:low_credits" is not a notification type; did you mean client:low_credit\?/);
  expect((await h.requests()).filter((r) => r.method !== "GET")).toEqual([]);
  const { id, outs } = await created(base);
  const bad = await checked({ ...base, eventTypes: ["host:machine_ofline"] }, outs);
  expect(await failureOf(webhook.update(id, outs, bad))).toMatch(/did you mean host:machine_offline\?/);
});

it("check refuses a url that is not http(s), bad event types and unknown names, naming field, rule and value", async () => {
  const failures = async (news: P) => (await webhook.check({}, news)).failures ?? [];
  expect(await failures({ ...base, url: "ftp://files.example.com/x" })).toEqual([{ property: "url", reason: 'url: must use http or https (got the scheme ftp) (got "ftp://files.example.com/…")' }]);
  expect((await failures({ ...base, url: "example.com/hook" }))[0].reason).toMatch(/^url: must be an absolute http:\/\/ or https:\/\/ URL/);
  expect((await failures({ ...base, url: "https://user:pw@example.com/" }))[0].reason).toMatch(/must not carry a user name or password/);
  expect((await failures({ ...base, eventTypes: [] }))[0].reason).toMatch(/^eventTypes: must name at least one notification type/);
  expect((await failures({ ...base, eventTypes: ["low_credit"] }))[0]).toMatchObject({ property: "eventTypes.0", reason: expect.stringMatching(/<context>:<slug>.*\(got "low_credit"\)/) });
  expect((await failures({ ...base, eventTypes: ["client:outbid", "client:outbid"] }))[0].reason).toMatch(/appears twice/);
  expect((await failures({ ...base, name: "x".repeat(102) }))[0].reason).toMatch(/^name: must be at most 101 characters/);
  expect(await failures({ ...base, eventType: ["client:outbid"] })).toEqual([{ property: "eventType", reason: "eventType is not a Webhook property; did you mean eventTypes?" }]);
});

describe("lost responses and killed runs", () => {
  it("(4) a webhook a killed run made is adopted, not duplicated, and its secret rotated so the state holds one that works", async () => {
    const inputs = await checked({ ...base, ...identity });
    const first = await webhook.create(inputs);
    // The killed run: the webhook exists, its secret never reached state.
    const again = await webhook.create(inputs);
    expect(again.id).toBe(first.id);
    const outs = again.outs as P;
    expect(outs.adopted).toBe(true);
    expect(outs.secret).not.toBe((first.outs as P).secret);
    expect(await live()).toHaveLength(1);
    expect((await live())[0].name).toBe(`ops [${String(outs.nameMarker)}]`);
    const { signature, body } = await deliveredSignature(again.id);
    expect(signature).toBe(sign(String(outs.secret), body));
  });

  it("(4) adoption brings the left webhook to the inputs of this run", async () => {
    const inputs = await checked({ ...base, ...identity });
    await webhook.create(inputs);
    const changed = await checked({ ...base, ...identity, url: "https://ops.example.com/new", eventTypes: ["client:outbid"] });
    const again = await webhook.create(changed);
    expect((await live()).map((w) => [String(w.id), w.webhook_url, w.event_types])).toEqual([[again.id, "https://ops.example.com/new", ["client:outbid"]]]);
  });

  it("a create whose answer is lost is found by its marker and adopted with a rotated secret, never sent twice", async () => {
    await h.fault({ method: "POST", path: "/api/v0/webhooks", times: 1, drop: "after" });
    const { id, outs } = await created({ ...base, ...identity });
    expect((await h.requests()).filter((r) => r.method === "POST" && r.path === "/api/v0/webhooks/")).toHaveLength(1);
    expect(outs.adopted).toBe(true);
    expect((await live()).map((w) => String(w.id))).toEqual([id]);
    const { signature, body } = await deliveredSignature(id);
    expect(signature).toBe(sign(String(outs.secret), body));
  });

  it("(5) a lost create that landed after the look-up window is deleted by the next read", async () => {
    const { id, outs } = await created({ ...base, ...identity });
    await h.client.webhooks.create({ name: `ops [${String(outs.nameMarker)}]`, url: base.url, eventTypes: base.eventTypes });
    expect(await live()).toHaveLength(2);
    const read = await webhook.read(id, outs);
    expect((read.props as P).name).toBe("ops");
    expect((await live()).map((w) => String(w.id))).toEqual([id]);
  });

  it("another resource's webhooks are left alone", async () => {
    const other = await created({ ...base, __identity: "proj/prod/Webhook/ops" });
    const mine = await created({ ...base, ...identity });
    expect(mine.id).not.toBe(other.id);
    await webhook.read(mine.id, mine.outs);
    expect((await live()).map((w) => String(w.id)).sort()).toEqual([other.id, mine.id].sort());
  });

  it("a rotation whose answer is lost is sent again: the secret in state is the one that works", async () => {
    const { id, outs } = await created({ ...base, rotateSecretTrigger: "a" });
    await h.fault({ method: "POST", path: "/api/v0/webhooks/*/rotate-secret", times: 1, drop: "after" });
    const updated = (await webhook.update(id, outs, await checked({ ...base, rotateSecretTrigger: "b" }, outs))).outs as P;
    const { signature, body } = await deliveredSignature(id);
    expect(signature).toBe(sign(String(updated.secret), body));
  });
});

describe("the simulator's webhooks", () => {
  it("a key without user_write may list but not create; one without user_read gets 403 on the list", async () => {
    const reader = await h.client.apiKeys.create({ name: "r", scopes: ["user_read"] });
    const client = h.clientWith({ apiKey: reader.key });
    await expect(client.webhooks.list()).resolves.toEqual([]);
    await expect(client.webhooks.create({ url: base.url, eventTypes: base.eventTypes })).rejects.toBeInstanceOf(PermissionDeniedError);
    const other = await h.client.apiKeys.create({ name: "i", scopes: ["instance_read"] });
    await expect(h.clientWith({ apiKey: other.key }).webhooks.list()).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it("test deliveries go to loopback addresses only, and a failing endpoint is reported", async () => {
    const made = await h.client.webhooks.create({ url: "https://example.com/hook", eventTypes: base.eventTypes });
    await expect(h.client.webhooks.test(made.id)).rejects.toThrow(/HTTP 400 delivery_refused: The simulator delivers test events only to loopback addresses/);
    await h.client.webhooks.update(made.id, { url: "http://127.0.0.1:1/closed" });
    await expect(h.client.webhooks.test(made.id)).rejects.toThrow(/delivery_failed: Test delivery failed: could not connect/);
  });

  it("refuses an unknown notification type and a non-http url with the service's 400", async () => {
    const req = (body: P) => h.client.request({ endpoint: { method: "POST", route: "/api/v0/webhooks/", base: "api", idempotent: false, intervalMs: 0 }, body, schema: z.unknown() });
    await expect(req({ webhook_url: base.url, event_types: ["client:nope"] })).rejects.toThrow(/invalid_event_types: Unknown notification type\(s\): client:nope/);
    await expect(req({ webhook_url: "gopher://x", event_types: ["client:outbid"] })).rejects.toThrow(/webhook_url must use http or https/);
  });

  it("webhooks and their secrets persist in the state file across a restart", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sim-webhooks-"));
    const file = path.join(dir, "state.json");
    try {
      const first = await startSimulator({ port: 0, bootMs: 0, stateFile: file, apiKey: "persisted-webhook-key" });
      const c1 = createClient({ apiKey: first.apiKey, apiUrl: first.url, pacing: false });
      const made = await c1.webhooks.create({ name: "kept", url: base.url, eventTypes: base.eventTypes });
      await first.close();
      const second = await startSimulator({ port: 0, bootMs: 0, stateFile: file });
      try {
        const c2 = createClient({ apiKey: second.apiKey, apiUrl: second.url, pacing: false });
        expect((await c2.webhooks.list()).map((w) => [w.id, w.name, w.url])).toEqual([[made.id, "kept", base.url]]);
        // Ids go on from where they were.
        expect((await c2.webhooks.create({ url: base.url, eventTypes: base.eventTypes })).id).toBe(made.id + 1);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a state file written before webhooks existed still loads, with none", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sim-webhooks-"));
    const file = path.join(dir, "state.json");
    try {
      const first = await startSimulator({ port: 0, bootMs: 0, stateFile: file, apiKey: "old-file-key" });
      await createClient({ apiKey: first.apiKey, apiUrl: first.url, pacing: false }).secrets.add("OLD", "v");
      await first.close();
      const saved = JSON.parse(fs.readFileSync(file, "utf8"));
      delete saved.data.webhooks;
      delete saved.data.nextIds.webhook;
      fs.writeFileSync(file, JSON.stringify(saved));
      const second = await startSimulator({ port: 0, bootMs: 0, stateFile: file });
      try {
        const c = createClient({ apiKey: second.apiKey, apiUrl: second.url, pacing: false });
        expect(await c.webhooks.list()).toEqual([]);
        expect((await c.webhooks.create({ url: base.url, eventTypes: base.eventTypes })).id).toBe(1);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("an update that fails half-way", () => {
  it("an edit made before a failed rotation is kept in state with the old secret and trigger, so the next up rotates again", async () => {
    const { id, outs } = await created({ ...base, rotateSecretTrigger: 1 });
    const news = await checked({ ...base, url: "https://ops.example.com/v2", rotateSecretTrigger: 2 }, outs);
    await h.fault({ method: "POST", path: "/api/v0/webhooks/*/rotate-secret", times: 10, status: 503 });
    const error = (await webhook.update(id, outs, news).catch((e: unknown) => e)) as Error & { id?: string; properties?: P };
    expect(error.message).toMatch(/^Webhook "ops" \(id \d+\): updating the webhook failed: POST \/api\/v0\/webhooks\/\d+\/rotate-secret\/ failed: HTTP 503 .*the secret was not rotated and still is the one in state\.$/);
    expect(error.id).toBe(id);
    expect(error.properties).toMatchObject({ url: "https://ops.example.com/v2", rotateSecretTrigger: 1, secret: outs.secret });
    expect(JSON.stringify(error.message)).not.toContain(String(outs.secret));
    await simControl(h.sim.url, "DELETE", "/faults");
    expect(await webhook.diff(id, error.properties!, news)).toMatchObject({ changes: true, replaces: [] });
    const next = (await webhook.update(id, error.properties!, news)).outs as P;
    expect(next.secret).not.toBe(outs.secret);
  });
});
