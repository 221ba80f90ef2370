/**
 * In-place actions that do not change the instance's definition: `rebootTrigger` and
 * `recycleTrigger` (any change reboots, or recycles, the container on the same machine:
 * `PUT /api/v0/instances/reboot|recycle/{id}/`), and `prepayAmount` (dollars prepaid when the
 * instance is created and again each time the value changes: `PUT /api/v0/instances/prepay/{id}/`;
 * the balance is read back as `prepaidBalance` from `GET /api/v0/instances/balance/{id}/`).
 *
 * A prepayment is never sent twice: when its response is lost, the balance is read again (over
 * the look-up window of lost creates, `vastai:lostResponseLookups`) and the payment counts as
 * made once the balance grew by the amount; otherwise the update fails saying so (a second
 * payment could double it).
 */
import { z } from "zod";
import { ResponseLostError, type VastClient } from "../../client";
import { Props, deepEqual, isAmbiguousResponse, lookUp } from "../kit";

/** Any JSON value; a change is what counts. */
const trigger = z.unknown().optional();

/** Larger amounts are mistakes of unit (cents for dollars). */
export const MAX_PREPAY_DOLLARS = 100_000;

export const ACTION_INPUTS = {
  rebootTrigger: trigger,
  recycleTrigger: trigger,
  prepayAmount: z
    .number({ error: "must be a number (dollars)" })
    .positive("must be greater than 0 (dollars)")
    .max(MAX_PREPAY_DOLLARS, `must be at most ${MAX_PREPAY_DOLLARS} (dollars)`)
    .optional(),
};

/** Inputs the actions read; none replaces the instance. */
export const ACTION_KEYS = Object.keys(ACTION_INPUTS);

const changed = (olds: Props, news: Props, key: string) => !deepEqual(olds[key], news[key]);

/** Pays `amount` once; a lost response is settled by the balance (never resent). */
export async function prepayOnce(client: VastClient, id: number, amount: number): Promise<void> {
  const before = (await client.instanceActions.balance(id)).refundableDeposit;
  try {
    await client.instanceActions.prepay(id, amount);
  } catch (error) {
    if (!(error instanceof ResponseLostError) && !isAmbiguousResponse(error)) {
      throw new Error(`Instance ${id}: prepaying ${amount} $ failed: ${(error as Error).message}`, { cause: error });
    }
    // A slow request may land a moment later: the balance is looked at over the look-up window.
    let after = before;
    let paid: true | undefined;
    try {
      paid = await lookUp(async () => {
        after = (await client.instanceActions.balance(id)).refundableDeposit;
        return after + 1e-9 >= before + amount ? true : undefined;
      });
    } catch (readError) {
      throw new Error(
        `Instance ${id}: the answer to prepaying ${amount} $ was lost and the balance could not be read (${(readError as Error).message}); ` +
          `check the balance before running again, a second payment would pay twice (${(error as Error).message})`,
        { cause: readError },
      );
    }
    if (!paid) {
      throw new Error(
        `Instance ${id}: the answer to prepaying ${amount} $ was lost and the balance shows no payment (${before} $ before, ${after} $ now); ` +
          `run again to pay (${(error as Error).message})`,
        { cause: error },
      );
    }
  }
}

/** After create: the first prepayment, when asked for; returns `prepaidBalance` for state. */
export async function prepayOnCreate(client: VastClient, id: number, props: Props): Promise<Props> {
  if (typeof props.prepayAmount !== "number") return {};
  await prepayOnce(client, id, props.prepayAmount);
  return balanceOutput(client, id, props);
}

/**
 * The actions a change asks for, in order: recycle (which also restarts), else reboot, then
 * a prepayment of a new amount. Returns whether the container restarts (the caller waits).
 */
export async function applyActions(client: VastClient, id: number, olds: Props, news: Props): Promise<boolean> {
  let restarts = false;
  if (changed(olds, news, "recycleTrigger") && news.recycleTrigger !== undefined) {
    await client.instanceActions.recycle(id);
    restarts = true;
  } else if (changed(olds, news, "rebootTrigger") && news.rebootTrigger !== undefined) {
    await client.instanceActions.reboot(id);
    restarts = true;
  }
  if (changed(olds, news, "prepayAmount") && typeof news.prepayAmount === "number") await prepayOnce(client, id, news.prepayAmount);
  return restarts;
}

/** `prepaidBalance` for state, read when the program prepays; undefined otherwise. */
export async function balanceOutput(client: VastClient, id: number, props: Props): Promise<Props> {
  if (typeof props.prepayAmount !== "number") return {};
  return { prepaidBalance: (await client.instanceActions.balance(id)).refundableDeposit };
}
