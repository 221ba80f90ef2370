/**
 * Warnings for the user: through the engine log (`pulumi.log.warn`, shown with the resource
 * operation), each at most once per process. Tests replace the sink.
 */

export type WarningSink = (message: string) => void;

function engineWarn(message: string): void {
  // Loaded when a warning is due, so resource code stays free of the SDK until then.
  const pulumi = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
  void Promise.resolve(pulumi.log.warn(message)).catch(() => undefined);
}

let sink: WarningSink = engineWarn;
const warned = new Set<string>();

/** Replace where warnings go (tests); returns the previous sink. Also forgets what was warned. */
export function setWarningSink(next: WarningSink | undefined): WarningSink {
  const previous = sink;
  sink = next ?? engineWarn;
  warned.clear();
  return previous;
}

/** Warn once for `key` in this process. */
export function warnOnce(key: string, message: string): void {
  if (warned.has(key)) return;
  warned.add(key);
  sink(message);
}
