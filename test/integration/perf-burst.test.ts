/**
 * Pacing shared per process across every resource: a parallel create burst of instances,
 * templates, SSH keys and environment variables against the service's realistic rate limits,
 * with the client's default intervals, creates every object once, and no endpoint is refused
 * twice.
 *
 * The simulator runs in a process of its own, as the service does (test/support/sim-process.ts).
 * It counts a call when its own event loop takes it in, so on a loaded machine a stall of that
 * process can bunch two well-spaced calls and refuse the second: a test that no call is ever
 * refused tests the machine's load. What pacing owes does not depend on it: calls of one
 * endpoint spaced so that the service refuses at most the one call a stall bunched, after which
 * the lane slows down (a refusal widens it) instead of being refused again; the refused call is
 * sent again (retries allowed here), and nothing is created twice. Without shared pacing, every
 * endpoint of the burst is refused many times over.
 */
import { randomBytes } from "crypto";
import { providers } from "../../provider/providers";
import { setClientOptions } from "../../provider/context";
import { useSimulatorProcess } from "../support/sim-process";
import { drive } from "./account-resources-support";

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

const { log } = useSimulatorProcess();
// A call a stall made the service refuse is sent again, as in a real run.
beforeAll(() => setClientOptions({ maxAttempts: 3 }));

/** The endpoint of a logged call: its method and path with ids as `{id}`. */
const laneOf = (r: { method: string; path: string }) => `${r.method} ${r.path.replace(/\/\d+(?=\/|$)/g, "/{id}")}`;

it("creates a mixed burst in parallel under the realistic limits, each object once, no endpoint refused twice", async () => {
  const creates = BURST.flatMap(([kind, inputs, count]) =>
    Array.from({ length: count }, async (_, i) => {
      const p = drive(providers[kind]);
      const { inputs: checked } = await p.check({}, { __provider: "perf-test", ...inputs(i) });
      return p.create(checked as Props);
    }),
  );
  const results = await Promise.all(creates);
  expect(results.every((r) => r.id !== "")).toBe(true);
  const requests = await log();
  const refused = requests.filter((r) => r.status === 429);
  console.log(`perf-burst: ${requests.length} calls, ${refused.length} refused`);
  // At most one refusal per endpoint: a stall bunched two calls once; the lane then slowed down.
  const refusedPerLane = new Map<string, number>();
  for (const r of refused) refusedPerLane.set(laneOf(r), (refusedPerLane.get(laneOf(r)) ?? 0) + 1);
  expect([...refusedPerLane].filter(([, n]) => n > 1)).toEqual([]);
  const answered = requests.filter((r) => r.status !== 429);
  // One create call answered per object and one status read per instance: nothing was sent twice.
  expect(answered.filter((r) => r.method !== "GET")).toHaveLength(12 + 4 + 3 + 4);
  expect(answered.filter((r) => r.method === "GET" && /^\/api\/v0\/instances\/\d+\/?$/.test(r.path))).toHaveLength(12);
}, 30_000);
