/**
 * Waiting for an instance to reach `running`. Every poll reads the instance afresh (never the
 * shared cache, which may predate the boot), together with the other instances of the process
 * waiting at that moment (kit/live/boot-polls.ts), until it runs, reaches a status it never
 * leaves (exited, unknown, offline), disappears, or the deadline passes. The polls follow the
 * boots seen so far: short ones near the expected end of the boot, not a whole poll interval.
 * While it waits, the status and the service's message go to the engine log as they change
 * (kit/progress.ts).
 */
import type { Instance, VastClient } from "../../client";
import { fatalBoot, readStatus, withoutStartCommand, type FatalBoot } from "./status";
import { bootPaceOf, currentTiming } from "../kit";
import { bootReads } from "./live";
import { progressReporter } from "../kit/progress";

export type BootOutcome =
  | { kind: "running"; instance: Instance }
  | { kind: "dead"; instance: Instance; status: string; fatal?: FatalBoot }
  | { kind: "gone" }
  | { kind: "timeout"; instance: Instance | null; status: string | null };

/**
 * Polls instance `id` until an outcome; `timeoutMs` counts from the call. `failWhen` names a
 * state that never runs beyond the dead statuses (an outbid bid), as the status to report.
 */
export async function waitForRunning(
  client: VastClient,
  id: number,
  timeoutMs: number,
  failWhen?: (instance: Instance) => string | undefined,
): Promise<BootOutcome> {
  const { now, sleep } = currentTiming();
  const pace = bootPaceOf(client, "instance");
  const started = now();
  const deadline = started + timeoutMs;
  // The status and the service's message while it boots (pulling the image, loading), as they change.
  const progress = progressReporter(`Instance ${id}`, started);
  for (let polls = 0; ; polls++) {
    const instance = (await bootReads(client).read([id])).get(id);
    if (!instance) return { kind: "gone" };
    const { status, kind } = readStatus(id, instance.actualStatus);
    if (kind === "running") {
      // A boot seen under way: its length tells when the next ones end.
      if (polls > 0) pace.note(now() - started);
      return { kind: "running", instance };
    }
    if (kind === "dead" && status !== null) return { kind: "dead", instance, status };
    // Stuck in `created` with a message after which it never starts (a bad image, a broken host).
    const fatal = fatalBoot(instance.actualStatus, instance.statusMsg);
    if (fatal) return { kind: "dead", instance, status: status ?? "created", fatal };
    const failed = failWhen?.(instance);
    if (failed !== undefined) return { kind: "dead", instance, status: failed };
    progress.note(status, instance.statusMsg);
    const left = deadline - now();
    if (left <= 0) return { kind: "timeout", instance, status };
    await sleep(Math.min(pace.nextDelay(now() - started), left));
  }
}

/** Words for an outcome that is not `running`, for error messages; the service's text shows nothing of the start command `sent`. */
export function describeOutcome(outcome: Exclude<BootOutcome, { kind: "running" }>, timeoutMs: number, sent: { onstart?: unknown; argsStr?: unknown } = {}): string {
  if (outcome.kind === "gone") return "it disappeared while booting";
  if (outcome.kind === "dead" && outcome.fatal) {
    const whose = outcome.fatal.about === "host" ? "the machine" : "the image or its entrypoint";
    return `it cannot start (${whose}): the service says "${withoutStartCommand(outcome.fatal.message, sent)}"`;
  }
  if (outcome.kind === "dead") return `it became ${outcome.status} while booting (it will never run)`;
  const minutes = Number((timeoutMs / 60_000).toPrecision(3));
  return `it was not running after ${minutes} minutes (runningTimeoutMinutes; last status ${outcome.status ?? "none yet"})`;
}
