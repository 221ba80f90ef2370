/**
 * The one place that resolves credentials and URLs. Pure: the Pulumi config reader, the
 * environment and the home directory are parameters, so it needs no Pulumi runtime and is
 * testable.
 *
 * Order for the key: explicit value, Pulumi config `vastai:apiKey`, `VAST_API_KEY`, the file
 * `~/.config/vastai/vast_api_key` (the official CLI's). URLs: explicit, `vastai:apiUrl` /
 * `VAST_URL` / `https://console.vast.ai`, and `vastai:runUrl` / `VAST_RUN_URL` /
 * `https://run.vast.ai`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEFAULT_API_URL, DEFAULT_RUN_URL } from "./client/client";

export { DEFAULT_API_URL, DEFAULT_RUN_URL };

/** The settings `resolveConfig` found: the API key, the API and serverless URLs. */
export interface ResolvedConfig {
  apiKey: string;
  apiUrl: string;
  runUrl: string;
}

/** Where `resolveConfig` looks for settings: the stack configuration, the environment and the home directory (each injectable for tests). */
export interface ConfigSources {
  /** Reads a Pulumi config value by full key, for example `vastai:apiKey`. */
  config?: (key: string) => string | undefined;
  /** Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Default `os.homedir()`. */
  homeDir?: string;
}

/** Path of the official CLI's key file under a home directory. */
export function keyFilePath(homeDir: string): string {
  return path.join(homeDir, ".config", "vastai", "vast_api_key");
}

/** No API key was found in `vastai:apiKey`, `VAST_API_KEY` or the key file; the message names all three. */
export class MissingApiKeyError extends Error {
  constructor(keyFile: string) {
    super(
      `No Vast.ai API key found: set it with \`pulumi config set --secret vastai:apiKey <key>\`, ` +
        `or the VAST_API_KEY environment variable, or put it in the file ${keyFile}.`,
    );
    this.name = "MissingApiKeyError";
  }
}

/** The first value that is a non-blank string, trimmed. */
function first(...values: Array<string | undefined>): string | undefined {
  for (const v of values) {
    if (typeof v === "string" && v.trim() !== "") return v.trim();
  }
  return undefined;
}

function readKeyFile(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    // Absent or unreadable: the error for a missing key names the file.
    return undefined;
  }
}

/**
 * An API key is sent in the Authorization header, which takes printable ASCII only: a key
 * with a control character (a pasted line break, a tab) or a non-ASCII one would otherwise
 * fail every call as a network error. The message says where and what, never the key.
 */
function checkApiKey(key: string, source: string): string {
  const chars = [...key];
  const bad = chars.findIndex((ch) => !/^[\x21-\x7e]$/.test(ch));
  if (bad === -1) return key;
  const code = chars[bad].codePointAt(0) ?? 0;
  const what = code < 0x20 || code === 0x7f ? "a control character" : code === 0x20 ? "a space" : "a non-ASCII character";
  throw new InvalidApiKeyError(
    `The Vast.ai API key from ${source} has ${what} (U+${code.toString(16).toUpperCase().padStart(4, "0")}) at position ${bad + 1} of ${chars.length}: ` +
      `keys are printable ASCII without spaces. Set it again, copying only the key.`,
  );
}

/** The API key found in the configuration is malformed; the message names where it came from, never its value. */
export class InvalidApiKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidApiKeyError";
  }
}

function checkUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} "${value}" is not a URL: give a full URL such as https://console.vast.ai`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`${name} "${value}" must use http or https`);
  }
  return value.replace(/\/+$/, "");
}

/** Resolve the key and URLs. Throws MissingApiKeyError (one sentence naming all three ways) without a key. */
export function resolveConfig(
  explicit: { apiKey?: string; apiUrl?: string; runUrl?: string } = {},
  sources: ConfigSources = {},
): ResolvedConfig {
  const config = sources.config ?? (() => undefined);
  const env = sources.env ?? process.env;
  const keyFile = keyFilePath(sources.homeDir ?? os.homedir());
  const keySources: Array<[string | undefined, string]> = [
    [explicit.apiKey, "the apiKey option"],
    [config("vastai:apiKey"), "the Pulumi config vastai:apiKey"],
    [env.VAST_API_KEY, "the VAST_API_KEY environment variable"],
  ];
  let found = keySources.find(([value]) => first(value) !== undefined);
  if (!found) {
    const fromFile = readKeyFile(keyFile);
    if (first(fromFile)) found = [fromFile, `the file ${keyFile}`];
  }
  if (!found) throw new MissingApiKeyError(keyFile);
  const apiKey = checkApiKey(first(found[0]) as string, found[1]);
  const apiUrl = first(explicit.apiUrl, config("vastai:apiUrl"), env.VAST_URL) ?? DEFAULT_API_URL;
  const runUrl = first(explicit.runUrl, config("vastai:runUrl"), env.VAST_RUN_URL) ?? DEFAULT_RUN_URL;
  return { apiKey, apiUrl: checkUrl("apiUrl", apiUrl), runUrl: checkUrl("runUrl", runUrl) };
}

/**
 * Parses a numeric provider setting read from stack config or the environment: undefined when
 * unset or blank, else the number. Throws, naming the setting, the rule and the value, when the
 * value breaks the rule (`positive`: finite and > 0; `count`: a whole number >= 1).
 */
export function parseNumberSetting(name: string, envName: string, raw: string | undefined, rule: "positive" | "count"): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = Number(raw.trim());
  const ok = rule === "positive" ? Number.isFinite(value) && value > 0 : Number.isInteger(value) && value >= 1;
  if (ok) return value;
  const want = rule === "positive" ? "a finite number greater than 0" : "a whole number of at least 1";
  throw new Error(`vastai:${name} (or ${envName}) must be ${want}, got "${raw}"`);
}
