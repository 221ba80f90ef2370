/**
 * Deletes that count only when the service itself says so. Two answers prove nothing and are
 * checked by reading the object back: a 404 without the service's error shape (an HTML page
 * from a proxy, a wrong API URL), and a 2xx without the success shape the service documents for
 * that delete (`200 {}`, `204`: a proxy or another server may have answered, and nothing was
 * deleted). When the read shows the object gone the delete counts; when it still finds it, or
 * cannot tell, the delete fails rather than report a live object as deleted.
 */
import type { DocumentedShape } from "../core";
import type { Endpoint } from "../endpoints";
import { DeleteNotConfirmedError, DeleteNotSeenError, NotFoundError, UndocumentedSuccessError, WriteNotSeenError } from "../errors";
import type { DeleteResult } from "../types-templates";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `{success: true, ...}`: the documented answer of every delete but the API key's (vendor document). */
export const SUCCESS_TRUE: DocumentedShape = { shape: "{success: true}", test: (json) => isRecord(json) && json.success === true };

/** The API key delete's documented answer is a JSON string ("Successfully Deleted API Key"); `{success: true}` is accepted too. */
export const STRING_OR_SUCCESS_TRUE: DocumentedShape = {
  shape: 'a JSON string such as "Successfully Deleted API Key", or {success: true}',
  test: (json) => (typeof json === "string" && json.trim() !== "") || SUCCESS_TRUE.test(json),
};

export interface ConfirmedDelete {
  /** What is deleted, for messages: `instance 42`, `API key 7`. */
  what: string;
  /** The delete call; it must pass a `documented` shape to the request so that an answer
   * without it throws UndocumentedSuccessError. */
  run: () => Promise<unknown>;
  /** Service answers that mean "no such object" besides a 404 of the service's shape. */
  isGone?: (error: unknown) => boolean;
  /** Whether the object is still there; throws when the service cannot be read. */
  stillThere: () => Promise<boolean>;
  /**
   * Read the object back after a success answer too: the delete counts only when the read shows
   * it gone. For kinds whose documented answer is a bare `{success: true}`, a string or an
   * empty body, which any server can give (issue 33 item 3); one read per delete.
   */
  readBack?: boolean;
}

export async function deleteConfirmed(d: ConfirmedDelete): Promise<DeleteResult> {
  try {
    await d.run();
  } catch (error) {
    return settle(d, error);
  }
  if (d.readBack) {
    let there: boolean;
    try {
      there = await d.stillThere();
    } catch {
      // The documented answer stands when the read cannot tell (an outage right after the
      // delete): only an object seen still there refutes it.
      there = false;
    }
    if (there) throw new DeleteNotSeenError(d.what, "reading it back still finds it");
  }
  return { alreadyGone: false };
}

/** A delete call that threw: a 404 or undocumented 2xx is settled by reading the object back. */
async function settle(d: ConfirmedDelete, error: unknown): Promise<DeleteResult> {
  const undocumented = error instanceof UndocumentedSuccessError;
  if (!undocumented && (!(error instanceof NotFoundError) || error.fromService)) {
    if (error instanceof NotFoundError || d.isGone?.(error)) return { alreadyGone: true };
    throw error;
  }
  const site = error as (NotFoundError | UndocumentedSuccessError) & { answered?: string };
  let there: boolean;
  try {
    there = await d.stillThere();
  } catch (readError) {
    throw new DeleteNotConfirmedError(site, d.what, "reading it back failed too", readError);
  }
  if (there) throw new DeleteNotConfirmedError(site, d.what, "reading it back still finds it", error);
  // An undocumented 2xx whose object is gone was our delete; a foreign 404's was gone before.
  return { alreadyGone: !undocumented };
}

/**
 * After a write's documented success answer, read its effect back once: `absent` names what the
 * read shows missing (null when the effect is seen). A read that fails does not refute the
 * documented answer (an outage right after the write); only a read that shows the effect absent does.
 */
export async function writeSeen(what: string, write: "create" | "update" | "listing", call: Endpoint, absent: () => Promise<string | null>): Promise<void> {
  let why: string | null;
  try {
    why = await absent();
  } catch {
    return;
  }
  if (why !== null) throw new WriteNotSeenError(what, write, call, why);
}
