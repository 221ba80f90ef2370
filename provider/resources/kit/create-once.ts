/**
 * Creating something at most once when responses get lost.
 *
 * After a create whose response was lost (ResponseLostError: a reset, a timeout, a 502/504,
 * or a 2xx whose body cannot be read), the request may still be on its way through the
 * service: a client timeout does not cancel it. A blind resend could make the object twice,
 * and one look right away can miss what the lost request makes. So every resource that
 * creates goes through `createAtMostOnce`: it sends, and after a lost response asks the
 * resource's `recover` what the lost request made, typically by looking it up over the
 * look-up window (`lookUp`: `vastai:lostResponseLookups` times, `vastai:pollIntervalMs`
 * apart, defaults 3 and 10 s). Only when nothing was made is the create sent again, at most
 * `maxSends` times in all.
 */
import { createHash } from "node:crypto";
import { ResponseLostError, ResponseSchemaError } from "../../client";
import { UNKNOWN, type Props } from "./provider";
import { currentTiming, lostResponseLookups, pollIntervalMs } from "./settings";

/**
 * The resource's identity, set by the resource class (the dynamic-provider plugin does not pass
 * the URN to `create`, so the class puts it in the inputs): `stack:<nonce>/<type>/<name>`,
 * where the nonce is the stack's (resources/stackIdentity): random, made once, kept in state.
 * Releases before the stack identity wrote `<project>/<stack>/<type>/<name>` (a legacy
 * identity, still read from state). A bookkeeping key: no diff compares it.
 */
export const IDENTITY_KEY = "__identity";
/** How a stack-nonce identity starts (`:` is in no Pulumi project name, so no legacy identity starts so). */
const STACK_IDENTITY_PREFIX = "stack:";

/** The identity of resource `name` of type `type` in the stack whose nonce is `nonce`. */
export function stackIdentityOf(nonce: string, type: string, name: string): string {
  return `${STACK_IDENTITY_PREFIX}${nonce}/${type}/${name}`;
}

/** Characters of a marker that tag its stack: 11 base64url characters, 66 bits of a hash of the nonce. */
export const STACK_TAG_LENGTH = 11;
/** Length of every marker: the stack tag and 5 characters (30 bits) for the resource and generation. */
export const MARKER_LENGTH = 16;
/** A marker of this release: 16 base64url characters, the first 11 the stack's tag. */
export const STACK_MARKER = /^[A-Za-z0-9_-]{16}$/;
/** A marker of a release before the stack identity: 16 lowercase hex digits, of the stack's names only. */
export const LEGACY_MARKER = /^[0-9a-f]{16}$/;

/** The tag every marker of the stack whose nonce is `nonce` starts with. */
export function stackTagOf(nonce: string): string {
  return createHash("sha256").update(`stack-tag:${nonce}`).digest("base64url").slice(0, STACK_TAG_LENGTH);
}

/** The stack's nonce in a stack-nonce identity; undefined for a legacy, unknown or missing one. */
export function nonceOf(identity: unknown): string | undefined {
  if (typeof identity !== "string" || !identity.startsWith(STACK_IDENTITY_PREFIX)) return undefined;
  const nonce = identity.slice(STACK_IDENTITY_PREFIX.length).split("/")[0];
  return nonce === "" ? undefined : nonce;
}

/** The identity when it is known (not missing, empty, or unknown in a preview before the stack's first `up`). */
function knownIdentity(inputs: Props): string | undefined {
  const identity = inputs[IDENTITY_KEY];
  return typeof identity === "string" && identity !== "" && identity !== UNKNOWN ? identity : undefined;
}

/**
 * Counts the checks of one resource across runs: one more than in state. A create that never
 * reached state (a killed plugin) is checked again with the same number, so its marker repeats;
 * a replacement gets a number the object it replaces never had, so it never adopts that object.
 */
export const GENERATION_KEY = "__generation";

/** Bookkeeping inputs that no diff compares and no check judges. */
export const BOOKKEEPING_KEYS: readonly string[] = [IDENTITY_KEY, GENERATION_KEY];

/** The check's inputs with the next generation (one more than the stored one). */
export function withGeneration(olds: Props, inputs: Props): Props {
  if (typeof inputs[IDENTITY_KEY] !== "string") return inputs;
  const stored = Number(olds[GENERATION_KEY]);
  return { ...inputs, [GENERATION_KEY]: Number.isInteger(stored) && stored > 0 ? stored + 1 : 1 };
}

