/**
 * Deletes and reads that must not report a live object gone: a 404 that is not the service's
 * (an HTML page from a proxy on the delete route, a wrong `vastai:apiUrl`), a key that cannot
 * read templates, and a template shared by two resources through adoption. Against the
 * simulator over HTTP, plus a second loopback server that answers HTML 404 to everything.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as pulumi from "@pulumi/pulumi";
import { providers } from "pulumi-vastai";
import { SEED } from "pulumi-vastai/simulator";
import { DeleteNotConfirmedError, type VastClient } from "../../provider/client";
import { drive, failureOf, useKey, type Driven } from "./account-resources-support";
import { setClientOptions } from "../../provider/context";
import { FAST_RETRY } from "./client-support";
import { useSimulator } from "../support/simulator";

type Props = Record<string, unknown>;
const HTML_404 = "<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><hr>nginx</body></html>";

const h = useSimulator({ providers: true });
/** A server that is not the service: every request gets an HTML 404. */
let wrong: { server: http.Server; url: string; host: string; hits: number };

beforeAll(async () => {
  const server = http.createServer((req, res) => {
    wrong.hits++;
    req.resume();
    res.writeHead(404, { "content-type": "text/html" }).end(HTML_404);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  wrong = { server, url: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, hits: 0 };
});
afterAll(async () => {
  await new Promise<void>((resolve) => wrong.server.close(() => resolve()));
});
beforeEach(() => useKey(h, h.sim.apiKey));

const simHost = () => new URL(h.sim.url).host;

/** One live object of a kind, made with the client, and how to see whether it is still there. */
interface Subject {
  kind: "instance" | "apiKey" | "sshKey" | "template" | "envVar";
  provider: Driven;
  /** The delete route, as a fault path. */
  route: { method: string; path: string };
  make(c: VastClient): Promise<{ id: string; props: Props }>;
  exists(c: VastClient, id: string): Promise<boolean>;
}

const SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHx0cnVzdC1kZWxldGVzLXRlc3Qta2V5LW1hdGVyaWFs trust@test";

const SUBJECTS: Subject[] = [
  {
    kind: "instance",
    provider: drive(providers.instance),
    route: { method: "DELETE", path: "/api/v0/instances/*" },
    make: async (c) => ({ id: String((await c.instances.create(SEED.offerIds[0], { image: "ubuntu:22.04" })).id), props: {} }),
    exists: async (c, id) => (await c.instances.list()).some((i) => String(i.id) === id),
  },
  {
    kind: "apiKey",
    provider: drive(providers.apiKey),
    route: { method: "DELETE", path: "/api/v0/auth/apikeys/*" },
    make: async (c) => {
      const k = await c.apiKeys.create({ name: "trust-key" });
      return { id: String(k.id), props: { name: "trust-key", key: k.key, keyId: k.id } };
    },
    exists: async (c, id) => (await c.apiKeys.list()).some((k) => String(k.id) === id),
  },
  {
    kind: "sshKey",
    provider: drive(providers.sshKey),
    route: { method: "DELETE", path: "/api/v0/ssh/*" },
    make: async (c) => ({ id: String((await c.sshKeys.create(SSH_KEY)).id), props: { publicKey: SSH_KEY } }),
    exists: async (c, id) => (await c.sshKeys.list()).some((k) => String(k.id) === id),
  },
  {
    kind: "template",
    provider: drive(providers.template),
    route: { method: "DELETE", path: "/api/v0/template" },
    make: async (c) => {
      const { template } = await c.templates.create({ name: "trust", image: "ubuntu", tag: "22.04" });
      return { id: String(template.id), props: { name: "trust", image: "ubuntu", hashId: template.hashId, adopted: false } };
    },
    exists: async (c, id) => (await c.templates.search({ id: { eq: Number(id) } })).length > 0,
  },
  {
    kind: "envVar",
    provider: drive(providers.envVar),
    route: { method: "DELETE", path: "/api/v0/secrets" },
    make: async (c) => {
      await c.secrets.add("TRUST_TOKEN", "trust-value-1234");
      return { id: "TRUST_TOKEN", props: { key: "TRUST_TOKEN", value: "trust-value-1234" } };
    },
    exists: async (c, id) => Object.keys((await c.secrets.list()) ?? {}).includes(id),
  },
];

describe("(1) a 404 is 'already gone' only when the service says so", () => {
  for (const s of SUBJECTS) {
    it(`(1) ${s.kind}: an HTML 404 from a proxy on the delete route fails clearly and the object stays`, async () => {
      const { id, props } = await s.make(h.client);
      await h.fault({ ...s.route, times: 1, status: 404, body: HTML_404, contentType: "text/html" });
      const message = await failureOf(s.provider.delete(id, props));
      expect(message).toContain(simHost());
      expect(message).toMatch(/may still exist/);
      expect(message).not.toContain(h.sim.apiKey);
      expect(await s.exists(h.client, id)).toBe(true);
    });

    it(`(1) ${s.kind}: an HTML 404 on the delete route of an object that is really gone is read back and succeeds`, async () => {
      const { id, props } = await s.make(h.client);
      await s.provider.delete(id, props);
      expect(await s.exists(h.client, id)).toBe(false);
      await h.fault({ ...s.route, times: 1, status: 404, body: HTML_404, contentType: "text/html" });
      await expect(s.provider.delete(id, props)).resolves.toBeUndefined();
    });

    it(`(1) ${s.kind}: a wrong apiUrl answering HTML 404 fails clearly, names the host, and the object stays`, async () => {
      const { id, props } = await s.make(h.client);
      const hitsBefore = wrong.hits;
      setWrongUrl();
      const message = await failureOf(s.provider.delete(id, props));
      useKey(h, h.sim.apiKey);
      expect(wrong.hits).toBeGreaterThan(hitsBefore);
      expect(message).toContain(wrong.host);
      expect(message).toMatch(/may still exist/);
      expect(message).not.toContain(h.sim.apiKey);
      expect(await s.exists(h.client, id)).toBe(true);
    });
  }

  it("(1) the api key 'deleted' behind a wrong apiUrl still authenticates, so the delete must not succeed", async () => {
    const { id, props } = await SUBJECTS[1].make(h.client);
    setWrongUrl();
    await expect(SUBJECTS[1].provider.delete(id, props)).rejects.toBeInstanceOf(Error);
    useKey(h, h.sim.apiKey);
    await expect(h.clientWith({ apiKey: props.key as string }).instances.list()).resolves.toEqual([]);
  });

  it("(1) instances get: an HTML 404 is not 'gone' (the service's own 404 still is)", async () => {
    const { id: instanceId } = await h.client.instances.create(SEED.offerIds[0], { image: "ubuntu:22.04" });
    await h.fault({ method: "GET", path: `/api/v0/instances/${instanceId}`, times: 1, status: 404, body: HTML_404, contentType: "text/html" });
    const message = await failureOf(h.client.instances.get(instanceId));
    expect(message).toContain(simHost());
    expect(message).toMatch(/not have the service's error shape/);
    await expect(h.client.instances.get(99_999_999)).resolves.toBeNull();
  });

  it("(1) a refresh of an instance against a wrong apiUrl fails instead of dropping it from state", async () => {
    const { id: instanceId } = await h.client.instances.create(SEED.offerIds[0], { image: "ubuntu:22.04" });
    setWrongUrl();
    const message = await failureOf(drive(providers.instance).read(String(instanceId), {}));
    useKey(h, h.sim.apiKey);
    expect(message).toContain(wrong.host);
  });

  it("(1) the delete error is a DeleteNotConfirmedError naming the host but never the key", async () => {
    const error = await h.clientWith({ apiUrl: wrong.url }).apiKeys.delete(7).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeleteNotConfirmedError);
    expect((error as Error).message).toContain(wrong.host);
    expect((error as Error).message).not.toContain(h.sim.apiKey);
  });
});

/** The providers send the right key to a server that is not the service. */
function setWrongUrl(): void {
  setClientOptions({ apiKey: h.sim.apiKey, apiUrl: wrong.url, runUrl: wrong.url, pacing: false, ...FAST_RETRY });
}

describe("(2) a key that cannot read templates", () => {
  const template = drive(providers.template);

  it("(2) a refresh with a key without user_read fails clearly and keeps the template in state", async () => {
    const { inputs } = await template.check({}, { name: "seen", image: "ubuntu" });
    const { id, outs } = await template.create(inputs);
    const scoped = await h.client.apiKeys.create({ name: "no-read", scopes: ["instance_read", "instance_write"] });
    useKey(h, scoped.key);
    const message = await failureOf(template.read(id, outs as Props));
    expect(message).toMatch(/user_read/);
    expect(message).toMatch(/nothing was removed from state/);
    expect(message).not.toContain(scoped.key);
    useKey(h, h.sim.apiKey);
    expect((await template.read(id, outs as Props)).id).toBe(id);
  });

  it("(2) with a key that can read templates, one deleted elsewhere still reads as gone", async () => {
    const { inputs } = await template.check({}, { name: "gone", image: "ubuntu" });
    const { id, outs } = await template.create(inputs);
    await h.client.templates.delete(Number(id));
    expect(await template.read(id, outs as Props)).toEqual({ id: "" });
  });
});

describe("(3) a template adopted by a second resource is never deleted by it", () => {
  const template = drive(providers.template);
  let warnings: string[];
  beforeEach(() => {
    warnings = [];
    jest.spyOn(pulumi.log, "warn").mockImplementation(async (msg: string) => {
      warnings.push(msg);
    });
  });
  afterEach(() => jest.restoreAllMocks());

  async function twoResources() {
    const { inputs } = await template.check({}, { name: "shared", image: "pytorch/pytorch", tag: "2.4.0" });
    const first = await template.create(inputs);
    const second = await template.create(inputs);
    expect(second.id).toBe(first.id);
    expect(first.outs?.adopted).toBe(false);
    expect(second.outs?.adopted).toBe(true);
    return { id: first.id, first: first.outs as Props, second: second.outs as Props };
  }
  const stillThere = async (id: string) => (await h.client.templates.search({ id: { eq: Number(id) } })).length > 0;

  it("(3) adopter destroyed first: the template stays (with a warning), the creator's destroy then deletes it", async () => {
    const { id, first, second } = await twoResources();
    await template.delete(id, second);
    expect(await stillThere(id)).toBe(true);
    expect(warnings.join("\n")).toMatch(new RegExp(`Template ${id} was adopted .* left on the service`));
    await template.delete(id, first);
    expect(await stillThere(id)).toBe(false);
  });

  it("(3) creator destroyed first while an instance uses the template: it stays, and the adopter's destroy leaves it too", async () => {
    const { id, first, second } = await twoResources();
    const { id: instanceId } = await h.client.instances.create(SEED.offerIds[0], { templateHashId: String(first.hashId) });
    await template.delete(id, first);
    expect(await stillThere(id)).toBe(true);
    expect(warnings.join("\n")).toContain(`used by instance(s) ${instanceId}`);
    await template.delete(id, second);
    expect(await stillThere(id)).toBe(true);
  });

  it("(3) creator destroyed first with nothing using it: it is deleted, and the adopter's destroy succeeds", async () => {
    const { id, first, second } = await twoResources();
    await template.delete(id, first);
    expect(await stillThere(id)).toBe(false);
    await expect(template.delete(id, second)).resolves.toBeUndefined();
  });
});
