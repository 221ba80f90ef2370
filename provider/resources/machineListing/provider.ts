/**
 * The provider behind `MachineListing`: one resource is the listing of one machine the account
 * hosts; its id is the machine id.
 *
 * Lifecycle decisions:
 * - create lists the machine (`PUT create_asks`, every term in one call) and sets the default
 *   job when one is declared. A machine that is already listed is not taken over silently: the
 *   create fails and names `importId` (the machine id), which adopts the listing and applies
 *   the declared terms. The one exception is a listing with exactly the declared terms on a
 *   resource that carries the stack identity: that is what an earlier, killed run of this
 *   create made, and it is adopted.
 * - read finds the machine in the account's machine list (one shared list call per process
 *   for every listing read at about the same time). A machine that is gone or no longer
 *   listed makes the resource gone (the next `up` lists it again); terms changed outside
 *   Pulumi show as drift on the declared inputs.
 * - update sends only what changed: the minimum bid alone goes through `PUT minbid` (raising a
 *   price through create_asks records a pending price increase for each renter, so the other
 *   prices are not sent again without need); any other term sends all terms.
 * - delete unlists this machine only (`DELETE /machines/{id}/asks/`) and removes the default
 *   job it set. Client contracts already running stay until their end.
 */
import type { Machine, MachineListingTerms } from "../../client/types-account";
import type { VastClient } from "../../client";
import { getClient } from "../../context";
import { ImportableImpl, PartialFailure, Props, currentTiming, deepEqual, identityMarker, jsonClean, readerFor, userInputs } from "../kit";
import { TERM_KEYS, UNSHOWN_TERMS, changedInputs, checkMachineListing, diffMachineListing, planOf, type ListingPlan, type TermKey } from "./inputs";

/** Every machine the account hosts, listed once for all listings read at about the same time. */
function liveMachines(client: VastClient = getClient()) {
  return readerFor<Machine>(client, "machines", (c) => ({ fetchAll: () => c.machines.list(), keyOf: (m) => String(m.id) }));
}

function outputsOf(plan: ListingPlan, machine: Machine | null, extended: number | undefined, prior: Props = {}): Props {
  return {
    listed: true,
    extendedContracts: extended ?? prior.extendedContracts ?? 0,
    endDateUnix: plan.terms.endDate ?? null,
    gpuName: machine?.gpuName ?? prior.gpuName ?? null,
    numGpus: machine?.numGpus ?? prior.numGpus ?? null,
    hostname: machine?.hostname ?? prior.hostname ?? null,
  };
}

/** Whether the live listing has every declared term the machine record shows. */
function sameTerms(live: MachineListingTerms | undefined, declared: MachineListingTerms): boolean {
  return Object.entries(declared).every(([k, v]) => UNSHOWN_TERMS.includes(k as TermKey) || (k === "endDate" && declared.duration !== undefined) || live?.[k as keyof MachineListingTerms] === v);
}

function notHosted(machineId: number): Error {
  return new Error(
    `MachineListing: machineId ${machineId} is not a machine this account hosts (the service lists no such machine for it). ` +
      "List only your own machines; getMachines() shows them.",
  );
}

