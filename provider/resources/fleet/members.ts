/**
 * Members of a fleet: renting one (through createAtMostOnce, with a marker so a lost response
 * or a killed run never makes a second), waiting for a batch to run (one list call per 25
 * members per poll, never one read per member), and destroying one (the client's confirmed
 * delete: a 404 counts as gone only in the service's own error shape).
 *
 * Every member carries PULUMI_VASTAI_MARKER = `<fleet key>.<operation marker>.<n>`: the fleet
 * key (one per creation of the fleet) finds every member this fleet made (delete sweeps them), the operation marker (the
 * resource's identity and generation, kit/create-once.ts) finds what a killed run of this same
 * operation left, which is adopted instead of rented again.
 *
 * With `volume`, each member is rented with a new volume of its own (volumes.ts), and removing
 * a member destroys its instance, then deletes its volume.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { GoneError, NotFoundError, VastError, type Instance, type VastClient } from "../../client";
import { withinStackBudget } from "../kit/stack-budget";
import { GENERATION_KEY, IDENTITY_KEY, STACK_TAG_LENGTH, UNKNOWN, bootPaceOf, createAtMostOnce, nonceOf, stackTagOf, currentTiming, identityMarker, isAmbiguousResponse, lookUp, type Props } from "../kit";
import { MARKER_ENV } from "../instance/inputs";
import { createBody } from "../instance/rent";
import { guardedStart } from "../instance/guard/start";
import { currentApiUrl } from "../../context";
import { typedInputs } from "../instance/inputs";
import { fleetKeyOfMarker, memberLabel, sweep } from "./listing";
import { bootReads } from "../instance/live";
import { fatalBoot, readStatus, type FatalBoot } from "../instance/status";
import { release, type Candidate } from "./claims";
import { instanceStoragePerHour } from "../kit/costs";
import type { FleetMember } from "./member";
import { LATER_SPEC_KEYS } from "./inputs";
import { deleteMemberVolume, memberVolume, volumeIdOf, withVolumeIds } from "./volumes";

/** One member as outputs and state hold it (declared once, beside the class). */
export type Member = FleetMember;

/**
 * The fleet's key, its id: from its identity and generation, random without an identity. The
 * generation makes a replacement's key differ from the key of the fleet it replaces, so the
 * old fleet's delete (which sweeps every instance whose marker starts with its key) never
 * touches the new fleet's members. With the stack's identity, the key starts with the stack's
 * tag (the orphan report attributes members by it) and carries 66 more bits, so no two fleets
 * of a stack share one. Fleets made by earlier releases keep their stored ids (16 hex digits,
 * without the generation): their updates and deletes use the stored id.
 */
export function fleetKeyOf(props: Props): string {
  const identity = props[IDENTITY_KEY];
  if (typeof identity !== "string" || identity === "" || identity === UNKNOWN) return randomBytes(8).toString("hex");
  const generation = Number(props[GENERATION_KEY]) || 1;
  const hash = createHash("sha256").update(`fleet:${identity}#${generation}`);
  const nonce = nonceOf(identity);
  if (nonce === undefined) return hash.digest("hex").slice(0, 16);
  return stackTagOf(nonce) + hash.digest("base64url").slice(0, STACK_TAG_LENGTH);
}

/** The marker prefix of this operation's members. */
export function operationPrefix(fleetKey: string, props: Props): string {
  return `${fleetKey}.${identityMarker(props) ?? randomBytes(8).toString("hex")}.`;
}

export function markerValue(instance: Instance): string | undefined {
  return (instance.extraEnv ?? []).find(([k]) => k === MARKER_ENV)?.[1];
}

/**
 * The output holding the key of the members' spec digests. It is a secret output: the spec
 * covers env values, and a plain digest in the plain `members` output would let a reader of the
 * state confirm a guessed secret (hash the inputs with the guess, compare). Keyed with a random
 * value kept only in secret state, the digest tells nothing without the key.
 */
export const SPEC_KEY = "specKey";

/** A new key for the spec digests of a fleet. */
export function newSpecKey(): string {
  return randomBytes(32).toString("hex");
}

function pickedSpec(props: Props, keys: readonly string[]): string {
  const unset = (k: string) => LATER_SPEC_KEYS.includes(k) && (props[k] === undefined || props[k] === null);
  return JSON.stringify(keys.filter((k) => !unset(k)).map((k) => [k, props[k] ?? null]));
}

/** The spec digest of fleets made before the key existed (plain SHA-256): recognised to move them to a key without a roll. */
export function legacySpecOf(props: Props, keys: readonly string[]): string {
  return createHash("sha256").update(pickedSpec(props, keys)).digest("hex").slice(0, 12);
}

/** The members' spec digest: keyed (HMAC-SHA-256) with the fleet's `specKey`; the legacy digest for state without one. */
export function specOf(props: Props, keys: readonly string[]): string {
  const key = props[SPEC_KEY];
  if (typeof key !== "string" || key === "") return legacySpecOf(props, keys);
  return createHmac("sha256", key).update(pickedSpec(props, keys)).digest("hex").slice(0, 16);
}

