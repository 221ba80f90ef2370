/**
 * Markers and the stack identity (issue 23 items 1 and 2): a marker is unique to one stack's
 * state (its nonce), starts with the stack's tag, keeps the length of earlier markers, and
 * markers of identities of an earlier release are unchanged; a fleet's key changes with its
 * generation; the stack identity is registered once per stack run, also when one process runs
 * several stacks. Issue 33 item 2: the identity records the stack name it was made for, and
 * refuses another stack name or a damaged nonce.
 */
import * as pulumi from "@pulumi/pulumi";
import { SshKey } from "pulumi-vastai";
import { fleetKeyOf } from "../../provider/resources/fleet/members";
import {
  GENERATION_KEY,
  IDENTITY_KEY,
  LEGACY_MARKER,
  MARKER_LENGTH,
  STACK_MARKER,
  STACK_TAG_LENGTH,
  UNKNOWN,
  identityMarker,
  isFirstCreate,
  stackIdentityOf,
  stackTagOf,
  withGeneration,
} from "../../provider/resources/kit";
import { currentStackName, identityFor } from "../../provider/resources/stackIdentity";
import { provider as stackIdentityProvider } from "../../provider/resources/stackIdentity/provider";
import { WEBHOOK_USER_NAME_LIMIT, serviceName as webhookName } from "../../provider/resources/webhook/provider";
import { WEBHOOK_NAME_LIMIT } from "../../provider/client";

const A = "0123456789abcdef0123456789abcdef";
const B = "fedcba9876543210fedcba9876543210";
const inputs = (identity: string, generation = 1) => ({ [IDENTITY_KEY]: identity, [GENERATION_KEY]: generation });
const marker = (nonce: string, type = "Instance", name = "gpu", generation = 1) => identityMarker(inputs(stackIdentityOf(nonce, type, name), generation)) as string;

describe("issue 23 item 1: markers from the stack's nonce", () => {
  it("23.1 equal project, stack and resource names in two stacks give two markers, each starting with its stack's tag", () => {
    expect(marker(A)).not.toBe(marker(B));
    expect(marker(A).startsWith(stackTagOf(A))).toBe(true);
    expect(marker(B).startsWith(stackTagOf(B))).toBe(true);
    expect(stackTagOf(A)).toHaveLength(STACK_TAG_LENGTH);
    expect(stackTagOf(A)).not.toBe(stackTagOf(B));
  });

  it("is the same for a rerun of the same create, and differs by type, name and generation", () => {
    expect(marker(A)).toBe(marker(A));
    const all = [marker(A), marker(A, "Volume"), marker(A, "Instance", "other"), marker(A, "Instance", "gpu", 2)];
    expect(new Set(all).size).toBe(4);
    for (const m of all) expect(m).toMatch(STACK_MARKER);
  });

  it("23.1(d) is as long as an earlier release's marker, so every name that held one still fits", () => {
    expect(marker(A)).toHaveLength(MARKER_LENGTH);
    expect(MARKER_LENGTH).toBe(16);
    const longest = "w".repeat(WEBHOOK_USER_NAME_LIMIT);
    expect(webhookName(longest, marker(A))?.length).toBeLessThanOrEqual(WEBHOOK_NAME_LIMIT);
  });

  it("23.1(d) an identity of an earlier release keeps its marker (16 hex digits of the names)", () => {
    // The value the earlier release computed for this identity and generation.
    expect(identityMarker(inputs("proj/dev/Instance/x"))).toBe("f46bf9287b9b7e39");
    expect(identityMarker(inputs("proj/dev/Instance/x"))).toMatch(LEGACY_MARKER);
  });

  it("an identity unknown in a preview gives no marker, and a first create is still a first create", () => {
    expect(identityMarker(inputs(UNKNOWN))).toBeUndefined();
    expect(identityMarker({})).toBeUndefined();
    expect(isFirstCreate(inputs(stackIdentityOf(A, "SshKey", "k")))).toBe(true);
    expect(isFirstCreate(withGeneration(inputs(stackIdentityOf(A, "SshKey", "k")), inputs(stackIdentityOf(A, "SshKey", "k"))))).toBe(false);
  });
});

describe("issue 23 item 2: a fleet's key changes with its generation", () => {
  it("23.2 a replacement's key differs from the key of the fleet it replaces; a rerun's is the same", () => {
    const identity = stackIdentityOf(A, "Fleet", "workers");
    expect(fleetKeyOf(inputs(identity, 1))).toBe(fleetKeyOf(inputs(identity, 1)));
    expect(fleetKeyOf(inputs(identity, 2))).not.toBe(fleetKeyOf(inputs(identity, 1)));
    expect(fleetKeyOf(inputs(identity, 1)).startsWith(stackTagOf(A))).toBe(true);
    // Neither key is a prefix of the other's members' markers.
    expect(`${fleetKeyOf(inputs(identity, 2))}.`.startsWith(`${fleetKeyOf(inputs(identity, 1))}.`)).toBe(false);
    expect(fleetKeyOf(inputs("proj/dev/Fleet/workers", 2))).not.toBe(fleetKeyOf(inputs("proj/dev/Fleet/workers", 1)));
  });
});

