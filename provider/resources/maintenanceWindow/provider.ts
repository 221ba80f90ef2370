/**
 * The provider behind `MaintenanceWindow`. One resource is one window (same start, duration
 * and category) on any number of machines; the service holds one window record per machine.
 *
 * Lifecycle decisions:
 * - create schedules in batches of 100, then lists the machines' windows to learn the window
 *   ids (the schedule answer carries none). Windows that existed before are excluded, so a
 *   window scheduled by hand or by another stack is never taken for ours.
 * - read before the start reports the windows still there; none left means the window was
 *   cancelled outside Pulumi and the resource is gone (empty id). Some left: the machines
 *   that lost theirs are dropped from `machineIds`, so the next `up` schedules them again.
 *   Once the start has passed nothing is looked up: the window ran (or runs), the service
 *   may drop it from its list, and it stays in state without forcing any change.
 * - delete cancels only windows that have not started; a window that started, ran or is
 *   gone needs nothing.
 */
import type { MaintenanceWindow } from "../../client/types-account";
import type { VastClient } from "../../client";
import { getClient } from "../../context";
import { ImportableImpl, PartialFailure, Props, currentTiming, identityMarker, jsonClean, userInputs } from "../kit";
import { checkMaintenanceWindow, diffMaintenanceWindow, planOf, uniqueSorted } from "./inputs";
import { rollbackCreate, scheduleFailure } from "./rollback";
import { endUnixOf, outputsOf, statusAt, windowId } from "./outputs";
import { cancelAndVerify, listWindows, matchesPlan, scheduleBatches, unixOf, type ScheduleOutcome } from "./service";
import { windowsOf } from "./live";

const INPUT_KEYS = ["machineIds", "startTime", "durationHours", "category", "allowPartial"];

function numbers(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((x): x is number => typeof x === "number") : [];
}

/** What state says was scheduled: the plan, the window ids found, and the machines they are on. */
function recorded(props: Props) {
  const plan = planOf(props);
  const scheduled = Array.isArray(props.scheduledMachineIds) ? numbers(props.scheduledMachineIds) : plan.machineIds;
  return { plan, maintenanceIds: numbers(props.maintenanceIds), scheduledMachineIds: scheduled };
}

/** Our windows among listed ones: by id when the ids are known, else by machine and schedule. */
function ours(windows: MaintenanceWindow[], rec: ReturnType<typeof recorded>): MaintenanceWindow[] {
  if (rec.maintenanceIds.length > 0) {
    const ids = new Set(rec.maintenanceIds);
    return windows.filter((w) => ids.has(w.id));
  }
  const machines = new Set(rec.scheduledMachineIds);
  return windows.filter((w) => machines.has(w.machineId) && matchesPlan(w, rec.plan));
}

function inputsOf(props: Props): Props {
  const inputs = userInputs(props);
  return Object.fromEntries(INPUT_KEYS.filter((k) => k in inputs).map((k) => [k, inputs[k]]));
}

// The clock (kit settings, replaceable in tests) judges "in the future" in check, where no
// call may be made.
const now = () => currentTiming().now();
/**
 * "Has started" is the service's judgement: our clock corrected by how far the service's is
 * ahead (the Date of its last answer to this process), ours alone before any answer.
 */
const serviceNow = (api: VastClient = getClient()) => now() + (api.serverClockSkewMs() ?? 0);

/**
 * How far ahead of ours the service's clock (its Date header) is trusted to decide that a
 * window has started, and so that there is nothing to cancel. NTP-kept clocks agree within a
 * second, the header has whole seconds, and a window lasts at least an hour: 10 minutes
 * covers any honest difference, while a Date a year ahead (a proxy's, a wrong host's) would
 * make a destroy skip the cancel and report success with the window still scheduled. A skew the
 * other way only makes the destroy cancel (the safe side), so it is trusted whatever its size.
 */
export const MAX_TRUSTED_SKEW_MS = 10 * 60 * 1000;