export const provider: ImportableImpl = {
  // importId: the machine id. The kit reads the live listing, then update applies the declared terms.
  importing: {
    type: "MachineListing",
    noun: "machine listing",
    idRule: "must be the id of a listed machine this account hosts, such as \"50001\"",
    validId: (id) => /^[1-9]\d{0,11}$/.test(id),
    verify: (id, declared) => (String(declared.machineId) === id ? undefined : `the declared machineId is ${String(declared.machineId)}, not ${id}`),
  },

  async check(olds, news) {
    return checkMachineListing(olds, news, currentTiming().now());
  },

  async diff(_id, olds, news) {
    return diffMachineListing(olds, news);
  },

  async create(inputs) {
    const plan = planOf(inputs);
    const api = getClient();
    const machine = await api.machines.get(plan.machineId);
    if (!machine) throw notHosted(plan.machineId);
    if (machine.listed === true) {
      const ownRetry = identityMarker(inputs) !== undefined && sameTerms(machine.listing, plan.terms);
      if (!ownRetry) {
        throw new Error(
          `MachineListing: machine ${plan.machineId} is already listed` +
            (machine.listing?.pricePerGpu !== undefined ? ` (at $${machine.listing.pricePerGpu}/GPU/hour)` : "") +
            `, not by this resource. Nothing was changed. To manage that listing, set importId: "${plan.machineId}": ` +
            "the declared terms then replace the current ones, and destroying the resource unlists the machine.",
        );
      }
    }
    const { extended } = await api.machines.listMachine(plan.machineId, plan.terms);
    const outs = { ...inputs, ...outputsOf(plan, machine, extended) };
    if (plan.defaultJob) {
      try {
        await api.machines.setDefaultJob(plan.machineId, plan.defaultJob);
      } catch (error) {
        // The machine is listed: state holds the listing, without the default job, which the next up sets.
        const { defaultJob: _unset, ...listed } = outs;
        throw new PartialFailure(
          `MachineListing: machine ${plan.machineId} was listed, but setting its default job failed: ${(error as Error).message}`,
          String(plan.machineId),
          listed,
          {},
        );
      }
    }
    return { id: String(plan.machineId), outs: jsonClean(outs) as Props };
  },

  async read(id, props) {
    const machine = await liveMachines().get(id);
    if (!machine || machine.listed === false) return { id: "" };
    const inputs = userInputs(props);
    // Drift: each declared term takes the value the service shows.
    const current: Props = { ...inputs };
    for (const k of TERM_KEYS) {
      const live = machine.listing?.[k];
      if (!(k in inputs) || inputs[k] === undefined || live === undefined) continue;
      if (k === "endDate") {
        if (live !== planOf(inputs).terms.endDate) current.endDate = live;
      } else current[k] = live;
    }
    if (current.machineId === undefined) current.machineId = Number(id);
    const outs = { ...props, ...current, listed: true, gpuName: machine.gpuName ?? null, numGpus: machine.numGpus ?? null, hostname: machine.hostname ?? null };
    return { id, props: jsonClean(outs) as Props, inputs: current };
  },

  async update(_id, olds, news) {
    const plan = planOf(news);
    const api = getClient();
    const changed = changedInputs(olds, news);
    const terms = changed.filter((k) => (TERM_KEYS as readonly string[]).includes(k));
    let extended: number | undefined;
    if (terms.length === 1 && terms[0] === "minBidPerGpu" && plan.terms.minBidPerGpu !== undefined) {
      await api.machines.setMinBid(plan.machineId, plan.terms.minBidPerGpu);
    } else if (terms.length > 0 || olds.listed !== true) {
      ({ extended } = await api.machines.listMachine(plan.machineId, plan.terms));
    }
    const outs = { ...olds, ...userInputs(news), ...outputsOf(plan, null, extended, olds) };
    if (changed.includes("defaultJob")) {
      const before = planOf({ ...olds, machineId: plan.machineId }).defaultJob;
      try {
        if (plan.defaultJob) await api.machines.setDefaultJob(plan.machineId, plan.defaultJob);
        else if (before) await api.machines.removeDefaultJob(plan.machineId);
      } catch (error) {
        // The terms landed: state records them with the old default job, which the next up changes again.
        const written = { ...outs, defaultJob: olds.defaultJob };
        throw new PartialFailure(`MachineListing: machine ${plan.machineId}: the terms were written, but changing the default job failed: ${(error as Error).message}`, String(plan.machineId), written, {});
      }
    }
    return { outs: jsonClean(outs) as Props };
  },

  async delete(id, props) {
    const api = getClient();
    const machineId = Number(props.machineId ?? id);
    // The default job goes first: a failure then leaves the listing in state, never a default
    // job that no state holds after an unlisting.
    if (props.defaultJob !== undefined && props.defaultJob !== null && !deepEqual(props.defaultJob, {})) await api.machines.removeDefaultJob(machineId);
    // A machine the service no longer knows as ours has no listing of ours left.
    if (!(await api.machines.unlistMachine(machineId))) return;
    // Any server can answer `{success: true}`: the unlisting counts once the machine reads unlisted (issue 33 item 3).
    // A read that fails cannot refute the answer; only a machine still listed does.
    const after = await api.machines.get(machineId).catch(() => null);
    if (after?.listed) {
      throw new Error(
        `MachineListing ${machineId}: the unlisting was answered as done, but the machine still reads listed: ` +
          "it may still be offered to renters. Check vastai:apiUrl and any proxy between here and the service, then run pulumi destroy again",
      );
    }
  },
};
