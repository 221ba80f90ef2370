/**
 * The API accepts at most 4048 bytes (UTF-8) of `onstart` (spec: Limits); longer scripts must be
 * compressed and encoded. The encoded form is one shell line that decodes the script with
 * base64 and gzip (present in every common image) and runs it with bash, keeping stdin free.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import { utf8Bytes } from "./text";

/** Most bytes (UTF-8) the API accepts in `onstart`. */
export const ONSTART_LIMIT = 4048;

const PREFIX = `bash -c "$(printf %s '`;
const SUFFIX = `' | base64 -d | gzip -dc)"`;

/** An onstart script as the service stores it, and its size. */
export interface EncodedOnstart {
  /** The bootstrap line to send as `onstart`. */
  command: string;
  /** Its length in bytes of UTF-8 (the encoded line is ASCII: bytes and characters agree). */
  length: number;
  /** Whether it fits the API limit. */
  fits: boolean;
}

/** Encode a script as a bootstrap line (always, whatever its length). */
export function encodeOnstart(script: string, limit = ONSTART_LIMIT): EncodedOnstart {
  // Level 9 and no file name or time in the header, so the same script gives the same line.
  const b64 = gzipSync(Buffer.from(script, "utf8"), { level: 9 }).toString("base64");
  const command = `${PREFIX}${b64}${SUFFIX}`;
  return { command, length: command.length, fits: command.length <= limit };
}

/** An onstart script ready to send (as written when it fits, else encoded), and whether it was encoded. */
export interface PreparedOnstart extends EncodedOnstart {
  /** True when the script had to be encoded. */
  encoded: boolean;
}

/** The script itself when it fits, else its encoded form; check `fits` before sending. */
export function prepareOnstart(script: string, limit = ONSTART_LIMIT): PreparedOnstart {
  const bytes = utf8Bytes(script);
  if (bytes <= limit) return { command: script, length: bytes, fits: true, encoded: false };
  return { ...encodeOnstart(script, limit), encoded: true };
}

/** The script inside a bootstrap line made by `encodeOnstart`, or undefined for any other text. */
export function decodeOnstart(command: string): string | undefined {
  if (!command.startsWith(PREFIX) || !command.endsWith(SUFFIX)) return undefined;
  const b64 = command.slice(PREFIX.length, command.length - SUFFIX.length);
  if (!/^[A-Za-z0-9+/=]*$/.test(b64)) return undefined;
  try {
    return gunzipSync(Buffer.from(b64, "base64")).toString("utf8");
  } catch {
    return undefined;
  }
}

/** The script an `onstart` value runs: decoded when it is a bootstrap line, else itself. */
export function onstartScript(command: string): string {
  return decodeOnstart(command) ?? command;
}

/**
 * The `onstart` value to send for a script: itself when it fits, else its encoded form.
 * Throws when even the encoded form does not fit, naming both lengths.
 */
export function encodedOnstart(script: string, limit = ONSTART_LIMIT): string {
  const prepared = prepareOnstart(script, limit);
  if (!prepared.fits) {
    throw new Error(
      `onstart must be at most ${limit} bytes, also after compression and encoding ` +
        `(the script has ${utf8Bytes(script)} bytes, encoded ${prepared.length}); move the script into the image or download it at start`,
    );
  }
  return prepared.command;
}
