/**
 * The look-up for a killed earlier run's leftovers (provider/resources/instance/earlier-runs.ts)
 * under the CLI's pattern: creates ask a few at a time, while a look-up is in flight. A look-up
 * after another waits for the paged list's pacing anyway: the creates that ask during that wait
 * go in it, not in a third call (issue 35 item 4: creates came ~258 ms apart instead of ~206).
 * Real client, simulator over HTTP on 127.0.0.1, list calls counted at the simulator.
 */
import { createClient } from "pulumi-vastai";
import { startSimulator, type Simulator } from "pulumi-vastai/simulator";
import { instancesThatMayCarry } from "../../provider/resources/instance/earlier-runs";

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

  it("serves creates that ask while the next call waits for its pacing slot in that call", async () => {
    const client = createClient({ apiKey: sim.apiKey, apiUrl: sim.url, runUrl: sim.runUrl, pacing: { intervalsMs: { [LIST_KEY]: SPACING_MS } } });
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
    const log = (await (await fetch(`${sim.url}/_sim/requests`)).json()) as Array<{ method: string; path: string; query: Record<string, string> }>;
    const lists = log.filter((r) => r.method === "GET" && r.path.startsWith("/api/v1/instances"));
    const labels = lists.map((r) => (JSON.parse(r.query.select_filters) as { label: { in: string[] } }).label.in);
    expect(labels).toEqual([["gather-a"], ["gather-b", "gather-c"]]);
  });
});