export const provider: ImportableImpl = {
  // importId: the resource's id, which the window's machines, start, duration and category
  // make (`mw-<start>-<digest>`): the declared inputs must make the same id, and the windows of
  // that plan are looked up on the declared machines.
  importing: {
    type: "MaintenanceWindow",
    noun: "maintenance window",
    idRule: 'must be a MaintenanceWindow id "mw-<start unix seconds>-<12 hex digits>" (what the resource\'s id would be)',
    validId: (id) => /^mw-\d{1,12}-[0-9a-f]{12}$/.test(id),
    verify: (id, declared) => {
      const made = windowId(planOf(declared));
      return made === id ? undefined : `the declared machineIds, startTime, durationHours and category make the id "${made}", not this one`;
    },
  },

  async check(olds, news) {
    return checkMaintenanceWindow(olds, news, now());
  },

  async diff(_id, olds, news) {
    return diffMaintenanceWindow(olds, news);
  },

  async create(inputs) {
    const plan = planOf(inputs);
    const api = getClient();
    const id = windowId(plan);
    const existing = await listWindows(api, plan.machineIds);
    // A window carries no marker. With the identity the class sets, a window of exactly this plan
    // already on a machine is taken as what an earlier, killed run of this create scheduled: it is
    // adopted, not scheduled twice. (Replacement deletes first, so it is never the old window.)
    const adopted = identityMarker(inputs) === undefined ? [] : existing.filter((w) => matchesPlan(w, plan));
    const adoptedMachines = new Set(adopted.map((w) => w.machineId));
    const before = new Set(existing.filter((w) => !adopted.includes(w)).map((w) => w.id));
    const rest = { ...plan, machineIds: plan.machineIds.filter((m) => !adoptedMachines.has(m)) };
    const outcome: ScheduleOutcome = rest.machineIds.length > 0 ? await scheduleBatches(api, rest) : { results: [], unsent: [] };
    outcome.results.push(...[...adoptedMachines].map((machineId) => ({ machineId, success: true, notificationsSent: 0 })));
    outcome.results.sort((a, b) => a.machineId - b.machineId);
      const failure = scheduleFailure(plan, outcome);
    if (failure) await rollbackCreate(api, { id, plan, inputs, before, outcome, reason: failure, nowMs: serviceNow(api) });
    const scheduled = outcome.results.filter((r) => r.success).map((r) => r.machineId);
    let found: MaintenanceWindow[];
    try {
      found = (await listWindows(api, scheduled)).filter((w) => !before.has(w.id) && matchesPlan(w, plan));
    } catch (error) {
      const outs = outputsOf(plan, outcome.results, [], serviceNow(api));
      throw new PartialFailure(
        `MaintenanceWindow: the window was scheduled on ${scheduled.length} machines, but listing them to record the window ids failed: ${(error as Error).message}. It stays in state; a refresh records the ids.`,
        id,
        inputs,
        outs,
      );
    }
    const outs = outputsOf(plan, outcome.results, found.map((w) => w.id), serviceNow(api));
    return { id, outs: jsonClean({ ...inputs, ...outs }) as Props };
  },

  async read(id, props) {
    const rec = recorded(props);
    const status = statusAt(rec.plan, serviceNow());
    const inputs = inputsOf(props);
    if (status !== "scheduled") return { id, props: { ...props, status }, inputs };
    // Windows read at about the same time (a refresh) share list calls, 100 machines each.
    const live = ours(await windowsOf(rec.scheduledMachineIds, getClient()), rec);
    if (live.length === 0) return { id: "" };
    const liveMachines = uniqueSorted(live.map((w) => w.machineId));
    const lost = new Set(rec.scheduledMachineIds.filter((m) => !liveMachines.includes(m)));
    const current = lost.size === 0 ? inputs : { ...inputs, machineIds: numbers(inputs.machineIds).filter((m) => !lost.has(m)) };
    // The times follow from the plan: a window taken over (importId) gets them too.
    const times = { startTimeUnix: rec.plan.startUnix, endTimeUnix: endUnixOf(rec.plan), endTime: new Date(endUnixOf(rec.plan) * 1000).toISOString() };
    const outs = { ...props, ...current, ...times, maintenanceIds: uniqueSorted(live.map((w) => w.id)), scheduledMachineIds: liveMachines, status };
    return { id, props: jsonClean(outs) as Props, inputs: current };
  },

  // Only allowPartial changes in place, and it matters only while scheduling: keep the rest.
  async update(_id, olds, news) {
    const plan = planOf(news);
    const outs = { ...olds, ...userInputs(news), status: statusAt(plan, serviceNow()) };
    return { outs: jsonClean(outs) as Props };
  },

  // Whether a window has started is judged by the service's clock (the Date of the listing's
  // answer), not ours: a local clock hours fast would otherwise cancel nothing.
  async delete(_id, props) {
    const rec = recorded(props);
    const api = getClient();
    const listed = ours(await listWindows(api, rec.scheduledMachineIds), rec);
    const nowUnix = serviceNow(api) / 1000;
    if (nowUnix >= rec.plan.startUnix) {
      const skew = api.serverClockSkewMs() ?? 0;
      // Started by the service's clock alone, and that clock is far ahead of ours: not believed.
      if (skew > MAX_TRUSTED_SKEW_MS && now() / 1000 < rec.plan.startUnix) {
        throw new Error(
          `MaintenanceWindow: the service's Date header is ${Math.round(skew / 60_000)} minutes ahead of this machine's clock ` +
            `(more than the ${MAX_TRUSTED_SKEW_MS / 60_000} minutes trusted), and only by that clock has the window ` +
            `(start ${new Date(rec.plan.startUnix * 1000).toISOString()}) started. Nothing was cancelled. ` +
            "Check this machine's clock and the proxy between it and the service, then retry the destroy.",
        );
      }
      return;
    }
    const waiting = listed.filter((w) => (unixOf(w.startTime) ?? rec.plan.startUnix) > nowUnix);
    const outcome = await cancelAndVerify(api, waiting);
    if (outcome.refused.length > 0) {
      const list = outcome.refused.map((r) => `${r.maintenanceId}${r.msg ? ` (${r.msg})` : ""}`).join(", ");
      throw new Error(`MaintenanceWindow: the service refused to cancel ${outcome.refused.length} windows: ${list}. Cancel them by hand or retry the destroy.`);
    }
  },
};
