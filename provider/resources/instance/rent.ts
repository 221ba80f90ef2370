/**
 * Renting one offer: the create call, with a marker that makes a lost response recoverable.
 *
 * Every create request carries a marker in the environment (PULUMI_VASTAI_MARKER), derived from
 * the resource's identity and generation (kit/create-once.ts): a run after one whose plugin was
 * killed mid-create finds the instance that run left and adopts it. Creation is never resent blindly (a second request could make a second instance): when the
 * response is lost, the instance list is read afresh and the instance carrying the marker is
 * adopted; only when none carries it, after a few lookups, is creation tried again. A 2xx
 * whose body cannot be read counts as lost too. When the create ends, instances carrying a
 * marker that was never found (a request that landed late) are destroyed.
 */
import { randomBytes } from "node:crypto";
import { GoneError, NotFoundError, VastError, vendorRuntype, type CreateInstanceInput, type Instance, type VastClient } from "../../client";
import { stackBudget, withinStackBudget } from "../kit/stack-budget";
import { claim, createAtMostOnce, identityMarker, isAmbiguousResponse, lookUp, release, type Props } from "../kit";
import { MARKER_ENV, type InstanceInputs } from "./inputs";
import { offerTaken } from "./offer-window";
import { instancesThatMayCarry } from "./earlier-runs";
import { liveInstances } from "./live";

export interface Rented {
  id: number;
  offerId: number;
  marker: string;
  instanceApiKey?: string;
  /** Found again by its marker after a lost response. */
  adopted: boolean;
  /** Position of the rented offer in the candidate list. */
  offerIndex: number;
  /** The service's `success`: false when the instance was made but its start is queued (it cannot start now). */
  started?: boolean;
}

/** What one create operation learned across its attempts. */
export interface CreateLog {
  /** The marker every create request of this operation carries. */
  marker: string;
  /** Markers of create requests whose outcome stayed unknown (no instance carried them when looked up). */
  lostMarkers: string[];
  /** Instances this create destroyed (failed boots): they carry the marker but are never adopted. */
  destroyed: number[];
}

/** The marker of this create: from the identity when the class gave one, else random (an older program). */
export function markerOf(inputs: Props): string {
  return identityMarker(inputs) ?? randomBytes(8).toString("hex");
}

/** The creation body: inputs in the client's camelCase, the marker added to the environment. */
export function createBody(inputs: InstanceInputs, marker: string): CreateInstanceInput {
  const v = inputs.volume;
  return {
    templateHashId: inputs.templateHashId,
    image: inputs.image,
    env: { ...inputs.env, [MARKER_ENV]: marker },
    ports: inputs.ports,
    onstart: inputs.onstart,
    volumeInfo: v && { createNew: v.createNew, volumeId: Number(v.volumeId), size: v.size, mountPath: v.mountPath },
    label: inputs.label,
    disk: inputs.diskGb,
    // The vendor's runtype strings ("ssh_proxy", "ssh_direc ssh_proxy", ...), as its client sends them.
    runtype: vendorRuntype(inputs),
    argsStr: inputs.argsStr,
    targetState: inputs.targetState,
    vm: inputs.vm,
    price: inputs.bidPricePerHour,
    imageLogin: inputs.imageLogin,
    // Always sent (false unless asked), as the vendor's client does: the service's own default
    // (true for on-demand started running) would otherwise apply unseen.
    cancelUnavail: inputs.cancelUnavailable ?? false,
  };
}

export function hasMarker(instance: Instance, marker: string): boolean {
  return (instance.extraEnv ?? []).some(([k, v]) => k === MARKER_ENV && v === marker);
}

function isOfferGone(error: unknown): boolean {
  return error instanceof NotFoundError || error instanceof GoneError;
}

/** An on-demand instance asked to run that the service made stopped: its offer cannot start now. */
function cannotStartNow(inputs: InstanceInputs, rented: Omit<Rented, "offerIndex">): boolean {
  return rented.started === false && inputs.targetState === "running" && inputs.bidPricePerHour === undefined;
}

