/**
 * `Fleet`: N identical instances declared once.
 *
 *   const fleet = new vastai.Fleet("workers", {
 *     count: 8,
 *     offer: { gpuName: "RTX 4090", numGpus: 1 },
 *     image: "vllm/vllm-openai:latest",
 *     spread: { by: "machine", max: 1 },
 *     maxPricePerHour: 0.5,
 *     maxHourlyCost: 4,
 *   });
 *   export const healthy = fleet.healthy;
 *
 * With `volume: { createNew: true, size: 50, mountPath: "/data" }` every member gets a new volume
 * of its own, on its machine; the fleet owns them: a member's volume is deleted with it.
 *
 * Offers are claimed inside the plugin process, so members (and other fleets) never race for
 * the same offer. Each `pulumi up` heals the fleet: dead members (and, with `readiness`, members
 * that stay unready past its deadline) are replaced, `count` scales it, a change of the template
 * inputs rolls through it keeping `minHealthy` running, in place where Instance updates in place
 * (health.ts, inplace.ts). Machines whose instance died or never became ready are avoided for
 * `badHostMinutes`. The projected $/hour is checked against
 * `maxHourlyCost` before anything is rented.
 */
import * as pulumi from "@pulumi/pulumi";
import type { FleetMember } from "./member";
import { VastResource, possiblySecret } from "../kit/resource";
import type { InstanceAutostop, InstanceOfferFilters, InstanceReadiness } from "../kit/offer";

/** How a fleet spreads its members: at most `max` members per machine or per country. */
export interface FleetSpread {
  /** Count members per machine or per country (the last part of the offer's geolocation). */
  by: pulumi.Input<"machine" | "country">;
  /** At most this many members per machine or country. */
  max: pulumi.Input<number>;
}

/** Inputs of a `Fleet` resource. */
export interface FleetArgs {
  /** Members to keep (0..500). Changes in place: the fleet grows or shrinks. */
  count: pulumi.Input<number>;
  /** Offer filters, as Instance's `offer`; the cheapest matches are rented. A change rolls the fleet. */
  offer: pulumi.Input<InstanceOfferFilters>;
  /** As Instance; a change rolls the fleet, updating members in place (same instance and machine). */
  templateHashId?: pulumi.Input<string>;
  /** As Instance; required without templateHashId. A change rolls the fleet in place. */
  image?: pulumi.Input<string>;
  /** As Instance; a change rolls the fleet in place (env, onstart and argsStr as image). */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** As Instance; a change rolls the fleet by replacement (ports, diskGb and runtype alike). */
  ports?: pulumi.Input<pulumi.Input<string>[]>;
  onstart?: pulumi.Input<string>;
  /**
   * A new volume for each member, rented from a volume offer on the member's machine (only
   * offers on machines with such a volume offer, with `size` GB free, are rented). The fleet
   * deletes a member's volume when it removes the member, so heals and rolls leak none; the
   * volumes' storage counts in `hourlyCost` and `maxHourlyCost`. A change rolls the fleet.
   */
  volume?: pulumi.Input<FleetVolume>;
  diskGb?: pulumi.Input<number>;
  runtype?: pulumi.Input<"ssh" | "jupyter" | "args">;
  argsStr?: pulumi.Input<string>;
  /** Label of every member; changes in place. */
  label?: pulumi.Input<string>;
  /** SSH keys that must exist before the members (pass `sshKey.id`s); recorded, no call. */
  sshKeyIds?: pulumi.Input<pulumi.Input<number | string>[]>;
  /**
   * The name of an overlay network (`Overlay.name`) every member joins once it runs, so the
   * members reach each other on the overlay. A removed member leaves it (it is destroyed); its
   * replacement joins. The service cannot take an instance off an overlay, so a change rolls the fleet.
   */
  overlay?: pulumi.Input<string>;
  /**
   * Healthy members a roll keeps (default: count). A replacement adds one member before it
   * removes one; an in-place roll updates at most (healthy - minHealthy) members at once, and
   * with minHealthy = count it first makes one new member and destroys the last old one at the
   * end (so one member moves machine; minHealthy = count - 1 keeps every machine).
   */
  minHealthy?: pulumi.Input<number>;
  /**
   * As Instance's: a member is healthy only once its published port answers (TCP, or a GET
   * answered 2xx/3xx with `httpPath`). New and updated members are waited for until ready
   * (`timeoutMinutes` after they run); a new one never ready is destroyed, its machine avoided,
   * and another offer rented (counts toward maxCreateAttempts). A member that stops answering is
   * probed again for `timeoutMinutes` by the next up, then replaced. A change is recorded only.
   */
  readiness?: pulumi.Input<InstanceReadiness>;
  /**
   * "in-place" (default): a change of templateHashId, image, env, onstart or argsStr recreates
   * each member's container on its machine; a member whose machine refuses is replaced.
   * "replace": such changes replace members too. A change is recorded only.
   */
  updatePolicy?: pulumi.Input<"in-place" | "replace">;
  /** At most `max` members per machine or per country. */
  spread?: pulumi.Input<FleetSpread>;
  /** Most a member may cost, $/hour (disk included). */
  maxPricePerHour?: pulumi.Input<number>;
  /** Most the whole fleet may cost, $/hour: checked before anything is rented. */
  maxHourlyCost?: pulumi.Input<number>;
  /** How long a machine whose instance died is avoided, minutes (default 60; 0: never avoided). */
  badHostMinutes?: pulumi.Input<number>;
  /** Deadline of the wait for new and updated members to run, minutes (default 10). */
  runningTimeoutMinutes?: pulumi.Input<number>;
  /** Rounds of renting when members die, or never become ready, while booting (default 3). */
  maxCreateAttempts?: pulumi.Input<number>;
  /**
   * Each member's guard stops it after its GPUs were idle for `idleMinutes` (action "stop" only:
   * a member destroyed from inside could not be told from a lost machine, which the fleet heals).
   * A member so stopped is not healed back. A change recreates members' containers in place.
   */
  autostop?: pulumi.Input<InstanceAutostop>;
  /** Time to live, "8h", "2d": one deadline for every member, fixed at the fleet's create (output `deadline`). */
  ttl?: pulumi.Input<string>;
  /** One deadline for every member, ISO 8601 with a zone, in the future. */
  expiresAt?: pulumi.Input<string>;
  /** What each member's guard does at the deadline: "destroy" (default) or "stop". After it the fleet rents nothing. */
  expireAction?: pulumi.Input<"stop" | "destroy">;
  /** Any value; a change starts the members their guard stopped (within `maxHourlyCost`). */
  wake?: pulumi.Input<unknown>;
}