describe("the StackIdentity provider", () => {
  const news = { __provider: "p", stackName: "org/proj/dev" };
  it("makes a nonce of 128 random bits once, records the stack name, never changes it, takes only the stack name, and deletes nothing", async () => {
    const one = await stackIdentityProvider.create(news);
    const two = await stackIdentityProvider.create(news);
    expect(one.outs.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(one.outs.nonce).not.toBe(two.outs.nonce);
    expect(one.outs.stackName).toBe("org/proj/dev");
    expect(one.id).toBe(stackTagOf(one.outs.nonce as string));
    expect((await stackIdentityProvider.diff(one.id, one.outs, news)).changes).toBe(false);
    expect((await stackIdentityProvider.read(one.id, one.outs)).props).toEqual(one.outs);
    expect((await stackIdentityProvider.check({}, { ...news, nonce: "x" })).failures).toEqual([]);
    expect((await stackIdentityProvider.check({}, { ...news, name: "x" })).failures).toEqual([
      { property: "name", reason: "name is not a StackIdentity property (it takes only stackName, which the package sets)" },
    ]);
    expect((await stackIdentityProvider.check({}, { __provider: "p", stackName: "dev" })).failures).toEqual([
      { property: "stackName", reason: 'stackName: must be the fully qualified stack name, organization/project/stack (the package sets it), got "dev"' },
    ]);
    await expect(stackIdentityProvider.delete(one.id, one.outs)).resolves.toBeUndefined();
  });

  it("refuses an identity made for another stack name, naming both names and both ways out", async () => {
    const made = await stackIdentityProvider.create(news);
    const copy = { ...news, stackName: "org/proj/copy" };
    const refusal = stackIdentityProvider.diff(made.id, made.outs, copy);
    await expect(refusal).rejects.toThrow("this stack is org/proj/copy, but its identity was made for org/proj/dev");
    await expect(refusal).rejects.toThrow("pulumi config set vastai:renamedFrom org/proj/dev");
    await expect(refusal).rejects.toThrow(`pulumi config set vastai:newStackIdentity ${made.id}`);
    await expect(stackIdentityProvider.update(made.id, made.outs, copy)).rejects.toThrow("made for org/proj/dev");
  });

  it("records the stack name of an identity of the previous release, keeping its nonce", async () => {
    const made = await stackIdentityProvider.create(news);
    const { stackName: _, ...previous } = made.outs;
    expect((await stackIdentityProvider.diff(made.id, previous, news)).changes).toBe(true);
    expect((await stackIdentityProvider.update(made.id, previous, news)).outs).toEqual(made.outs);
  });

  it.each([
    ["empty", "", "is empty"],
    ["numeric", 12345, "is the number 12345"],
    ["missing", undefined, "is missing"],
    ["not hex", "not-a-nonce", 'is "not-a-nonce"'],
  ])("refuses a nonce that is %s, naming the repair", async (_what, nonce, said) => {
    const made = await stackIdentityProvider.create(news);
    const refusal = stackIdentityProvider.diff(made.id, { ...made.outs, nonce }, news);
    await expect(refusal).rejects.toThrow(`the stack's nonce in state ${said}`);
    await expect(refusal).rejects.toThrow(`pulumi config set vastai:newStackIdentity ${made.id}`);
  });

  it("refuses a nonce that does not match the identity's tag", async () => {
    const made = await stackIdentityProvider.create(news);
    await expect(stackIdentityProvider.diff(made.id, { ...made.outs, nonce: A }, news)).rejects.toThrow("does not match the identity's tag");
  });
});

describe("one stack identity per stack run", () => {
  async function run(stack: string, nonce: string): Promise<{ identities: number; identity: unknown }> {
    const registered: Array<{ type: string; inputs: Record<string, unknown> }> = [];
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          registered.push({ type: args.type, inputs: args.inputs });
          return { id: `${args.name}-id`, state: args.type.endsWith(":StackIdentity") ? { nonce } : args.inputs };
        },
        call: () => ({}),
      },
      "proj",
      stack,
    );
    new SshKey("a", { publicKey: "ssh-ed25519 AAAA a" });
    new SshKey("b", { publicKey: "ssh-ed25519 AAAA b" });
    await pulumi.runtime.disconnect();
    return {
      identities: registered.filter((r) => r.type.endsWith(":StackIdentity")).length,
      identity: registered.find((r) => r.type.endsWith(":SshKey"))?.inputs[IDENTITY_KEY],
    };
  }

  it("registers it once per run, and again for the next stack run in the same process", async () => {
    expect(await run("dev", A)).toEqual({ identities: 1, identity: stackIdentityOf(A, "SshKey", "a") });
    expect(await run("staging", B)).toEqual({ identities: 1, identity: stackIdentityOf(B, "SshKey", "a") });
  });
});

describe("the identity the resource classes give (where the stack identity is not checked, e.g. a --target run)", () => {
  beforeAll(() => pulumi.runtime.setMocks({ newResource: (args) => ({ id: args.name, state: args.inputs }), call: () => ({}) }, "proj", "dev", false, "acme"));

  it("names the stack organization/project/stack", () => {
    expect(currentStackName()).toBe("acme/proj/dev");
  });

  it("gives the identity for the stack's own name or none recorded, none without a nonce (mocks), and refuses another stack's or an empty or non-string nonce", () => {
    expect(identityFor(A, "acme/proj/dev", "Volume", "data")).toBe(stackIdentityOf(A, "Volume", "data"));
    expect(identityFor(A, undefined, "Volume", "data")).toBe(stackIdentityOf(A, "Volume", "data"));
    expect(identityFor(undefined, undefined, "Volume", "data")).toBeUndefined();
    expect(() => identityFor(A, "acme/proj/prod", "Volume", "data")).toThrow(`this stack is acme/proj/dev, but its identity was made for acme/proj/prod`);
    expect(() => identityFor("", "acme/proj/dev", "Volume", "data")).toThrow("the stack's nonce in state is empty");
    expect(() => identityFor(12345, "acme/proj/dev", "Volume", "data")).toThrow("the stack's nonce in state is the number 12345");
  });
});
