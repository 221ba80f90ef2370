/**
 * After a create whose response was lost (ResponseLostError: a reset, a timeout, a 502/504),
 * the request may still be on its way through the service: a client timeout does not cancel
 * it. One look right away can miss what it makes, and a resend would then make it twice. So
 * the object is looked for up to `lostResponseLookups` times, `pollIntervalMs` apart (stack
 * config `vastai:lostResponseLookups` and `vastai:pollIntervalMs`, defaults 3 and 10 s),
 * before concluding that nothing was made.
 */
import { instanceTiming, lostResponseLookups, pollIntervalMs } from "./instance-settings";

/** Most creates whose response was lost, in one operation, before giving up. */
export const MAX_LOST_CREATES = 3;

/** The first thing `find` returns within the look-up window, or undefined. */
export async function lookUpAfterLostResponse<T>(find: () => Promise<T | undefined>): Promise<T | undefined> {
  const lookups = lostResponseLookups();
  for (let i = 0; i < lookups; i++) {
    if (i > 0) await instanceTiming().sleep(pollIntervalMs());
    const found = await find();
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Waits out the look-up window, for effects that cannot be looked up (a key rotation). */
export async function waitOutLostRequest(): Promise<void> {
  const wait = (lostResponseLookups() - 1) * pollIntervalMs();
  if (wait > 0) await instanceTiming().sleep(wait);
}