/**
 * Whether this create is the resource's first (generation 1, with an identity): for kinds whose
 * objects hold no marker, only then can an identical object be what a killed run left; a
 * replacement (created before the old object is deleted) would take over the very object it
 * replaces, which the delete that follows then removes.
 */
export function isFirstCreate(inputs: Props): boolean {
  return identityMarker(inputs) !== undefined && (Number(inputs[GENERATION_KEY]) || 1) === 1;
}

/**
 * The adoption marker of one create: the same for every run that creates this resource in
 * this generation (so a run after a killed one finds what it left), different for another
 * resource, stack or generation: the stack's tag (from its nonce), then a hash of the
 * identity and generation. As short as the markers of earlier releases (16 characters), so
 * every name that held one still fits. Undefined for inputs without a known identity.
 */
export function identityMarker(inputs: Props): string | undefined {
  const identity = knownIdentity(inputs);
  if (identity === undefined) return undefined;
  const generation = Number(inputs[GENERATION_KEY]) || 1;
  const nonce = nonceOf(identity);
  const hash = createHash("sha256").update(`${identity}#${generation}`);
  // A legacy identity (a state written by an older release, checked by hand) keeps its old marker.
  if (nonce === undefined) return hash.digest("hex").slice(0, MARKER_LENGTH);
  return stackTagOf(nonce) + hash.digest("base64url").slice(0, MARKER_LENGTH - STACK_TAG_LENGTH);
}

/** Most sends of one create in one operation when their responses are lost. */
export const MAX_LOST_CREATES = 3;

/** A lost response (the service may have acted). */
export function isLostResponse(error: unknown): error is Error {
  return error instanceof ResponseLostError;
}

/** A lost response, or a 2xx whose body cannot be read: either way the service may have acted. */
export function isAmbiguousResponse(error: unknown): error is Error {
  return error instanceof ResponseLostError || error instanceof ResponseSchemaError;
}

export interface CreateOnce<T> {
  /**
   * Before the first send: what an earlier run of this same create left (its plugin killed
   * mid-request), to adopt instead of creating another; undefined when nothing.
   */
  adopt?: () => Promise<T | undefined>;
  /** Sends the create; `send` is the 1-based number of this send. */
  send(send: number): Promise<T>;
  /**
   * After send number `send` lost its response: what that request made (adopt it), or
   * undefined when it made nothing that can be used (then the create is sent again). It may
   * also clean up what cannot be used, or throw to stop.
   */
  recover(error: Error, send: number): Promise<T | undefined>;
  /** Which errors leave the outcome unknown (default: ResponseLostError). */
  isAmbiguous?: (error: unknown) => error is Error;
  /** Sends in all before the last lost response is thrown (default MAX_LOST_CREATES). */
  maxSends?: number;
  /** Turns the last lost response into the error to throw (default: the error itself). */
  giveUp?: (error: Error, sends: number) => Error;
}

/** Runs a create so that a lost response never makes a second object. */
export async function createAtMostOnce<T>(op: CreateOnce<T>): Promise<T> {
  const ambiguous = op.isAmbiguous ?? isLostResponse;
  const maxSends = op.maxSends ?? MAX_LOST_CREATES;
  const earlier = op.adopt ? await op.adopt() : undefined;
  if (earlier !== undefined) return earlier;
  for (let send = 1; ; send++) {
    try {
      return await op.send(send);
    } catch (error) {
      if (!ambiguous(error)) throw error;
      const made = await op.recover(error, send);
      if (made !== undefined) return made;
      if (send >= maxSends) throw op.giveUp ? op.giveUp(error, send) : error;
    }
  }
}

/** The first thing `find` returns within the look-up window, or undefined. */
export async function lookUp<T>(find: () => Promise<T | undefined>): Promise<T | undefined> {
  const lookups = lostResponseLookups();
  for (let i = 0; i < lookups; i++) {
    if (i > 0) await currentTiming().sleep(pollIntervalMs());
    const found = await find();
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Waits out the look-up window, for effects that cannot be looked up (a key rotation). */
export async function waitOutLostRequest(): Promise<void> {
  const wait = (lostResponseLookups() - 1) * pollIntervalMs();
  if (wait > 0) await currentTiming().sleep(wait);
}
