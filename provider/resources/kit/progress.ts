/**
 * Progress of a long wait for the user: through the engine log (`pulumi.log.info`, which the CLI
 * shows while the operation runs), so a boot of minutes says more than `creating...`. A waiter
 * reports what it sees on each poll; a line goes out only when the status or the service's
 * message changed since the last line, and at most one per `minGapMs` (a change seen sooner is
 * shown on a later poll if it still holds). Tests replace the sink.
 */
import { currentTiming, pollIntervalMs } from "./settings";

export type ProgressSink = (message: string) => void;

function engineInfo(message: string): void {
  // Loaded when a line is due, so resource code stays free of the SDK until then.
  const pulumi = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
  void Promise.resolve(pulumi.log.info(message)).catch(() => undefined);
}

let sink: ProgressSink = engineInfo;

/** Replace where progress lines go (tests); returns the previous sink. */
export function setProgressSink(next: ProgressSink | undefined): ProgressSink {
  const previous = sink;
  sink = next ?? engineInfo;
  return previous;
}

/** Fewest milliseconds between two lines of one wait: 5 s, or the poll interval when shorter (tests poll fast). */
export function progressGapMs(): number {
  return Math.min(5_000, pollIntervalMs());
}

export interface ProgressReporter {
  /** What the poll saw: a status (null when the service gives none yet) and the service's message. */
  note(status: string | null, message: string | null | undefined): void;
}

/** A reporter for one wait; `what` names the object ("Instance 123"), `startedAt` is from currentTiming().now(). */
export function progressReporter(what: string, startedAt: number, minGapMs = progressGapMs()): ProgressReporter {
  let last: string | undefined;
  let lastAt = -Infinity;
  return {
    note(status, message) {
      const shown = describe(status, message);
      if (shown === last) return;
      const now = currentTiming().now();
      if (now - lastAt < minGapMs) return;
      last = shown;
      lastAt = now;
      sink(`${what}: ${shown} (${Math.round((now - startedAt) / 1000)}s)`);
    },
  };
}

function describe(status: string | null, message: string | null | undefined): string {
  const text = (message ?? "").trim().replace(/\s+/g, " ").slice(0, 200);
  const name = status ?? "provisioning";
  return text && text.toLowerCase() !== name.toLowerCase() ? `${name}, "${text}"` : name;
}
