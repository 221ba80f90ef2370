/**
 * The account lookups against the simulator over HTTP: machines, SSH keys, the user record
 * (balance and credit, never a key), charges and invoices with paging, and their Output variants.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { SEED, startSimulator } from "pulumi-vastai/simulator";
import { PagingLoopError, VastValidationError, createClient } from "../../provider/client";
import {
  getCharges,
  getChargesOutput,
  getInvoices,
  getInvoicesOutput,
  getMachines,
  getMachinesOutput,
  getSshKeys,
  getSshKeysOutput,
  getUser,
  getUserOutput,
} from "../../provider/lookups";
import { failureOf } from "./account-resources-support";
import { useSimulator } from "../support/simulator";

const h = useSimulator({ providers: true });

function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((v) => resolve(v)));
}

const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);
const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILookupsAccountKeyA lookups@test";

describe("getMachines", () => {
  it("lists every machine the account hosts", async () => {
    const machines = await getMachines();
    expect(machines.map((m) => m.id)).toEqual(SEED.hostedMachineIds);
    expect(await valueOf(getMachinesOutput())).toHaveLength(SEED.hostedMachineIds.length);
  });
});

describe("getSshKeys", () => {
  it("an account without keys gets [], then the keys it registered", async () => {
    expect(await getSshKeys()).toEqual([]);
    const key = await h.client.sshKeys.create(KEY);
    expect((await valueOf(getSshKeysOutput())).map((k) => [k.id, k.publicKey])).toEqual([[key.id, KEY]]);
  });
});

describe("getUser", () => {
  it("gives id, e-mail, name, balance and credit, and never a key", async () => {
    const user = await getUser();
    expect(user).toEqual({ id: SEED.user.id, email: SEED.user.email, username: SEED.user.username, balance: 0, credit: expect.any(Number) });
    const sent = JSON.stringify(await valueOf(getUserOutput()));
    expect(sent).not.toContain(h.sim.apiKey);
    expect(sent).not.toMatch(/api_key|sid/);
  });

  it("credit is the top-ups less the charges, so it agrees with the billing history", async () => {
    const invoices = await getInvoices({ start: 0 });
    const charges = await getCharges({ start: 0 });
    const paid = invoices.reduce((n, i) => n - i.amount, 0);
    const spent = charges.reduce((n, c) => n + c.amount, 0);
    expect((await getUser()).credit).toBeCloseTo(paid - spent, 1);
    expect(paid).toBeGreaterThan(spent);
  });
});

describe("getCharges", () => {
  it("gives one charge per instance, priced from its offer, also after the instance is destroyed", async () => {
    const made = await h.client.instances.create(SEED.offerIds[0], { image: "alpine", label: "billed" });
    const mine = (rows: Awaited<ReturnType<typeof getCharges>>) => rows.find((c) => c.source === `instance-${made.id}`);
    const live = mine(await getCharges({ start: now() - DAY }));
    expect(live).toMatchObject({ type: "instance", metadata: { label: "billed" } });
    expect(live?.items.map((i) => i.type)).toEqual(["gpu", "disk"]);
    await h.client.instances.destroy(made.id);
    expect(mine(await getCharges({ start: now() - DAY }))).toMatchObject({ type: "instance", metadata: { label: "billed" } });
  });

  it("holds the seeded past of the account in the asked range only, walking every page", async () => {
    const all = await getCharges({ start: now() - 100 * DAY });
    expect(all.length).toBe(12);
    const paged = await getCharges({ start: now() - 100 * DAY, pageSize: 5 });
    expect(paged).toEqual(all);
    const pages = (await h.requests()).filter((r) => r.path === "/api/v0/charges/" && r.query.limit === "5");
    expect(pages).toHaveLength(3);
    expect(JSON.parse(String(pages[0].query.select_filters))).toEqual({ day: { gte: expect.any(Number), lte: expect.any(Number) } });
    const recent = await getCharges({ start: new Date(Date.now() - 30 * DAY * 1000) });
    expect(recent.length).toBeLessThan(all.length);
    expect(await getCharges({ start: now() - 100 * DAY, types: ["volume"] })).toEqual([]);
  });

  it("refuses bad arguments before sending, naming the argument", async () => {
    await h.clearRequests();
    expect(await failureOf(getCharges({ start: now(), typs: ["instance"] } as never))).toBe("typs is not a getCharges property; did you mean types?");
    expect(await failureOf(getCharges({ start: "yesterday" }))).toMatch(/^getCharges: start must be a Date, Unix seconds or an ISO 8601 date/);
    expect(await failureOf(getCharges({ start: Date.now() }))).toMatch(/^getCharges: start must be Unix seconds, not milliseconds/);
    expect(await failureOf(getCharges({ start: now(), end: now() - DAY }))).toMatch(/^getCharges: end .* must not be before start/);
    expect(await failureOf(getCharges({ start: now(), types: ["gpu" as never] }))).toMatch(/^getCharges: types: gpu is not a charge type/);
    expect(await failureOf(getCharges({ start: now(), pageSize: 501 }))).toMatch(/^getCharges: limit must be a whole number from 1 to 500/);
    await expect(getCharges({} as never)).rejects.toBeInstanceOf(VastValidationError);
    expect(await h.requests()).toEqual([]);
  });

  it("a next_token the service sent before stops the walk", async () => {
    const token = Buffer.from(JSON.stringify({ offset: 0 })).toString("base64");
    await h.fault({ method: "GET", path: "/api/v0/charges", times: 2, status: 200, body: JSON.stringify({ success: true, count: 1, total: 9, next_token: token, results: [{ amount: 1 }] }) });
    await expect(getCharges({ start: 0 })).rejects.toBeInstanceOf(PagingLoopError);
  });
});

describe("getInvoices", () => {
  it("gives the account's top-ups in the range, newest first, every page, and filters by service", async () => {
    const all = await getInvoices({ start: "2000-01-01" });
    expect(all).toHaveLength(6);
    expect(all[0]).toMatchObject({ type: "credit", source: "stripe", amount: -150, metadata: { service: "stripe_payments" } });
    expect(all.map((i) => i.start)).toEqual([...all.map((i) => i.start)].sort((a, b) => (b ?? 0) - (a ?? 0)));
    expect(await valueOf(getInvoicesOutput({ start: 0, pageSize: 4 }))).toEqual(all);
    expect(await getInvoices({ start: 0, services: ["coinbase"] })).toEqual([]);
  });

  it("a subaccount has no billing history of its own", async () => {
    const sub = h.clientWith({ apiKey: SEED.subaccounts[0].apiKey });
    expect(await getInvoices({ start: 0 }, { client: sub })).toEqual([]);
    expect(await valueOf(getChargesOutput({ start: 0 }, { client: sub }))).toEqual([]);
  });

  it("a key without billing_read gets the service's 403", async () => {
    const key = await h.client.apiKeys.create({ name: "no-billing", scopes: ["user_read"] });
    const message = await failureOf(getInvoices({ start: 0 }, { client: h.clientWith({ apiKey: key.key }) }));
    expect(message).toMatch(/^GET \/api\/v1\/invoices\/ failed: HTTP 403 .*billing_read/);
  });
});

describe("the simulator's billing routes", () => {
  it("refuses a malformed page token with the service's 400, and answers an invoice query without a range at HTTP 200 success=false", async () => {
    await expect(h.client.billing.chargesPage({ start: 0, afterToken: "not-a-token" })).rejects.toThrow(/GET \/api\/v0\/charges\/ failed: HTTP 400 invalid_token: Invalid pagination token/);
    const res = await fetch(`${h.sim.url}/api/v1/invoices/?select_filters=${encodeURIComponent("{}")}`, { headers: { authorization: `Bearer ${h.sim.apiKey}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: false, error: "Invalid date range", count: 0, total: 0, results: [], next_token: null });
  });

  it("keeps destroyed instances' charges in the state file across a restart", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sim-billing-"));
    const file = path.join(dir, "state.json");
    try {
      const first = await startSimulator({ port: 0, bootMs: 0, stateFile: file, apiKey: "billing-restart-key" });
      const c1 = createClient({ apiKey: first.apiKey, apiUrl: first.url, pacing: false });
      const made = await c1.instances.create(SEED.offerIds[0], { image: "alpine", label: "gone" });
      await c1.instances.destroy(made.id);
      await first.close();
      const second = await startSimulator({ port: 0, bootMs: 0, stateFile: file });
      try {
        const c2 = createClient({ apiKey: second.apiKey, apiUrl: second.url, pacing: false });
        expect(second.state().instances).toEqual([]);
        const charge = (await getCharges({ start: now() - DAY }, { client: c2 })).find((c) => c.source === `instance-${made.id}`);
        expect(charge).toMatchObject({ type: "instance", metadata: { label: "gone" } });
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