/**
 * Rents the first offer from `offers[start]` on that accepts. With `offer` filters an offer
 * that is gone (404/410 `no_such_ask`) moves on to the next match; a given `offerId` fails.
 */
/** Every offer a create tried was gone, and at least one was held by another create of the process. */
export class OffersTakenError extends Error {}

export async function rentFirstAvailable(
  client: VastClient,
  inputs: InstanceInputs,
  offers: number[],
  start: number,
  log: CreateLog,
  prices: ReadonlyMap<number, number> = new Map(),
): Promise<Rented> {
  const gone: number[] = [];
  const taken: number[] = [];
  const byFilters = inputs.offerId === undefined;
  for (let i = start; i < offers.length; i++) {
    // An offer another create of this process holds (a Fleet's member, another Instance) is left
    // to it (kit/claims.ts); from filters the next match is tried, a given offerId fails.
    if (!claim(client, offers[i])) {
      if (!byFilters) {
        throw new Error(
          `Instance: offerId ${offers[i]} is being rented by another resource of this run (an Instance or a Fleet member); ` +
            "an offer can be rented once: choose another offer or use offer filters",
        );
      }
      taken.push(offers[i]);
      continue;
    }
    try {
      const rented = await withinStackBudget(
        client,
        log.marker,
        `Instance: renting offer ${offers[i]}`,
        inputs.bidPricePerHour ?? prices.get(offers[i]) ?? (await searchedPrice(client, offers[i], inputs.diskGb)),
        () => rentOne(client, inputs, offers[i], log),
        (r) => ({ instance: r.id, volume: inputs.volume?.createNew !== undefined }),
      );
      if (!cannotStartNow(inputs, rented)) return { ...rented, offerIndex: i };
      // Made, but it cannot start now (the service queued its start): it is destroyed, and the
      // next match is rented instead of waiting out the boot timeout.
      await client.instances.destroy(rented.id);
      log.destroyed.push(rented.id);
      if (inputs.offerId !== undefined) {
        throw new Error(
          `Instance: offerId ${offers[i]} cannot start now (the service made instance ${rented.id} with its start queued; it was destroyed); ` +
            "choose another offer or use offer filters",
        );
      }
      gone.push(offers[i]);
      continue;
    } catch (error) {
      const message = (error as Error).message;
      // A gone offer stays claimed: nobody here can rent it.
      if (!isOfferGone(error)) release(client, offers[i]);
      if (!(error instanceof VastError)) throw error;
      if (!isOfferGone(error)) throw new Error(`Instance: renting offer ${offers[i]} failed: ${message}`, { cause: error });
      if (inputs.offerId !== undefined) {
        throw new Error(`Instance: offerId ${offers[i]} cannot be rented (${message}); choose another offer or use offer filters`, {
          cause: error,
        });
      }
      // Matches found beside it may be taken too: the next create searches again.
      offerTaken(client, offers[i]);
      gone.push(offers[i]);
    }
  }
  const why = [
    gone.length > 0 ? `gone when rented (${gone.join(", ")})` : "",
    taken.length > 0 ? `being rented by other resources of this run (${taken.join(", ")})` : "",
  ].filter((s) => s !== "");
  if (why.length === 0) throw new Error("Instance: no matching offer was left to try; run again or widen the offer filters");
  const message = `Instance: every remaining matching offer was ${why.join(" or ")}; run again or widen the offer filters`;
  throw taken.length > 0 ? new OffersTakenError(message) : new Error(message);
}

/** An offer's $/hour as the search shows it (a given offerId has no searched price), only under a stack budget. */
async function searchedPrice(client: VastClient, offerId: number, diskGb: number | undefined): Promise<number | undefined> {
  if (stackBudget() === undefined) return undefined;
  // Priced with the disk rented, as a search by filters prices it (offers.ts).
  const [offer] = await client.offers.search({ filters: { id: { eq: offerId } }, noDefaults: true, limit: 1, allocatedStorageGb: diskGb });
  return offer?.dphTotal;
}

