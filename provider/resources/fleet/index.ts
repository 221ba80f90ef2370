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
 * the same offer. Each `pulumi up` heals the fleet: dead members are replaced, `count` scales
 * it, a change of the template inputs rolls through it keeping `minHealthy` running. Machines
 * whose instance died are avoided for `badHostMinutes`. The projected $/hour is checked against
 * `maxHourlyCost` before anything is rented.
 */
import * as pulumi from "@pulumi/pulumi";
import { VastResource, possiblySecret } from "../kit/resource";
import type { InstanceOfferFilters } from "../instance";

export interface FleetSpread {
  /** Count members per machine or per country (the last part of the offer's geolocation). */
  by: pulumi.Input<"machine" | "country">;
  /** At most this many members per machine or country. */
  max: pulumi.Input<number>;
}

export interface FleetArgs {
  /** Members to keep (0..500). Changes in place: the fleet grows or shrinks. */
  count: pulumi.Input<number>;
  /** Offer filters, as Instance's `offer`; the cheapest matches are rented. A change rolls the fleet. */
  offer: pulumi.Input<InstanceOfferFilters>;
  /** As Instance; a change rolls the fleet (member by member). */
  templateHashId?: pulumi.Input<string>;
  /** As Instance; required without templateHashId. A change rolls the fleet. */
  image?: pulumi.Input<string>;
  /** As Instance; a change rolls the fleet. */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
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
  /** Running members a roll keeps (default: count, so a roll adds one before it removes one). */
  minHealthy?: pulumi.Input<number>;
  /** At most `max` members per machine or per country. */
  spread?: pulumi.Input<FleetSpread>;
  /** Most a member may cost, $/hour (disk included). */
  maxPricePerHour?: pulumi.Input<number>;
  /** Most the whole fleet may cost, $/hour: checked before anything is rented. */
  maxHourlyCost?: pulumi.Input<number>;
  /** How long a machine whose instance died is avoided, minutes (default 60; 0: never avoided). */
  badHostMinutes?: pulumi.Input<number>;
  /** Deadline of the wait for new members to run, minutes (default 10). */
  runningTimeoutMinutes?: pulumi.Input<number>;
  /** Rounds of renting when members die while booting (default 3). */
  maxCreateAttempts?: pulumi.Input<number>;
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

/** One member of a fleet. */
export interface FleetMember {
  id: number;
  machineId: number | null;
  country: string;
  offerId: number;
  /** $/hour while running (the offer's price, disk included). */
  pricePerHour: number;
  /** $/hour of its disk while stopped. */
  storagePerHour: number;
  /** The member's own volume (with `volume`), null without one; deleted with the member. */
  volumeId: number | null;
  /** $/hour of its volume's storage, billed whatever the member's state (0 without one). */
  volumePerHour: number;
  status: string | null;
  sshHost: string | null;
  sshPort: number | null;
  marker: string;
  /** Hash of the inputs it was made with: another hash rolls it. */
  spec: string;
}

const OUTPUT_PLACEHOLDERS = { fleetKey: undefined, members: undefined, hourlyCost: undefined, healthy: undefined, badHosts: undefined };

export class Fleet extends VastResource {
  /** The fleet's key: the first part of every member's PULUMI_VASTAI_MARKER. */
  declare readonly fleetKey: pulumi.Output<string>;
  declare readonly members: pulumi.Output<FleetMember[]>;
  /** $/hour of the members now (stopped ones: their disk), their volumes' storage included. */
  declare readonly hourlyCost: pulumi.Output<number>;
  /** Members running. */
  declare readonly healthy: pulumi.Output<number>;
  /** Machine id -> until when (ms since the epoch) it is avoided. */
  declare readonly badHosts: pulumi.Output<Record<string, number>>;
  declare readonly count: pulumi.Output<number>;

  constructor(name: string, args: FleetArgs, opts?: pulumi.CustomResourceOptions) {
    super("fleet", "Fleet", name, { ...OUTPUT_PLACEHOLDERS, ...args }, opts, possiblySecret(args, ["env", "onstart", "argsStr"]));
  }
}
