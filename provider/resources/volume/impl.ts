/**
 * The provider of both volume kinds (Volume: local to one machine; NetworkVolume: served over a
 * cluster's network). The service has no call that renames or resizes a volume, so every
 * change of the inputs makes a new volume (the old one is deleted after the new one exists).
 *
 * Lost responses and killed runs: the name the service holds carries the create's marker
 * (`data [3a00afcb0a6e55ad]`, kit/create-once.ts), so a create whose answer was lost, or one a
 * killed plugin left, is found by it and adopted instead of renting a second volume; a late
 * landing of a lost create is deleted by the next read.
 */
import { randomBytes } from "node:crypto";
import { NotFoundError, GoneError, isoOfEpochSeconds, type VastClient, type Volume, type VolumeKind, type VolumeOffer } from "../../client";
import { getClient } from "../../context";
import { stackBudget, withinStackBudget } from "../kit/stack-budget";
import { ImportableImpl, PartialFailure, Props, createAtMostOnce, currentTiming, diffInputs, identityMarker, jsonClean, lookUp, numericImport } from "../kit";
import { DEFAULT_SIZE_GB, INPUT_KEYS, checkVolumeInputs, type VolumeOfferFiltersInput } from "./inputs";
import { liveVolumes } from "./live";
import { round6, spentUsd, unixOf, volumeHourlyCost, volumeKey } from "../kit/costs";

export const VOLUME_OUTPUTS = [
  "volumeId", "serviceName", "nameMarker", "rentedOfferId", "machineId", "clusterId", "status", "attachedInstanceIds",
  "pricePerGbMonth", "geolocation", "createdAt", "hourlyCost", "spentUsd",
] as const;

/** Offers tried, cheapest first, when filters are used and offers are gone. */
const MAX_CANDIDATES = 10;

/** The name the service holds: the input name (or "volume") and, with an identity, the marker. */
export function serviceName(name: string | undefined, marker: string | undefined): string | undefined {
  if (!marker) return name;
  return `${name ?? "volume"} [${marker}]`;
}

export function carriesMarker(name: string | null, marker: string): boolean {
  return name !== null && name.endsWith(` [${marker}]`);
}

/** The input name back from the service's name (the marker taken off; "volume" alone was no input). */
function inputName(live: string | null, props: Props): string | undefined {
  const marker = typeof props.nameMarker === "string" ? props.nameMarker : undefined;
  if (live === null || live === "") return undefined;
  if (!marker || !carriesMarker(live, marker)) return live;
  const bare = live.slice(0, -(marker.length + 3));
  return bare === "volume" && props.name === undefined ? undefined : bare;
}

function describe(kind: VolumeKind): string {
  return kind === "network" ? "network volume" : "volume";
}

/** The cheapest offers matching the filters with room for `sizeGb`, at most MAX_CANDIDATES. */
async function candidates(client: VastClient, kind: VolumeKind, f: VolumeOfferFiltersInput, sizeGb: number): Promise<VolumeOffer[]> {
  const loc = f.location === undefined ? undefined : Array.isArray(f.location) ? { in: f.location } : f.location;
  const offers = await client.volumes.searchOffers(kind, {
    filters: {
      diskSpace: { gte: sizeGb },
      storageCost: f.maxPricePerGbMonth === undefined ? undefined : { lte: f.maxPricePerGbMonth },
      reliability: f.minReliability === undefined ? undefined : { gte: f.minReliability },
      geolocation: loc,
      verified: f.verified,
      machineId: f.machineId,
      clusterId: f.clusterId,
    },
    order: [["storageCost", "asc"]],
    limit: MAX_CANDIDATES,
    allocatedStorageGb: sizeGb,
  });
  return offers.filter((o) => o.diskSpaceGb >= sizeGb);
}

function isOfferGone(error: unknown): boolean {
  return error instanceof NotFoundError || error instanceof GoneError;
}

interface Rented {
  id: number;
  offer: VolumeOffer | undefined;
}

