/**
 * SubaccountKeyRotation through its provider against the simulator: one subaccount or all,
 * old keys refused at once, and every row of the specification's regenerate_keys error table.
 */
import { SEED } from "pulumi-vastai/simulator";
import { AuthenticationError } from "../../provider/client";
import { providers } from "../../provider/providers";
import { drive, failureOf, useKey } from "./account-resources-support";
import { useSimulator } from "../support/simulator";

const rotation = drive(providers.subaccountKeyRotation);
const [buildBot, ciRunner] = SEED.subaccounts;
const PREFIX = "SubaccountKeyRotation: regenerating the key of";
const CALL = "PUT /api/v0/subaccounts/regenerate_keys/ failed:";

const h = useSimulator({ providers: true });

async function rotate(news: Record<string, unknown>) {
  const { inputs, failures } = await rotation.check({}, news);
  expect(failures).toEqual([]);
  const result = await rotation.create(inputs as Record<string, unknown>);
  return { id: result.id, outs: result.outs as { regeneratedKeys: Array<{ userId: number; email: string; derivedKey: string }> } };
}

it("regenerates one subaccount's key: the old key is refused at once, the new one works", async () => {
  const { outs } = await rotate({ subaccountUserId: buildBot.userId });
  expect(outs.regeneratedKeys).toEqual([{ userId: buildBot.userId, email: buildBot.email, derivedKey: expect.any(String) }]);
  const fresh = outs.regeneratedKeys[0].derivedKey;
  await expect(h.clientWith({ apiKey: fresh }).secrets.list()).resolves.toEqual({});
  await expect(h.clientWith({ apiKey: buildBot.apiKey }).secrets.list()).rejects.toBeInstanceOf(AuthenticationError);
  // The other subaccount is untouched.
  await expect(h.clientWith({ apiKey: ciRunner.apiKey }).secrets.list()).resolves.toEqual({});
});

it("all: true regenerates every subaccount that has a key", async () => {
  const { outs } = await rotate({ all: true, triggers: "2025-06" });
  expect(outs.regeneratedKeys.map((k) => [k.userId, k.email])).toEqual([
    [buildBot.userId, buildBot.email],
    [ciRunner.userId, ciRunner.email],
  ]);
  expect(outs).toMatchObject({ all: true, triggers: "2025-06", rotatedAt: expect.any(String) });
});

it("read returns what state holds (the service lists no rotations)", async () => {
  const { id, outs } = await rotate({ subaccountUserId: buildBot.userId, triggers: 1 });
  const read = await rotation.read(id, outs);
  expect(read).toEqual({ id, props: outs, inputs: { subaccountUserId: buildBot.userId, triggers: 1 } });
});

it("delete changes nothing on the service: the rotated keys stay valid", async () => {
  const { id, outs } = await rotate({ subaccountUserId: buildBot.userId });
  await h.clearRequests();
  await rotation.delete(id, outs);
  expect(await h.requests()).toEqual([]);
  await expect(h.clientWith({ apiKey: outs.regeneratedKeys[0].derivedKey }).secrets.list()).resolves.toEqual({});
});

describe("the service's refusals reach the user with its message (spec: Errors, regenerate_keys)", () => {
  // Check refuses these two before any request; a create that gets them anyway shows the service's answer.
  it("400 when neither field is given", async () => {
    expect(await failureOf(rotation.create({}))).toBe(
      `${PREFIX} a subaccount (neither subaccountUserId nor all: true was given) failed: ${CALL} HTTP 400 invalid_args: Must specify subaccount_user_id or regenerate_all. ` +
        "Check the request values the message names.",
    );
  });

  it("400 when subaccount_user_id is not an integer", async () => {
    expect(await failureOf(rotation.create({ subaccountUserId: "ten" }))).toContain(
      `${PREFIX} subaccount "ten" failed: ${CALL} HTTP 400 invalid_args: subaccount_user_id must be a valid integer.`,
    );
  });

  it("403 when the account is not approved for subaccounts", async () => {
    useKey(h, SEED.unapprovedUser.apiKey);
    expect(await failureOf(rotation.create({ subaccountUserId: buildBot.userId }))).toBe(
      `${PREFIX} subaccount ${buildBot.userId} failed: ${CALL} HTTP 403 forbidden: Only subaccount approved accounts may use this API. ` +
        "The API key lacks the permission for this call, or the account may not use it.",
    );
  });

  it("404 when there is no such subaccount", async () => {
    expect(await failureOf(rotation.create({ subaccountUserId: 99999 }))).toContain(
      `${PREFIX} subaccount 99999 failed: ${CALL} HTTP 404 not_found: Subaccount not found.`,
    );
  });

  it("404 when the subaccount has no active key", async () => {
    const id = SEED.subaccountWithoutKey.userId;
    expect(await failureOf(rotation.create({ subaccountUserId: id }))).toContain(
      `${PREFIX} subaccount ${id} failed: ${CALL} HTTP 404 not_found: Active subaccount key not found to regenerate.`,
    );
  });
});
