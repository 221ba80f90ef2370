/**
 * Issue 23 item 5: a wrong server's success is not believed. A delete answered `200 {}` or
 * `204` (no body) is not the service's documented success: it counts only when a read
 * afterwards shows the object gone. A read answered `200 {}` is an error, never "gone".
 * Against the simulator over HTTP, whose fault injection serves the wrong shapes.
 */
import { providers } from "pulumi-vastai";
import { SEED } from "pulumi-vastai/simulator";
import { DeleteNotConfirmedError, type VastClient } from "../../provider/client";
import { drive, failureOf, type Driven } from "./account-resources-support";
import { useSimulator } from "../support/simulator";
import { main } from "../../provider/cli/main";
import { INSTANCE_MARKER_ENV as MARKER_ENV } from "../../provider/cli/orphans";
import { GENERATION_KEY, IDENTITY_KEY, identityMarker, stackIdentityOf, stackTagOf } from "../../provider/resources/kit/create-once";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

type Props = Record<string, unknown>;
const PROVIDER = "serialized-provider-text";
const h = useSimulator({ providers: true, settings: { pollIntervalMs: 5, lostResponseLookups: 2, liveCacheTtlMs: 0 } });

const SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHx0cnVzdC1hbnN3ZXJzLXRlc3Qta2V5LW1hdGVyaWFsIHh4 answers@test";

/** One live object of a kind, deleted through the client, and how to see whether it is still there. */
interface Kind {
  kind: string;
  route: { method: string; path: string };
  make(c: VastClient): Promise<number | string>;
  remove(c: VastClient, id: number | string): Promise<{ alreadyGone: boolean }>;
  exists(c: VastClient, id: number | string): Promise<boolean>;
}

const KINDS: Kind[] = [
  {
    kind: "instance",
    route: { method: "DELETE", path: "/api/v0/instances/*" },
    make: async (c) => (await c.instances.create(SEED.offerIds[0], { image: "ubuntu:22.04" })).id,
    remove: (c, id) => c.instances.destroy(Number(id)),
    exists: async (c, id) => (await c.instances.list()).some((i) => i.id === id),
  },
  {
    kind: "sshKey",
    route: { method: "DELETE", path: "/api/v0/ssh/*" },
    make: async (c) => (await c.sshKeys.create(SSH_KEY)).id,
    remove: (c, id) => c.sshKeys.delete(Number(id)),
    exists: async (c, id) => (await c.sshKeys.list()).some((k) => k.id === id),
  },
  {
    kind: "envVar",
    route: { method: "DELETE", path: "/api/v0/secrets" },
    make: async (c) => {
      await c.secrets.add("ANSWERS_TOKEN", "answers-value-1234");
      return "ANSWERS_TOKEN";
    },
    remove: (c, id) => c.secrets.delete(String(id)),
    exists: async (c, id) => Object.keys(await c.secrets.list()).includes(String(id)),
  },
  {
    kind: "apiKey",
    route: { method: "DELETE", path: "/api/v0/auth/apikeys/*" },
    make: async (c) => (await c.apiKeys.create({ name: "answers-key" })).id,
    remove: (c, id) => c.apiKeys.delete(Number(id)),
    exists: async (c, id) => (await c.apiKeys.list()).some((k) => k.id === id),
  },
  {
    kind: "template",
    route: { method: "DELETE", path: "/api/v0/template" },
    make: async (c) => Number((await c.templates.create({ name: "answers", image: "ubuntu", tag: "22.04" })).template.id),
    remove: (c, id) => c.templates.delete(Number(id)),
    exists: async (c, id) => (await c.templates.search({ id: { eq: Number(id) } })).some((t) => t.id === id),
  },
  {
    kind: "volume",
    route: { method: "DELETE", path: "/api/v0/volumes" },
    make: async (c) => Number((await c.volumes.create("local", { offerId: 900001, sizeGb: 20, name: "answers" })).id),
    remove: (c, id) => c.volumes.delete(Number(id)),
    exists: async (c, id) => (await c.volumes.list()).some((v) => v.id === id),
  },
  {
    kind: "networkVolume",
    route: { method: "DELETE", path: "/api/v0/volumes" },
    make: async (c) => Number((await c.volumes.create("network", { offerId: 950001, sizeGb: 20, name: "answers" })).id),
    remove: (c, id) => c.volumes.delete(Number(id)),
    exists: async (c, id) => (await c.volumes.list("network")).some((v) => v.id === id),
  },
  {
    kind: "endpoint",
    route: { method: "DELETE", path: "/api/v0/endptjobs/*" },
    make: (c) => c.endpointGroups.create({ name: "answers-llm", maxWorkers: 2 }),
    remove: (c, id) => c.endpointGroups.delete(Number(id)),
    exists: async (c, id) => (await c.endpointGroups.list()).some((e) => e.id === id),
  },
  {
    kind: "workerGroup",
    route: { method: "DELETE", path: "/api/v0/workergroups/*" },
    make: async (c) => c.workerGroups.create({ endpointId: await c.endpointGroups.create({ name: "answers-wg" }), searchParams: "gpu_ram>=23" }),
    remove: (c, id) => c.workerGroups.delete(Number(id)),
    exists: async (c, id) => (await c.workerGroups.list()).some((g) => g.id === id),
  },
  {
    kind: "webhook",
    route: { method: "DELETE", path: "/api/v0/webhooks/*" },
    make: async (c) => (await c.webhooks.create({ name: "answers", url: "https://ops.example.com/hook", eventTypes: ["client:low_credit"] })).id,
    remove: (c, id) => c.webhooks.delete(Number(id)),
    exists: async (c, id) => (await c.webhooks.list()).some((w) => w.id === id),
  },
];

