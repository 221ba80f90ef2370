/**
 * The one length rule for text the service limits (labels, onstart): it counts bytes of
 * UTF-8, not characters, so a label of 600 emoji is 2400 bytes, far over a 1024 limit.
 */

/** Length of `text` as the service counts it: bytes of UTF-8. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** True when `text` is at most `limit` bytes of UTF-8. */
export function fitsBytes(text: string, limit: number): boolean {
  return utf8Bytes(text) <= limit;
}