/**
 * State made before the key: gives it one, and re-digests the members made with the state's
 * inputs (legacy digest equal to theirs) with it, so they count as current and nothing rolls.
 * Members of an unfinished roll keep a digest no key matches and are rolled as before.
 */
export function withSpecKey(olds: Props, keys: readonly string[]): Props {
  if (typeof olds[SPEC_KEY] === "string" && olds[SPEC_KEY] !== "") return olds;
  const keyed: Props = { ...olds, [SPEC_KEY]: newSpecKey() };
  const legacy = legacySpecOf(olds, keys);
  const spec = specOf(keyed, keys);
  if (Array.isArray(olds.members)) {
    keyed.members = olds.members.map((m: unknown) => (m && typeof m === "object" && (m as Member).spec === legacy ? { ...(m as Member), spec } : m));
  }
  return keyed;
}

/** A member's fields from its live record (price and placement are kept from the rental when the record has none). */
export function refreshed(member: Member, instance: Instance): Member {
  return {
    ...member,
    status: readStatus(instance.id, instance.actualStatus).status,
    machineId: instance.machineId ?? member.machineId,
    pricePerHour: instance.dphTotal ?? member.pricePerHour,
    // The disk as the service bills it now (the offer's figure priced the search's disk size).
    storagePerHour: instanceStoragePerHour(instance) ?? member.storagePerHour,
    sshHost: instance.sshHost ?? null,
    sshPort: instance.sshPort ?? null,
  };
}

/** An instance of this operation found by its marker (left by a killed run): a member again. */
export function adoptedMember(instance: Instance, prefix: string, spec: string): Member {
  // The marker ends with the offer rented (members.ts: `<prefix><offer id>`).
  const offerId = Number((markerValue(instance) ?? "").slice(prefix.length)) || 0;
  return refreshed(
    {
      id: instance.id, machineId: null, country: "?", offerId, pricePerHour: 0, storagePerHour: 0, volumeId: null, volumePerHour: 0,
      status: null, ready: null, sshHost: null, sshPort: null, marker: markerValue(instance) ?? "", spec,
    },
    instance,
  );
}

export function isOfferGone(error: unknown): boolean {
  return error instanceof NotFoundError || error instanceof GoneError;
}

/** Rents `offer` as a member with `marker`; throws the service's error (offer gone: isOfferGone). */
export async function rentMember(client: VastClient, props: Props, offer: Candidate, marker: string, spec: string): Promise<Member> {
  // The member carries the fleet's label (its key without one): the sweep finds it by that (listing.ts).
  const label = memberLabel(props, fleetKeyOfMarker(marker));
  // Every member carries the fleet's guard, with the fleet's one deadline (instance/guard/inputs.ts).
  const body = createBody(typedInputs(await guardedStart(client, { ...props, label, offer: undefined, offerId: offer.id, volume: memberVolume(props.volume, offer) }, currentApiUrl())), marker);
  // The volume's id is learnt from the volume list once the batch is up (volumes.ts).
  const made = (id: number): Member => ({
    id, machineId: offer.machineId, country: offer.country, offerId: offer.id, pricePerHour: offer.pricePerHour,
    storagePerHour: offer.storagePerHour, volumeId: null, volumePerHour: offer.volumePerHour ?? 0, status: null, ready: null, sshHost: null, sshPort: null, marker, spec,
  });
  return createAtMostOnce<Member>({
    isAmbiguous: isAmbiguousResponse,
    // The stack's budget (kit/stack-budget.ts) beside the fleet's own: the member's offer and volume.
    send: () =>
      withinStackBudget(client, marker, `Fleet member on offer ${offer.id}`, offer.pricePerHour + (offer.volumePerHour ?? 0), async () => made((await client.instances.create(offer.id, body)).id), (m) => ({
        instance: m.id,
        volume: props.volume !== undefined,
      })),
    recover: async () => {
      const found = await lookUp(async () => (await sweep(client, [label], marker, markerValue, true)).find((i) => markerValue(i) === marker));
      return found ? made(found.id) : undefined;
    },
    giveUp: (error, sends) =>
      new Error(`Fleet: the response to renting offer ${offer.id} was lost ${sends} times and no instance carries its marker, so nothing was rented (${error.message})`, {
        cause: error,
      }),
  });
}

/** `fatal`: a dead boot the service explained (instance/status.ts): a host problem or the container's. */
export type BootResult = { member: Member; outcome: "running" | "dead" | "gone" | "timeout"; fatal?: FatalBoot };

/**
 * Waits until every member in `members` runs, dies, disappears or the deadline passes. Each
 * poll lists the members still pending by id, 25 per call, together with the other instances
 * of the process waiting then, at the pace of the boots seen so far (kit/live/boot-polls.ts):
 * a roll waits about each boot, not a whole poll interval. With `volumes`, the members' volume
 * ids are then read (one volume list call), so that a member that died takes its volume along.
 */