/**
 * A new volume for every member: rented from a volume offer on the member's machine, deleted when
 * the fleet removes the member (heal, scale down, roll, delete). A volume lives on one machine
 * and cannot be shared, so a fleet neither links an existing volume nor takes a volume offer id.
 */
export interface FleetVolume {
  /** Must be true: each member gets a new volume (Instance's `createNew: false` link is refused). */
  createNew: pulumi.Input<true>;
  /** GB of each member's volume, a whole number. */
  size: pulumi.Input<number>;
  /** Where the volume is mounted in each member's container (absolute path). */
  mountPath: pulumi.Input<string>;
}

const OUTPUT_PLACEHOLDERS = { fleetKey: undefined, members: undefined, hourlyCost: undefined, spentUsd: undefined, spendSince: undefined, healthy: undefined, badHosts: undefined, specKey: undefined, deadline: undefined, expired: undefined };

/** A fleet of identical instances declared once: rented from offer filters, spread over machines, kept at `count` healthy members by each `pulumi up`, under a per-member and a whole-fleet price cap. */
export class Fleet extends VastResource {
  /** The fleet's key: the first part of every member's PULUMI_VASTAI_MARKER. */
  declare readonly fleetKey: pulumi.Output<string>;
  declare readonly members: pulumi.Output<FleetMember[]>;
  /** $/hour of the members now (stopped ones: their disk), their volumes' storage included. */
  declare readonly hourlyCost: pulumi.Output<number>;
  /**
   * $ charged to date for the current members and their volumes (the account's charges of
   * `instance-<id>` and `volume-<id>`, 6 decimals), read on refresh and after each update;
   * members the fleet replaced no longer count. Kept as it was when the charges cannot be read.
   */
  declare readonly spentUsd: pulumi.Output<number | undefined>;
  /** Unix seconds from which `spentUsd` counts charges: the fleet's creation (or its oldest member's start). */
  declare readonly spendSince: pulumi.Output<number | undefined>;
  /** Members running (and ready, with `readiness`). */
  declare readonly healthy: pulumi.Output<number>;
  /** Machine id -> until when (ms since the epoch) it is avoided. */
  declare readonly badHosts: pulumi.Output<Record<string, number>>;
  declare readonly count: pulumi.Output<number>;
  /** With `ttl`/`expiresAt`: ISO 8601 UTC, every member's deadline (fixed at create). */
  declare readonly deadline: pulumi.Output<string | undefined>;
  /** True once `deadline` has passed: the fleet then rents nothing (members its guards destroyed are not replaced). */
  declare readonly expired: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: FleetArgs, opts?: pulumi.CustomResourceOptions) {
    super("fleet", "Fleet", name, { ...OUTPUT_PLACEHOLDERS, ...args }, opts, ["specKey", ...possiblySecret(args, ["env", "onstart", "argsStr"])]);
  }
}

export type { FleetMember } from "./member";