const WRONG_SUCCESS = [
  { name: "200 {}", status: 200, body: {} },
  { name: "204 without a body", status: 204, body: "" },
];

describe("23.5 a delete counts only with the documented answer or a read that shows it gone", () => {
  for (const k of KINDS) {
    for (const w of WRONG_SUCCESS) {
      it(`23.5 ${k.kind}: a delete answered ${w.name} that deleted nothing fails clearly and the object stays`, async () => {
        const id = await k.make(h.client);
        await h.fault({ ...k.route, times: 1, status: w.status, body: w.body });
        const error = await k.remove(h.client, id).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DeleteNotConfirmedError);
        expect((error as Error).message).toContain(`answered HTTP ${w.status}`);
        expect((error as Error).message).toMatch(/documented success/);
        expect((error as Error).message).toMatch(/may still exist/);
        expect(await k.exists(h.client, id)).toBe(true);
      });
    }

    it(`23.5 ${k.kind}: a delete answered 200 {} of an object a read shows gone counts`, async () => {
      const id = await k.make(h.client);
      await k.remove(h.client, id);
      await h.fault({ ...k.route, times: 1, status: 200, body: {} });
      await expect(k.remove(h.client, id)).resolves.toBeDefined();
      expect(await k.exists(h.client, id)).toBe(false);
    });
  }
});

/** A resource made through its provider, and the list reads a refresh of it goes through. */
interface Read {
  kind: string;
  provider: Driven;
  reads: string[];
  make(): Promise<{ id: string; props: Props }>;
}

async function made(p: Driven, news: Props): Promise<{ id: string; props: Props }> {
  const { inputs, failures } = await p.check({}, { __provider: PROVIDER, ...news });
  expect(failures ?? []).toEqual([]);
  const { id, outs } = await p.create(inputs as Props);
  return { id, props: outs as Props };
}

const READS: Read[] = [
  {
    kind: "EnvVar",
    provider: drive(providers.envVar),
    reads: ["/api/v0/secrets"],
    make: () => made(drive(providers.envVar), { key: "ANSWERS_READ", value: "answers-read-1234" }),
  },
  {
    kind: "Endpoint",
    provider: drive(providers.endpoint),
    reads: ["/api/v0/endptjobs"],
    make: () => made(drive(providers.endpoint), { name: "answers-read" }),
  },
  {
    kind: "WorkerGroup",
    provider: drive(providers.workerGroup),
    reads: ["/api/v0/workergroups", "/api/v0/endptjobs"],
    make: async () => made(drive(providers.workerGroup), { endpointId: String(await h.client.endpointGroups.create({ name: "answers-read" })), searchParams: "gpu_ram>=23" }),
  },
  {
    kind: "Webhook",
    provider: drive(providers.webhook),
    reads: ["/api/v0/webhooks"],
    make: () => made(drive(providers.webhook), { name: "answers", url: "https://ops.example.com/vast", eventTypes: ["client:low_credit"] }),
  },
  {
    kind: "Instance",
    provider: drive(providers.instance),
    reads: ["/api/v0/instances/*", "/api/v1/instances", "/api/v0/instances"],
    make: async () => ({ id: String((await h.client.instances.create(SEED.offerIds[0], { image: "ubuntu:22.04" })).id), props: {} }),
  },
];