export async function waitForMembers(client: VastClient, members: Member[], timeoutMs: number, volumes = false): Promise<BootResult[]> {
  const { now, sleep } = currentTiming();
  const pace = bootPaceOf(client, "instance");
  const started = now();
  const deadline = started + timeoutMs;
  const results = new Map<number, BootResult>();
  let pending = [...members];
  for (let polls = 0; ; polls++) {
    const byId = await bootReads(client).read(pending.map((m) => m.id));
    let booted = false;
    for (const m of pending) {
      const instance = byId.get(m.id);
      if (!instance) {
        results.set(m.id, { member: { ...m, status: "gone" }, outcome: "gone" });
        continue;
      }
      const member = refreshed(m, instance);
      const kind = readStatus(m.id, instance.actualStatus).kind;
      if (kind === "running") {
        results.set(m.id, { member, outcome: "running" });
        booted = true;
      } else if (kind === "dead") results.set(m.id, { member, outcome: "dead" });
      else if (fatalBoot(instance.actualStatus, instance.statusMsg)) results.set(m.id, { member, outcome: "dead", fatal: fatalBoot(instance.actualStatus, instance.statusMsg) });
      else pending = pending.map((p) => (p.id === m.id ? member : p));
    }
    // A boot seen under way: its length tells when the next ones end.
    if (booted && polls > 0) pace.note(now() - started);
    pending = pending.filter((m) => !results.has(m.id));
    if (pending.length === 0) break;
    const left = deadline - now();
    if (left <= 0) {
      for (const m of pending) results.set(m.id, { member: m, outcome: "timeout" });
      break;
    }
    await sleep(Math.min(pace.nextDelay(now() - started), left));
  }
  const ordered = members.map((m) => results.get(m.id) as BootResult);
  if (!volumes) return ordered;
  const [filled] = await withVolumeIds(client, ordered.map((r) => r.member));
  return ordered.map((r, i) => ({ ...r, member: filled[i] }));
}

/** Members listed by one call of the instance list (its page size). */
const PAGE = 25;

/**
 * Confirms members while the rest of a batch is still being rented: each time a page's worth
 * (25) of rented members waits, one list call looks at them, on the list endpoint's own rate
 * limit, so the creates are not slowed. `finish` then waits only for those not yet running or
 * dead: after the last create of a batch of 100, one call instead of four, with no page interval
 * to wait out. A look that fails is ignored (`finish` reads those members again).
 */
export class BootWatch {
  private waiting: Member[] = [];
  private readonly settled = new Map<number, BootResult>();
  private looks: Promise<void> = Promise.resolve();

  constructor(private readonly client: VastClient) {}

  add(member: Member): void {
    this.waiting.push(member);
    if (this.waiting.length < PAGE) return;
    const page = this.waiting.splice(0, PAGE);
    this.looks = this.looks.then(() => this.look(page)).catch(() => undefined);
  }

  private async look(page: Member[]): Promise<void> {
    const live = await this.client.instances.listAll(PAGE, { filters: { id: { in: page.map((m) => m.id) } } });
    for (const instance of live) {
      const member = page.find((m) => m.id === instance.id);
      if (!member) continue;
      const kind = readStatus(instance.id, instance.actualStatus).kind;
      const fatal = fatalBoot(instance.actualStatus, instance.statusMsg);
      if (kind === "running" || kind === "dead") this.settled.set(instance.id, { member: refreshed(member, instance), outcome: kind });
      else if (fatal) this.settled.set(instance.id, { member: refreshed(member, instance), outcome: "dead", fatal });
    }
  }

  /** Every member of `members` ran, died, vanished or timed out (waitForMembers for the rest). */
  async finish(members: Member[], timeoutMs: number): Promise<BootResult[]> {
    await this.looks;
    const rest = await waitForMembers(this.client, members.filter((m) => !this.settled.has(m.id)), timeoutMs);
    const byId = new Map([...this.settled, ...rest.map((r): [number, BootResult] => [r.member.id, r])]);
    return members.map((m) => byId.get(m.id) as BootResult);
  }
}

/** Destroys a member; an instance already gone (in the service's own words) counts as destroyed. */
export async function destroyMember(client: VastClient, id: number, offerId?: number): Promise<void> {
  try {
    await client.instances.destroy(id);
    // Its offer is free again for this process's claims.
    if (offerId !== undefined) release(client, offerId);
  } catch (error) {
    if (error instanceof VastError) throw new Error(`Fleet: destroying member instance ${id} failed: ${error.message}`, { cause: error });
    throw error;
  }
}

/** A member whose instance is destroyed but whose volume could not be deleted (`error` names it). */
export interface VolumeLeft {
  member: Member;
  error: Error;
}

/**
 * Removes a member: destroys its instance (unless it is gone already; a failure throws), then
 * deletes its volume. A volume that cannot be deleted is returned with the member marked gone,
 * for state to keep until a later run deletes it; never dropped.
 */
export async function removeMember(client: VastClient, member: Member): Promise<VolumeLeft | undefined> {
  if (member.status !== "gone") await destroyMember(client, member.id, member.offerId);
  const volumeId = volumeIdOf(member);
  if (volumeId === null) return undefined;
  try {
    await deleteMemberVolume(client, volumeId, member.id);
    return undefined;
  } catch (error) {
    return { member: { ...member, status: "gone", sshHost: null, sshPort: null }, error: error as Error };
  }
}
