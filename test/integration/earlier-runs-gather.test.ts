/**
 * The look-up for a killed earlier run's leftovers (provider/resources/instance/earlier-runs.ts)
 * under the CLI's pattern: creates ask a few at a time, while a look-up is in flight. A look-up
 * after another waits for the paged list's pacing anyway: the creates that ask during that wait
 * go in it, not in a third call (issue 35 item 4: creates came ~258 ms apart instead of ~206).
 * A process's first look-up waits while checks and creates keep coming a few ms apart (the CLI
 * checks, then creates, one resource after another as its slots take them): a second look-up
 * waits for the list's pacing, and the creates it holds wait with it.
 * Real client, simulator over HTTP on 127.0.0.1, list calls counted at the simulator.
 */
import { createClient } from "pulumi-vastai";
import { startSimulator, type Simulator } from "pulumi-vastai/simulator";
import { announceCreate, instancesThatMayCarry } from "../../provider/resources/instance/earlier-runs";

const LIST_KEY = "GET /api/v1/instances/";
const SPACING_MS = 400;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("earlier runs' look-up gathers asks until the list may be called", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, latencyMs: 60 });
  });
  afterAll(async () => {
    await sim.close();
  });

  const newClient = () => createClient({ apiKey: sim.apiKey, apiUrl: sim.url, runUrl: sim.runUrl, pacing: { intervalsMs: { [LIST_KEY]: SPACING_MS } } });
  const listCalls = async () => {
    const log = (await (await fetch(`${sim.url}/_sim/requests`)).json()) as Array<{ method: string; path: string; query: Record<string, string> }>;
    return log.filter((r) => r.method === "GET" && r.path.startsWith("/api/v1/instances"));
  };

  it("in a small account, after two look-ups by label one listing of the whole account serves every later create of the process", async () => {
    const client = newClient();
    await fetch(`${sim.url}/_sim/requests`, { method: "DELETE" });
    await instancesThatMayCarry(client, "small-a");
    await Promise.all([instancesThatMayCarry(client, "small-b"), instancesThatMayCarry(client, "small-c")]);
    for (const label of ["small-d", "small-e", "small-f", "small-g"]) await instancesThatMayCarry(client, label);
    const lists = await listCalls();
    // Two by label, then one page of the whole account (it is small): nothing more for e, f, g.
    expect(lists.map((r) => (r.query.select_filters === undefined ? "whole" : "label"))).toEqual(["label", "label", "whole"]);
  });

  it("the small account's whole listing still shows each create what its killed earlier run left, by label", async () => {
    const add = async (label: string) =>
      ((await (await fetch(`${sim.url}/_sim/instances`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ count: 1, label }) })).json()) as { ids: number[] }).ids[0];
    const x = await add("left-x");
    const y = await add("left-y");
    const client = newClient();
    // Two look-ups by label first.
    await instancesThatMayCarry(client, "left-v");
    await instancesThatMayCarry(client, "left-w");
    await fetch(`${sim.url}/_sim/requests`, { method: "DELETE" });
    expect((await instancesThatMayCarry(client, "left-x")).map((i) => i.id)).toEqual([x]);
    expect((await instancesThatMayCarry(client, "left-y")).map((i) => i.id)).toEqual([y]);
    expect((await instancesThatMayCarry(client, undefined)).map((i) => i.id)).toEqual(expect.arrayContaining([x, y]));
    const lists = await listCalls();
    expect(lists).toHaveLength(1);
    expect(lists[0].query.select_filters).toBeUndefined();
  });

  it("serves creates that ask while the next call waits for its pacing slot in that call", async () => {
    // An account of 5 pages and more: the look-ups go by label (also after the page that shows it).
    const others = await fetch(`${sim.url}/_sim/instances`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ count: 130, label: "others" }) });
    expect(others.ok).toBe(true);
    const client = newClient();
    await fetch(`${sim.url}/_sim/requests`, { method: "DELETE" });
    // a: the first look-up; b asks while it is in flight; c asks once it returned, while the
    // next call waits for the list's pacing.
    const a = instancesThatMayCarry(client, "gather-a");
    await delay(30);
    const b = instancesThatMayCarry(client, "gather-b");
    await a;
    await delay(40);
    const c = instancesThatMayCarry(client, "gather-c");
    await Promise.all([b, c]);
    const lists = await listCalls();
    const labels = lists.map((r) => (JSON.parse(r.query.select_filters) as { label: { in: string[] } }).label.in);
    expect(labels).toEqual([["gather-a"], ["gather-b", "gather-c"]]);
  });

  it("a process's first look-up serves the creates that keep coming a few ms apart, each after its check, in one call", async () => {
    // An account of 5 pages and more (the scenario above): look-ups go by label.
    const client = newClient();
    await fetch(`${sim.url}/_sim/requests`, { method: "DELETE" });
    const asks: Array<Promise<unknown>> = [];
    const labels = Array.from({ length: 6 }, (_, i) => `trickle-${i}`);
    for (const label of labels) {
      announceCreate(label); // the engine's check of the resource
      await delay(3);
      asks.push(instancesThatMayCarry(client, label)); // its create
      await delay(3);
    }
    await Promise.all(asks);
    const lists = await listCalls();
    expect(lists.map((r) => (JSON.parse(r.query.select_filters) as { label: { in: string[] } }).label.in)).toEqual([labels]);
  });
});