describe("23.5 a read answered 200 {} is an error, never 'gone'", () => {
  for (const r of READS) {
    it(`23.5 ${r.kind}: a refresh whose reads all answer 200 {} fails and keeps the object in state`, async () => {
      const { id, props } = await r.make();
      for (const path of r.reads) await h.fault({ method: "GET", path, times: 50, status: 200, body: {} });
      const message = await failureOf(r.provider.read(id, props));
      expect(message).toMatch(/GET \/api\/v[01]\/\S+ returned a response the client cannot read/);
    });
  }

  it("23.5 Instance: a single read answered {} is settled by the list: the live instance stays in state, unchanged", async () => {
    const { id: instanceId } = await h.client.instances.create(SEED.offerIds[0], { image: "ubuntu:22.04" });
    await h.fault({ method: "GET", path: "/api/v0/instances/*", times: 50, status: 200, body: {} });
    await expect(h.client.instances.get(instanceId)).resolves.toMatchObject({ id: instanceId });
    await h.client.instances.destroy(instanceId);
    await expect(h.client.instances.get(instanceId)).resolves.toBeNull();
  });
});

describe("23.5 the orphan report does not count a delete answered 200 {}", () => {
  it("23.5 orphans --delete against deletes answered 200 {} reports them not deleted and exits 1", async () => {
    // An orphan of one stack, whose (empty) state scopes the --delete (issue 23 item 4).
    const nonce = "0123456789abcdef0123456789abcdef";
    const marker = identityMarker({ [IDENTITY_KEY]: stackIdentityOf(nonce, "Instance", "lost"), [GENERATION_KEY]: 1 }) as string;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "orphans-200-"));
    const state = path.join(dir, "stack.json");
    fs.writeFileSync(
      state,
      JSON.stringify({
        version: 3,
        // Written 20 minutes after the objects below (the report keeps what is newer than its export).
        deployment: { manifest: { time: new Date(Date.now() + 20 * 60_000).toISOString() }, resources: [{ urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/vastai:StackIdentity::stack", custom: true, type: "pulumi-nodejs:dynamic/vastai:StackIdentity", id: stackTagOf(nonce), outputs: { nonce } }] },
      }),
    );
    const { id: instanceId } = await h.client.instances.create(SEED.offerIds[0], { image: "ubuntu:22.04", env: { [MARKER_ENV]: marker } });
    const volume = await h.client.volumes.create("local", { offerId: 900001, sizeGb: 10, name: `data [${marker}]` });
    await h.fault({ method: "DELETE", path: "/api/v0/instances/*", times: 5, status: 200, body: {} });
    await h.fault({ method: "DELETE", path: "/api/v0/volumes", times: 5, status: 204, body: "" });
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t), client: h.client, now: () => Date.now() + 30 * 60_000, sleep: async () => undefined };
    const code = await main(["orphans", "--delete", "--yes", state], io);
    fs.rmSync(dir, { recursive: true, force: true });
    const text = out.join("\n");
    expect(text).not.toMatch(/Deleted \d/);
    expect(text).toMatch(/answered HTTP 200 with \{\} instead of the documented success/);
    expect(text).toMatch(/0 of 2 seen gone; 2 not deleted or still present/);
    expect(code).not.toBe(0);
    expect((await h.client.instances.list()).map((i) => i.id)).toContain(instanceId);
    expect((await h.client.volumes.list()).map((v) => v.id)).toContain(Number(volume.id));
  });
});
