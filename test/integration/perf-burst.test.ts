/**
 * Pacing shared per process across every resource: a parallel create burst of instances,
 * templates, SSH keys and environment variables against the service's realistic rate limits,
 * with the client's default intervals and no retries allowed, is refused not once.
 */
import { randomBytes } from "crypto";
import { getClient, setClientOptions } from "../../provider/context";
import { providers } from "../../provider/providers";
import { drive, startProviderHarness, stopProviderHarness } from "./account-resources-support";
import type { Harness } from "./client-support";
import { startHarness } from "./client-support";

type Props = Record<string, unknown>;

function ed25519Key(): string {
  const sshString = (b: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(b.length);
    return Buffer.concat([length, b]);
  };
  return `ssh-ed25519 ${Buffer.concat([sshString(Buffer.from("ssh-ed25519")), sshString(randomBytes(32))]).toString("base64")}`;
}

const BURST: Array<[keyof typeof providers, (i: number) => Props, number]> = [
  ["instance", (i) => ({ offerId: 700001 + i, image: "pytorch/pytorch", label: `burst-${i}` }), 12],
  ["template", (i) => ({ name: `burst-template-${i}`, image: "pytorch/pytorch" }), 4],
  ["sshKey", () => ({ publicKey: ed25519Key() }), 3],
  ["envVar", (i) => ({ key: `BURST_${i}`, value: `v${i}` }), 4],
];

let h: Harness;

beforeAll(async () => {
  process.env.VASTAI_POLL_INTERVAL_MS = "5";
  await stopProviderHarness(await startProviderHarness()); // nothing left configured from before
  h = await startHarness({ rateLimits: "realistic" });
  // The default intervals (pacing: {}), and one attempt per call: a refusal would fail the create.
  setClientOptions({ apiKey: h.sim.apiKey, apiUrl: h.sim.url, runUrl: h.sim.runUrl, pacing: {}, maxAttempts: 1 });
  // The simulator shares this process's event loop: load the HTTP stack and the resource modules
  // first, so their one-off loading does not stall the server between two paced calls.
  await getClient().instances.get(1);
  for (const [kind, inputs] of BURST) await drive(providers[kind]).check({}, inputs(0));
  await new Promise((r) => setTimeout(r, 250));
  await h.clearRequests();
});

afterAll(async () => {
  delete process.env.VASTAI_POLL_INTERVAL_MS;
  await stopProviderHarness(h);
});

it("creates a mixed burst in parallel under the realistic limits with no request refused", async () => {
  const creates = BURST.flatMap(([kind, inputs, count]) =>
    Array.from({ length: count }, async (_, i) => {
      const p = drive(providers[kind]);
      const { inputs: checked } = await p.check({}, { __provider: "perf-test", ...inputs(i) });
      return p.create(checked as Props);
    }),
  );
  const results = await Promise.all(creates);
  expect(results.every((r) => r.id !== "")).toBe(true);
  const log = await h.requests();
  expect(log.filter((r) => r.status === 429)).toEqual([]);
  const state = h.sim.state();
  expect({ instances: state.instances.length, sshKeys: state.sshKeys.length }).toEqual({ instances: 12, sshKeys: 3 });
  // One create call per object and one status read per instance: nothing was sent twice.
  const writes = log.filter((r) => r.method !== "GET");
  expect(writes).toHaveLength(12 + 4 + 3 + 4);
}, 30_000);
