/**
 * The plugin's first call: Pulumi's dynamic-provider plugin started in a project that installed
 * the package, timed from the spawn to its port, then configure and the first `read` (loads
 * pulumi-vastai/runtime, the Instance module and the HTTP library, and makes the first API
 * call), as in a refresh; then a second `read` in the same process for comparison.
 */
import { DEFAULT_INTERVALS_MS, createClient, dynamicUrn, startProviderPlugin } from "./deps";
import type { Scratch } from "./scratch";
import type { SimProcess } from "./sim";

export interface ColdStart {
  /** Spawn to the port printed, ms. */
  startMs: number;
  /** configure, ms. */
  configureMs: number;
  /** The first read, ms. */
  firstReadMs: number;
  /** Spawn to the first read's answer: the cold start of one operation, ms. */
  coldOperationMs: number;
  /** A second read in the same process (an API call, nothing left to load), ms. */
  warmReadMs: number;
}

export async function measureColdStart(scratch: Scratch, sim: SimProcess): Promise<ColdStart> {
  const client = createClient({ apiKey: sim.apiKey, apiUrl: sim.url, runUrl: sim.runUrl });
  const { id } = await client.instances.create(700001, { image: "pytorch/pytorch", label: "cold-start" });
  const urn = dynamicUrn("bench", "bench", "Instance", "cold-start");
  const props = { __provider: scratch.serialized.instance, offerId: 700001, image: "pytorch/pytorch", label: "cold-start", instanceId: id };
  const t0 = performance.now();
  const plugin = await startProviderPlugin({ cwd: scratch.dir, env: {
    VAST_API_KEY: undefined,
    VAST_URL: undefined,
    HOME: scratch.dir,
    // No cached listing: the second read makes its API call too, so the two reads compare.
    VASTAI_LIVE_CACHE_TTL_MS: "0",
  } });
  try {
    const t1 = performance.now();
    await plugin.configure({ "vastai:apiKey": sim.apiKey, "vastai:apiUrl": sim.url, "vastai:runUrl": sim.runUrl });
    const t2 = performance.now();
    const first = await plugin.read(urn, String(id), props);
    const t3 = performance.now();
    if (first.id !== String(id)) throw new Error(`the plugin read instance ${id} as gone`);
    // Untimed: let the list endpoint's pacing interval pass, so the second read does not wait for it.
    await new Promise((resolve) => setTimeout(resolve, DEFAULT_INTERVALS_MS["GET /api/v1/instances/"]));
    const t4 = performance.now();
    await plugin.read(urn, String(id), props);
    const t5 = performance.now();
    return { startMs: t1 - t0, configureMs: t2 - t1, firstReadMs: t3 - t2, coldOperationMs: t3 - t0, warmReadMs: t5 - t4 };
  } finally {
    await plugin.close();
    await client.instances.destroy(id);
  }
}