/** Rents from the first candidate that is still there; the id from the answer, or by marker. */
async function rent(client: VastClient, kind: VolumeKind, offers: VolumeOffer[] | number, sizeGb: number, name: string | undefined, marker: string | undefined): Promise<Rented> {
  const list: (VolumeOffer | number)[] = typeof offers === "number" ? [offers] : offers;
  let lastGone: unknown;
  for (const o of list) {
    const offerId = typeof o === "number" ? o : o.id;
    try {
      const perHour = typeof o === "number" ? await searchedCost(client, kind, o, sizeGb) : costOf(o, sizeGb);
      // The stack's budget (kit/stack-budget.ts): the storage this rental adds.
      const made = await withinStackBudget(client, marker ?? "", `${describe(kind)} on offer ${offerId} (${sizeGb} GB)`, perHour, () => client.volumes.create(kind, { offerId, sizeGb, name }), () => ({ volume: true }));
      const id = made.id ?? (marker ? (await findMarked(client, marker))?.id : undefined);
      if (id === undefined || id === null) throw new Error(`the service answered ${JSON.stringify(made.volumeName)} without a volume id, and no volume carries the name ${JSON.stringify(name)}`);
      return { id, offer: typeof o === "number" ? undefined : o };
    } catch (error) {
      // With filters, an offer taken meanwhile gives way to the next match.
      if (typeof offers === "number" || !isOfferGone(error)) throw error;
      lastGone = error;
    }
  }
  throw new Error(`every matching ${describe(kind)} offer was gone when rented (${list.length} tried): ${(lastGone as Error | undefined)?.message ?? "none matched"}`);
}

/** $/hour of `sizeGb` on a searched offer (its total is for the size searched; else by the GB-month price). */
function costOf(o: VolumeOffer, sizeGb: number): number | undefined {
  if (o.storageTotalCostPerHour !== null) return o.storageTotalCostPerHour;
  return o.storageCostPerGbMonth === null ? undefined : (o.storageCostPerGbMonth * sizeGb) / VOLUME_HOURS_PER_MONTH;
}

/** Hours in the month the storage prices are per. */
const VOLUME_HOURS_PER_MONTH = 30 * 24;

/** A given offer's $/hour for `sizeGb`, searched only under a stack budget. */
async function searchedCost(client: VastClient, kind: VolumeKind, offerId: number, sizeGb: number): Promise<number | undefined> {
  if (stackBudget() === undefined) return undefined;
  const [offer] = await client.volumes.searchOffers(kind, { filters: { id: { eq: offerId } }, limit: 1, allocatedStorageGb: sizeGb });
  return offer ? costOf(offer, sizeGb) : undefined;
}

async function findMarked(client: VastClient, marker: string): Promise<Volume | undefined> {
  return (await client.volumes.list("all")).find((v) => carriesMarker(v.name, marker));
}

function outputsOf(live: Volume | null, props: Props, rented?: Rented): Props {
  return {
    volumeId: live?.id ?? rented?.id ?? props.volumeId,
    serviceName: live?.name ?? props.serviceName,
    nameMarker: props.nameMarker,
    rentedOfferId: props.rentedOfferId,
    machineId: live?.machineId ?? rented?.offer?.machineId ?? props.machineId ?? null,
    clusterId: live?.clusterId ?? rented?.offer?.clusterId ?? props.clusterId ?? null,
    status: live?.status ?? props.status ?? null,
    attachedInstanceIds: live?.instanceIds ?? props.attachedInstanceIds ?? [],
    pricePerGbMonth: rented?.offer?.storageCostPerGbMonth ?? props.pricePerGbMonth ?? null,
    geolocation: live?.geolocation ?? rented?.offer?.geolocation ?? props.geolocation ?? null,
    createdAt: (live?.startDate !== null && live?.startDate !== undefined ? isoOfEpochSeconds(live.startDate) : undefined) ?? props.createdAt ?? null,
    hourlyCost: live ? round6(volumeHourlyCost(live)) : (props.hourlyCost ?? null),
  };
}

/** `spentUsd` of volume `id` since its start, from the process's shared charges walk (kit/costs.ts). */
function volumeSpent(type: string, id: number | string, outs: Props, previous: unknown): Promise<number | undefined> {
  const since = unixOf(outs.createdAt) ?? Math.floor(currentTiming().now() / 1000);
  return spentUsd(getClient(), `${type} ${id}`, [volumeKey(id)], since, previous);
}

/** Inputs as written, with what a refresh saw of size and name (a change made elsewhere shows as drift). */
function liveInputs(props: Props, live: Volume): Props {
  const inputs: Props = {};
  for (const k of INPUT_KEYS) if (props[k] !== undefined) inputs[k] = props[k];
  if (live.sizeGb !== null) inputs.sizeGb = live.sizeGb;
  const name = inputName(live.name, props);
  if (name !== undefined || props.name !== undefined) inputs.name = name;
  return jsonClean(inputs) as Props;
}

