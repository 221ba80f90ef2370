/**
 * The one place instance statuses are read. The service's `actual_status` is compared after
 * trimming and lower-casing ("EXITED", "offline " are exited and offline), and a status outside
 * those the service is known to use is reported, not taken for "still booting" in silence.
 */
import { echoMask } from "../../client";
import { warnOnce } from "../kit";

/** Statuses from which an instance never reaches `running` (spec: States and transitions). */
export const DEAD_STATUSES: readonly string[] = ["exited", "unknown", "offline"];

/** Statuses on the way to running or held by the user (api-facts: Instances). */
const OTHER_STATUSES: readonly string[] = ["created", "loading", "stopped", "frozen", "rebooting"];

export type StatusKind = "running" | "dead" | "other" | "unrecognised" | "none";

export interface ReadStatus {
  /** Trimmed and lower case; null while provisioning. */
  status: string | null;
  kind: StatusKind;
}

/** The normal form of a status: trimmed, lower case; null for none. */
export function normalizeStatus(raw: string | null | undefined): string | null {
  if (typeof raw !== "string") return null;
  const s = raw.trim().toLowerCase();
  return s === "" ? null : s;
}

/**
 * What a status means. An unrecognised one is warned about once per instance and status
 * (through the engine log) and treated as not dead: replacing on a guess would destroy a
 * machine that may be fine.
 */
export function readStatus(id: number | string, raw: string | null | undefined): ReadStatus {
  const status = normalizeStatus(raw);
  if (status === null) return { status, kind: "none" };
  if (status === "running") return { status, kind: "running" };
  if (DEAD_STATUSES.includes(status)) return { status, kind: "dead" };
  if (OTHER_STATUSES.includes(status)) return { status, kind: "other" };
  warnOnce(
    `instance ${id} status ${status}`,
    `Instance ${id}: the service reports the status ${JSON.stringify(raw)}, which the provider does not know; ` +
      `it is treated as not failed (known: running, ${[...OTHER_STATUSES, ...DEAD_STATUSES].join(", ")}).`,
  );
  return { status, kind: "unrecognised" };
}

/** A boot that cannot succeed, by the service's `status_msg`; `about` says whose fault it is. */
export interface FatalBoot {
  /** `host`: the machine (another may work); `container`: the image or its entrypoint (no machine will). */
  about: "host" | "container";
  /** The service's text, as it gave it. */
  message: string;
}

/** Messages about the machine (its GPU driver, runtime or disk): renting elsewhere may work. */
const HOST_FATAL = [/nvidia-container-cli/i, /could not select device driver/i, /no space left on device/i, /error running hook/i, /cuda driver version is insufficient/i];
/** Messages about the container: a bad image or entrypoint, which fail on every machine (dstack fails these at once). */
const CONTAINER_FATAL = [/OCI runtime create failed/i, /pull access denied/i, /manifest (for \S+ )?unknown/i, /repository does not exist/i, /exec format error/i, /invalid reference format/i];

/**
 * Whether a booting instance (`created`, or no status yet) shows a known message after which it
 * never starts; undefined for any other message. Host messages are checked first: an OCI error
 * caused by the GPU runtime is the machine's.
 */
export function fatalBoot(actualStatus: string | null | undefined, statusMsg: string | null | undefined): FatalBoot | undefined {
  const status = normalizeStatus(actualStatus);
  if (status !== null && status !== "created" && status !== "loading") return undefined;
  if (typeof statusMsg !== "string" || statusMsg.trim() === "") return undefined;
  const message = statusMsg.trim();
  if (HOST_FATAL.some((r) => r.test(message))) return { about: "host", message };
  if (CONTAINER_FATAL.some((r) => r.test(message))) return { about: "container", message };
  return undefined;
}

/**
 * A service text about an instance with its own start command hidden (issue 33 item 4): a
 * container that cannot start may repeat its arguments or script (`exec: "<args>": not found`).
 */
export function withoutStartCommand(text: string, sent: { onstart?: unknown; argsStr?: unknown }): string {
  const mask = echoMask({ onstart: typeof sent.onstart === "string" ? sent.onstart : undefined, args_str: typeof sent.argsStr === "string" ? sent.argsStr : undefined });
  return mask ? mask(text) : text;
}
