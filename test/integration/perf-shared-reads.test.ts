/**
 * Fewest calls for a whole stack in one provider process, counted in the simulator's request
 * log: a refresh makes one list call per kind of resource (instances: one per 25), a diff of
 * the unchanged stack writes nothing and reads only the instances' shared list, and a preview
 * with unknown inputs writes nothing.
 */
import { randomBytes } from "crypto";
import { SEED } from "pulumi-vastai/simulator";
import { getClient } from "../../provider/context";
import { providers } from "../../provider/providers";
import { UNKNOWN } from "../../provider/resources/kit";
import { Driven, drive } from "./account-resources-support";
import { useSimulator } from "../support/simulator";
import type { LoggedRequest } from "./client-support";

type Props = Record<string, unknown>;
interface Made {
  kind: string;
  p: Driven;
  id: string;
  inputs: Props;
  outs: Props;
}

const COUNTS = { instance: 30, template: 12, sshKey: 6, envVar: 6, apiKey: 4, maintenanceWindow: 3 };
const MACHINES_PER_WINDOW = 40;

/** A syntactically valid ed25519 public key of random material. */
function ed25519Key(): string {
  const sshString = (b: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(b.length);
    return Buffer.concat([length, b]);
  };
  const blob = Buffer.concat([sshString(Buffer.from("ssh-ed25519")), sshString(randomBytes(32))]);
  return `ssh-ed25519 ${blob.toString("base64")}`;
}

function inputsFor(kind: string, i: number): Props {
  const startTime = Math.floor(Date.now() / 1000) + 86400 * (i + 1);
  switch (kind) {
    case "instance":
      // An offer of its own on the bulk market: a rented offer is taken.
      return { offerId: 800_001 + i, image: "pytorch/pytorch", label: `worker-${i}` };
    case "template":
      return { name: `perf-template-${i}`, image: "pytorch/pytorch" };
    case "sshKey":
      return { publicKey: ed25519Key() };
    case "envVar":
      return { key: `PERF_VAR_${i}`, value: `value-${i}` };
    case "apiKey":
      return { name: `perf-key-${i}` };
    default:
      return { machineIds: SEED.hostedMachineIds.slice(i * MACHINES_PER_WINDOW, (i + 1) * MACHINES_PER_WINDOW), startTime };
  }
}

/** Inputs that are unknown in a preview: one property of each kind comes from another resource. */
const UNKNOWN_PROP: Record<string, string> = {
  instance: "label", template: "image", sshKey: "publicKey", envVar: "value", apiKey: "name", maintenanceWindow: "durationHours",
};

async function checked(p: Driven, news: Props): Promise<Props> {
  const { inputs, failures } = await p.check({}, { __provider: "perf-test", ...news });
  expect(failures ?? []).toEqual([]);
  return inputs as Props;
}

const writes = (log: LoggedRequest[]) => log.filter((r) => r.method !== "GET");
const calls = (log: LoggedRequest[], method: string, path: string) =>
  log.filter((r) => r.method === method && r.path.replace(/\/$/, "") === path).length;

// Each test gets a new provider client, as a new provider process would have: nothing cached.
const h = useSimulator({ providers: true, settings: { pollIntervalMs: 5 }, reset: false, simulator: { marketOffers: COUNTS.instance } });
let stack: Made[];

beforeAll(async () => {
  stack = [];
  for (const [kind, count] of Object.entries(COUNTS)) {
    const p = drive(providers[kind as keyof typeof providers]);
    for (let i = 0; i < count; i++) {
      const inputs = await checked(p, inputsFor(kind, i));
      const { id, outs } = await p.create(inputs);
      stack.push({ kind, p, id, inputs, outs: outs as Props });
    }
  }
}, 60_000);

beforeEach(async () => {
  await getClient().instances.get(1); // load the HTTP stack outside the counted part
  await h.clearRequests();
});

it("refreshes the whole stack with one list call per kind of resource (instances: one per 25)", async () => {
  const reads = await Promise.all(stack.map((r) => r.p.read(r.id, r.outs)));
  expect(reads.map((r) => r.id)).toEqual(stack.map((r) => r.id));
  const log = await h.requests();
  const expected = {
    instancePages: Math.ceil(COUNTS.instance / 25),
    sshKeyLists: 1,
    secretLists: 1,
    apiKeyLists: 1,
    templateSearches: 1,
    windowLists: Math.ceil((COUNTS.maintenanceWindow * MACHINES_PER_WINDOW) / 100),
    // The instances' spentUsd (issue 27 item 5): one walk of the account's charges for them all.
    chargesWalks: 1,
  };
  expect({
    instancePages: calls(log, "GET", "/api/v1/instances"),
    sshKeyLists: calls(log, "GET", "/api/v0/ssh"),
    secretLists: calls(log, "GET", "/api/v0/secrets"),
    apiKeyLists: calls(log, "GET", "/api/v0/auth/apikeys"),
    templateSearches: calls(log, "GET", "/api/v0/template"),
    windowLists: calls(log, "GET", "/api/v0/machines/maintenances"),
    chargesWalks: calls(log, "GET", "/api/v0/charges"),
  }).toEqual(expected);
  expect(log).toHaveLength(Object.values(expected).reduce((a, b) => a + b, 0));
});

it("diffs the unchanged stack with no write and no read but the instances' shared list", async () => {
  const diffs = await Promise.all(stack.map(async (r) => r.p.diff(r.id, r.outs, await checked(r.p, r.inputs))));
  expect(diffs.filter((d) => d.changes !== false)).toEqual([]);
  const log = await h.requests();
  expect(writes(log)).toEqual([]);
  expect(log.map((r) => `${r.method} ${r.path}`)).toEqual(Array(Math.ceil(COUNTS.instance / 25)).fill("GET /api/v1/instances/"));
});

it("previews a change from unknown inputs without a single write", async () => {
  const diffs = await Promise.all(
    stack.map(async (r) => {
      const news = await checked(r.p, { ...r.inputs, [UNKNOWN_PROP[r.kind]]: UNKNOWN });
      return r.p.diff(r.id, r.outs, news);
    }),
  );
  expect(diffs.every((d) => d.changes === true)).toBe(true);
  const log = await h.requests();
  expect(writes(log)).toEqual([]);
  expect(log.length).toBeLessThanOrEqual(Math.ceil(COUNTS.instance / 25));
});