function volumeIdOf(kind: VolumeKind, id: string): number {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${kind === "network" ? "NetworkVolume" : "Volume"} id "${id}" is not a numeric volume id`);
  return n;
}

export function volumeProvider(kind: VolumeKind, type: string): ImportableImpl {
  const what = (props: Props, id?: string) => `${type} "${String(props.name ?? "")}"${id ? ` (id ${id})` : ""}`;

  return {
    // importId: the numeric volume id. Name and size left out keep what the service shows (an
    // imported volume carries no marker of ours); the offer it was rented from is not shown,
    // so offerId/offer need not be given and are recorded as declared.
    importing: numericImport(type, describe(kind), { keepShown: ["name", "sizeGb"], optionalOnImport: ["offerId"] }),

    async check(_olds, news) {
      return checkVolumeInputs(kind, type, news, VOLUME_OUTPUTS);
    },

    // No call renames or resizes a volume: every change of an input is a replacement.
    async diff(_id, olds, news) {
      return diffInputs(olds, news, { replaceOn: INPUT_KEYS, ignore: VOLUME_OUTPUTS });
    },

    async create(inputs) {
      const client = getClient();
      const sizeGb = typeof inputs.sizeGb === "number" ? inputs.sizeGb : DEFAULT_SIZE_GB;
      // Without an identity (a program of an older release) a random marker still finds what a
      // lost response made; only the identity's marker also finds what a killed run made.
      const identified = identityMarker(inputs);
      const marker = identified ?? randomBytes(8).toString("hex");
      const name = serviceName(typeof inputs.name === "string" ? inputs.name : undefined, marker);
      let rented: Rented;
      try {
        const offers =
          typeof inputs.offerId === "number" ? inputs.offerId : await candidates(client, kind, (inputs.offer ?? {}) as VolumeOfferFiltersInput, sizeGb);
        if (Array.isArray(offers) && offers.length === 0) {
          throw new Error(`no ${describe(kind)} offer matches ${JSON.stringify(inputs.offer ?? {})} with ${sizeGb} GB free; widen the filters or lower sizeGb`);
        }
        rented = await createAtMostOnce<Rented>({
          // What a killed run of this same create rented carries its marker: adopt it.
          adopt: identified ? async () => found(await findMarked(client, identified)) : undefined,
          send: () => rent(client, kind, offers, sizeGb, name, marker),
          recover: async () => found(await lookUp(() => findMarked(client, marker))),
        });
      } catch (error) {
        throw new Error(`${what(inputs)}: renting the ${describe(kind)} failed: ${(error as Error).message}`, { cause: error });
      }
      // Read directly, not through the shared reader: this process's later reads of the volume
      // then list afresh (it was written), and see what happened to it since.
      const outs = { ...inputs, nameMarker: marker, rentedOfferId: rented.offer?.id ?? inputs.offerId };
      let live: Volume | null;
      try {
        live = (await client.volumes.list(kind)).find((v) => v.id === rented.id) ?? null;
      } catch (error) {
        // The volume is rented and bills: state must hold it, with what the rental answered.
        throw new PartialFailure(
          `${what(inputs, String(rented.id))}: the ${describe(kind)} was rented, but reading it back failed: ${(error as Error).message.replace(/\.$/, "")}. ` +
            "It is kept in state; `pulumi refresh` or the next `pulumi up` reads it again",
          String(rented.id),
          outs,
          // The name it was rented with is the name the service holds.
          outputsOf(null, { ...outs, serviceName: name }, rented),
        );
      }
      const made = outputsOf(live, outs, rented);
      return { id: String(rented.id), outs: jsonClean({ ...outs, ...made, spentUsd: await volumeSpent(type, rented.id, made, undefined) }) as Props };
    },

    // One list call serves every volume read at about the same time (a refresh).
    async read(id, props) {
      const n = volumeIdOf(kind, id);
      const live = await liveVolumes().get(String(n));
      if (!live) return { id: "" };
      // A create whose lost answer landed after the look-up window rented a second volume.
      const marker = props.nameMarker;
      if (typeof marker === "string" && marker !== "") {
        const strays = (await liveVolumes().list()).filter((v) => v.id !== n && carriesMarker(v.name, marker) && v.instanceIds.length === 0);
        for (const stray of strays) await getClient().volumes.delete(stray.id);
      }
      const inputs = liveInputs(props, live);
      const outs = outputsOf(live, props);
      return { id, props: jsonClean({ ...props, ...inputs, ...outs, spentUsd: await volumeSpent(type, n, outs, props.spentUsd) }) as Props, inputs };
    },

    // Reached only when nothing but the provider code changed (diff replaces otherwise).
    async update(_id, olds, news) {
      const outs: Props = { ...news };
      for (const k of VOLUME_OUTPUTS) outs[k] = olds[k];
      return { outs: jsonClean(outs) as Props };
    },

    async delete(id, props) {
      try {
        await getClient().volumes.delete(volumeIdOf(kind, id));
      } catch (error) {
        // A volume in use: the message names the instances (VolumeInUseError) and what to do.
        throw new Error(`${what(props, id)}: deleting the ${describe(kind)} failed: ${(error as Error).message}`, { cause: error });
      }
    },
  };
}

function found(v: Volume | undefined): Rented | undefined {
  return v ? { id: v.id, offer: undefined } : undefined;
}
