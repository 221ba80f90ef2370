/**
 * Deletes whose "not found" is believed only from the service itself. A 404 without the
 * service's error shape (an HTML page from a proxy, a wrong API URL) is checked by reading the
 * object back; when that read cannot tell, the delete fails rather than report a live object
 * as deleted.
 */
import { DeleteNotConfirmedError, NotFoundError } from "../errors";
import type { DeleteResult } from "../types-templates";

export interface ConfirmedDelete {
  /** What is deleted, for messages: `instance 42`, `API key 7`. */
  what: string;
  run: () => Promise<unknown>;
  /** Service answers that mean "no such object" besides a 404 of the service's shape. */
  isGone?: (error: unknown) => boolean;
  /** Whether the object is still there; throws when the service cannot be read. */
  stillThere: () => Promise<boolean>;
}

export async function deleteConfirmed(d: ConfirmedDelete): Promise<DeleteResult> {
  try {
    await d.run();
    return { alreadyGone: false };
  } catch (error) {
    if (!(error instanceof NotFoundError) || error.fromService) {
      if (error instanceof NotFoundError || d.isGone?.(error)) return { alreadyGone: true };
      throw error;
    }
    let there: boolean;
    try {
      there = await d.stillThere();
    } catch (readError) {
      throw new DeleteNotConfirmedError(error, d.what, "reading it back failed too", readError);
    }
    if (there) throw new DeleteNotConfirmedError(error, d.what, "reading it back still finds it", error);
    return { alreadyGone: true };
  }
}