async function rentOne(client: VastClient, inputs: InstanceInputs, offerId: number, log: CreateLog): Promise<Omit<Rented, "offerIndex">> {
  const marker = log.marker;
  return createAtMostOnce<Omit<Rented, "offerIndex">>({
    isAmbiguous: isAmbiguousResponse,
    send: async () => {
      const result = await client.instances.create(offerId, createBody(inputs, marker));
      return { id: result.id, offerId, marker, instanceApiKey: result.instanceApiKey, adopted: false, started: result.success };
    },
    recover: async () => {
      log.lostMarkers.push(marker);
      const found = await findByMarker(client, marker, log.destroyed);
      if (!found) return undefined;
      log.lostMarkers.splice(log.lostMarkers.indexOf(marker), 1);
      return { id: found.id, offerId, marker, adopted: true };
    },
    giveUp: (error, sends) =>
      new Error(
        `Instance: the response to creating an instance on offer ${offerId} was lost ${sends} times and no instance carries ` +
          `its marker, so nothing was created; run again later (${error.message})`,
        { cause: error },
      ),
  });
}

/** The instance carrying `marker`, from fresh listings; undefined when none does after the look-ups. */
async function findByMarker(client: VastClient, marker: string, destroyed: readonly number[]): Promise<Instance | undefined> {
  return lookUp(async () => {
    let all: Instance[];
    try {
      all = await liveInstances(client).list({ fresh: true });
    } catch (error) {
      throw new Error(
        `Instance: the response to creating an instance was lost and the instance list could not be read to find it ` +
          `(${(error as Error).message}). An instance with ${MARKER_ENV}=${marker} in its environment may exist; ` +
          `if it does, delete it before running again (a new run creates another).`,
        { cause: error },
      );
    }
    return all.find((instance) => hasMarker(instance, marker) && !destroyed.includes(instance.id));
  });
}

/**
 * Before renting: the instance an earlier run of this create left behind (its plugin killed
 * while the request was on its way), found by the marker among the instances with its label.
 * Instances of any status are taken: a dead one fails the boot wait and is replaced the usual
 * way, so it does not leak either.
 */
export async function leftByEarlierRun(client: VastClient, log: CreateLog, inputs: Props): Promise<Instance | undefined> {
  // Without an identity (an older program) the marker is random: no earlier run can have used it.
  if (identityMarker(inputs) === undefined) return undefined;
  // Only instances with this create's label, shared with the creates beside it (earlier-runs.ts).
  const label = typeof inputs.label === "string" ? inputs.label : undefined;
  const candidates = await instancesThatMayCarry(client, label);
  return candidates.find((instance) => hasMarker(instance, log.marker) && !log.destroyed.includes(instance.id));
}

/**
 * After a create that met lost responses: a request whose instance was not found in time may
 * still land later (a slow service). Once more, instances carrying those markers are looked
 * for and destroyed, so they do not leak. Best effort: a failure here leaves the outcome of
 * the create as it is.
 */
export async function sweepLostCreates(client: VastClient, log: CreateLog, keep?: number): Promise<number[]> {
  if (log.lostMarkers.length === 0) return [];
  const destroyed: number[] = [];
  try {
    const all = await liveInstances(client).list({ fresh: true });
    const orphans = all.filter((i) => i.id !== keep && !log.destroyed.includes(i.id) && log.lostMarkers.some((m) => hasMarker(i, m)));
    for (const orphan of orphans) {
      await client.instances.destroy(orphan.id);
      destroyed.push(orphan.id);
    }
  } catch {
    // The error of the create itself (if any) is what the user needs to see.
  }
  return destroyed;
}

/**
 * On read: instances carrying the marker of this resource's create that are not the one in
 * state. A create whose lost request landed after the look-up window recorded its marker in
 * `lostCreates`; the late instance is destroyed here instead of billing on unseen.
 */
export async function sweepLateCreates(client: VastClient, id: number, markers: readonly string[]): Promise<number[]> {
  if (markers.length === 0) return [];
  const all = await liveInstances(client).list({ fresh: true });
  const orphans = all.filter((i) => i.id !== id && markers.some((m) => hasMarker(i, m)));
  for (const orphan of orphans) await client.instances.destroy(orphan.id);
  return orphans.map((o) => o.id);
}
