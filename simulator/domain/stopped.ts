/**
 * Time an instance spent stopped (by its owner, a start waiting for the machine, or outbid):
 * the service bills its GPU only while it is not stopped, its disk all along (billing.ts).
 */
import type { InstanceRecord } from "../store/types";

/** Whether an instance is stopped now (by its owner, a start waiting for the machine, or outbid): its GPU is not billed. */
export function isStopped(inst: InstanceRecord): boolean {
  return inst.outbid === true || inst.intendedStatus === "stopped" || inst.startQueued;
}

/** Records a change into or out of the stopped state; call after every change of what {@link isStopped} reads. */
export function noteStopped(inst: InstanceRecord, nowMs: number): void {
  const stopped = isStopped(inst);
  if (stopped && inst.stoppedSince === undefined) inst.stoppedSince = nowMs;
  if (!stopped && inst.stoppedSince !== undefined) {
    inst.stoppedMs = (inst.stoppedMs ?? 0) + Math.max(0, nowMs - inst.stoppedSince);
    delete inst.stoppedSince;
  }
}

/** Milliseconds instance `inst` has been stopped so far. */
export function stoppedMsOf(inst: InstanceRecord, nowMs: number): number {
  return (inst.stoppedMs ?? 0) + (inst.stoppedSince === undefined ? 0 : Math.max(0, nowMs - inst.stoppedSince));
}
