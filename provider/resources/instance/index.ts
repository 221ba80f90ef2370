/**
 * `Instance`: a container (or VM) rented on a marketplace offer.
 *
 *   const gpu = new vastai.Instance("trainer", {
 *     offer: { gpuName: "RTX 4090", gpuRamGb: 24, maxPricePerHour: 0.5 },
 *     templateHashId: template.hashId,
 *     env: { MODEL: "llama-3-8b" },
 *     ports: ["8000:8000"],
 *     label: "trainer",
 *   });
 *   export const ssh = pulumi.interpolate`ssh -p ${gpu.sshPort} root@${gpu.sshHost}`;
 *
 * Create rents the offer (or the cheapest match of the filters, trying the next when one is
 * gone), then waits until the instance runs; one that exits while booting is destroyed and
 * created again. Every instance carries PULUMI_VASTAI_MARKER in its environment so a create
 * whose response was lost is found again instead of duplicated. A dead instance (exited,
 * unknown, offline) is replaced by the next `pulumi up`.
 */
import * as pulumi from "@pulumi/pulumi";
import { VastResource, possiblySecret } from "../kit/resource";
import type { InstanceAutostop, InstanceOfferFilters, InstanceReadiness } from "../kit/offer";
import type { InstanceOutputs } from "./outputs";

export type { InstanceOutputs } from "./outputs";
export type { InstanceAutostop, InstanceOfferFilters, InstanceOfferVocabulary, InstanceReadiness } from "../kit/offer";

/** A volume to attach (the API's volume_info). */
export interface InstanceVolume {
  /** true creates a new volume; false links an existing one. */
  createNew: pulumi.Input<boolean>;
  /** Existing volume id (createNew false: a Volume's `volumeId` or `id`) or volume offer id (createNew true). */
  volumeId: pulumi.Input<number | string>;
  /** GB; required when createNew is true, not allowed otherwise. */
  size?: pulumi.Input<number>;
  /** Absolute path inside the container. */
  mountPath: pulumi.Input<string>;
  /**
   * With createNew: keep the volume after the instance is destroyed (it then bills until it is
   * deleted). Default false: the volume the instance created is deleted with it, also when the
   * instance is replaced (the replacement creates its own).
   */
  keepOnDestroy?: pulumi.Input<boolean>;
}

/** Inputs of an `Instance` resource. */
export interface InstanceArgs {
  /** The offer to rent. Give exactly one of offerId and offer. Changing it replaces the instance. */
  offerId?: pulumi.Input<number>;
  /** Filters; the cheapest match is rented (up to 10 matches are tried when offers are gone). Replaces on change. */
  offer?: pulumi.Input<InstanceOfferFilters>;
  /** The template's hashId (never its numeric id). Replaces on change. */
  templateHashId?: pulumi.Input<string>;
  /** Container image; overrides the template's. Required without templateHashId. Replaces on change. */
  image?: pulumi.Input<string>;
  /** Environment variables, merged with the template's (these win). Replaces on change. */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Port mappings such as "8000:8000" or "5000:5000/udp". Replaces on change. */
  ports?: pulumi.Input<pulumi.Input<string>[]>;
  /** Script run at start. Longer than 4048 characters: sent compressed and encoded automatically. Replaces on change. */
  onstart?: pulumi.Input<string>;
  /** A volume to create or link. Replaces on change. */
  volume?: pulumi.Input<InstanceVolume>;
  /** Disk size, GB (default: the template's recommended size). Replaces on change. */
  diskGb?: pulumi.Input<number>;
  /** ssh, jupyter or args. Replaces on change. */
  runtype?: pulumi.Input<"ssh" | "jupyter" | "args">;
  /**
   * SSH as the vendor's client asks for it: `{}` for the gateway (runtype "ssh_proxy"),
   * `{ direct: true }` for direct SSH beside it ("ssh_direc ssh_proxy"). Outputs `sshCommand`
   * and `sshDirectCommand` are what to paste. Replaces on change.
   */
  ssh?: pulumi.Input<{ direct?: pulumi.Input<boolean> }>;
  /** Jupyter with SSH ("jupyter_proxy ssh_proxy"; `direct`: "jupyter_direc ssh_direc ssh_proxy"). Replaces on change. */
  jupyter?: pulumi.Input<{ direct?: pulumi.Input<boolean> }>;
  /** Arguments for runtype args (replace the image CMD). Replaces on change. */
  argsStr?: pulumi.Input<string>;
  /** Label (at most 1024 characters). Changes in place. */
  label?: pulumi.Input<string>;
  /** SSH keys that must exist before the instance (pass `sshKey.id`s); required for a VM. */
  sshKeyIds?: pulumi.Input<pulumi.Input<number | string>[]>;
  /** A VM instead of a container; needs sshKeyIds. Replaces on change. */
  vm?: pulumi.Input<boolean>;
  /** running (default) or stopped. Changes in place (start/stop). */
  targetState?: pulumi.Input<"running" | "stopped">;
  /** Wait for actual_status running on create and start (default true). */
  waitForRunning?: pulumi.Input<boolean>;
  /** Deadline of each wait for running, minutes (default 10). */
  runningTimeoutMinutes?: pulumi.Input<number>;
  /** Boots tried when an instance exits while booting, 1..10 (default 3). */
  maxCreateAttempts?: pulumi.Input<number>;
  /**
   * Rent interruptible: the bid for the whole instance, $/hour (sent as `price`; at most 32).
   * A change sets the bid in place; adding or removing it replaces the instance.
   */
  bidPricePerHour?: pulumi.Input<number>;
  /** When the service stops the instance because it was outbid: replace (default), rebid, keep. */
  onOutbid?: pulumi.Input<"replace" | "rebid" | "keep">;
  /** The most a rebid offers, $/hour; required with onOutbid "rebid". */
  maxBidPricePerHour?: pulumi.Input<number>;
  /** The service's cancel_unavail: cancel the rental when the offer cannot start now instead of waiting. Used at creation. */
  cancelUnavailable?: pulumi.Input<boolean>;
  /**
   * How a change of templateHashId, image, env, onstart or argsStr is applied: "in-place"
   * (default) recreates the container on the same machine, keeping the GPU; "replace" rents a
   * new instance. When the service refuses an in-place update, the update fails saying so.
   */
  updatePolicy?: pulumi.Input<"in-place" | "replace">;
  /**
   * The service's id of an existing instance to take over instead of renting one (Pulumi's
   * `import` option does not work for dynamic providers). Declared inputs that differ are
   * applied in place; one that only a replacement could change fails the create, changing
   * nothing. Later changes are recorded only. Deleting the resource destroys the instance
   * (use `retainOnDelete` to keep it).
   */
  importId?: pulumi.Input<string>;
  /**
   * Login for a private registry, "-u USER -p PASSWORD REGISTRY" (the service's image_login);
   * always secret. A change replaces the instance (the update endpoint does not take it).
   */
  imageLogin?: pulumi.Input<string>;
  /** Any value; a change reboots the container in place (same machine). */
  rebootTrigger?: pulumi.Input<unknown>;
  /** Any value; a change recycles the container in place (recreated from a fresh pull, same machine). */
  recycleTrigger?: pulumi.Input<unknown>;
  /** Dollars prepaid at creation, and again each time the value changes (balance: prepaidBalance). */
  prepayAmount?: pulumi.Input<number>;
  /**
   * Readiness beyond running, checked before create returns: a TCP connect to the published
   * port of `tcpPort` (default: the first of `ports`), or with `httpPath` a GET answered 2xx/3xx.
   * Never ready within `timeoutMinutes`: destroyed and rented on another machine (counts toward maxCreateAttempts).
   */
  readiness?: pulumi.Input<InstanceReadiness>;
  /**
   * Office hours, kept by the service with nobody running `pulumi up`: outside them the
   * instance is stopped by a losing bid, at their start the declared `bidPricePerHour` starts it
   * again (the service's scheduled bid changes; interruptible instances only). Adding, changing
   * and removing it writes or cancels the jobs in place; an `up` in the off-hours leaves the
   * stopped instance as it is.
   */
  schedule?: pulumi.Input<InstanceSchedule>;
  /**
   * Stop (or destroy) the instance from inside after its GPUs were idle for `idleMinutes`, with
   * nobody running `pulumi`: a guard started with the container calls the service with the
   * container's own key (`CONTAINER_API_KEY`). See docs/costs-and-stopping-spend.md, "Stopping
   * spend". A change recreates the container on the same machine (as an `onstart` change does).
   */
  autostop?: pulumi.Input<InstanceAutostop>;
  /** Time to live, "90m", "8h", "2d": the deadline is fixed at create (output `deadline`) and the guard acts at it. Give this or `expiresAt`. */
  ttl?: pulumi.Input<string>;
  /** Deadline, ISO 8601 with a zone ("2026-12-01T18:00:00Z"), in the future; the guard acts at it. */
  expiresAt?: pulumi.Input<string>;
  /** What the guard does at the deadline: "destroy" (default) or "stop". */
  expireAction?: pulumi.Input<"stop" | "destroy">;
  /**
   * Any value; a change starts an instance its guard stopped (`stoppedBy` autostop or ttl), or
   * rents again one its autostop destroyed. Without a change the next `up` leaves it as it is.
   */
  wake?: pulumi.Input<unknown>;
}

/** Office hours of an interruptible instance (`schedule`). */
export interface InstanceSchedule {
  /** The days whose on-hours begin at `start`: `sun`, `mon`, .. `sat`; default every day. */
  days?: pulumi.Input<pulumi.Input<"sun" | "mon" | "tue" | "wed" | "thu" | "fri" | "sat">[]>;
  /** The hour the instance starts, `"HH:00"` in `timeZone` (the service runs jobs on whole hours). */
  start: pulumi.Input<string>;
  /** The hour it stops, `"HH:00"`; earlier than `start` for on-hours past midnight. */
  end: pulumi.Input<string>;
  /** IANA time zone of `start` and `end` (default `UTC`), a whole number of hours from UTC. */
  timeZone?: pulumi.Input<string>;
  /** ISO 8601: after this the service no longer runs the jobs (default: a year after they are first written). */
  until?: pulumi.Input<string>;
}

const OUTPUT_PLACEHOLDERS: Record<Exclude<keyof InstanceOutputs, "offerId">, undefined> = {
  instanceId: undefined, actualStatus: undefined, intendedStatus: undefined, statusMsg: undefined, sshHost: undefined,
  sshPort: undefined, publicIp: undefined, gpuName: undefined, numGpus: undefined, gpuRamGb: undefined,
  pricePerHour: undefined, hourlyCost: undefined, spentUsd: undefined, spendSince: undefined, sshCommand: undefined, sshDirectCommand: undefined, machineId: undefined, marker: undefined, instanceApiKey: undefined,
  imageInUse: undefined, envNames: undefined, portMappings: undefined, templateHashIdInUse: undefined, isBid: undefined,
  outbid: undefined, minBidPerHour: undefined, diskSpaceGb: undefined, prepaidBalance: undefined, lastUpdate: undefined, imported: undefined,
  scheduleJobIds: undefined, scheduleStartedAt: undefined, scheduleUntil: undefined, scheduledOff: undefined, offHoursRunning: undefined,
  deadline: undefined, stoppedBy: undefined, expired: undefined, createdVolumeId: undefined,
};

/** A rented GPU instance: from an offer id or offer filters, a template or an image, with SSH keys, env and readiness checks; replaced when it dies. */
export class Instance extends VastResource {
  /** The instance id (the API's new_contract). */
  declare readonly instanceId: pulumi.Output<number>;
  /** running, loading, exited, unknown, offline, stopped, ... (null while provisioning). */
  declare readonly actualStatus: pulumi.Output<string | null>;
  /** running or stopped: what was asked for. */
  declare readonly intendedStatus: pulumi.Output<string | null>;
  declare readonly statusMsg: pulumi.Output<string | null>;
  declare readonly sshHost: pulumi.Output<string | null>;
  declare readonly sshPort: pulumi.Output<number | null>;
  declare readonly publicIp: pulumi.Output<string | null>;
  declare readonly gpuName: pulumi.Output<string | null>;
  declare readonly numGpus: pulumi.Output<number | null>;
  /** GB per GPU. */
  declare readonly gpuRamGb: pulumi.Output<number | null>;
  /** $/hour while it runs (the service's `dph_total`). */
  declare readonly pricePerHour: pulumi.Output<number | null>;
  /** $/hour now: `pricePerHour` while running or booting, its disk alone while stopped, 0 once dead (6 decimals). */
  declare readonly hourlyCost: pulumi.Output<number | null>;
  /**
   * $ charged to date: the account's charges of this instance since `spendSince` (6 decimals),
   * read on refresh and after create and update through one shared walk per process; kept as
   * it was (with a warning) when the charges cannot be read.
   */
  declare readonly spentUsd: pulumi.Output<number | undefined>;
  /** Unix seconds from which `spentUsd` counts: the instance's start. */
  declare readonly spendSince: pulumi.Output<number | null | undefined>;
  declare readonly machineId: pulumi.Output<number | null>;
  /** `ssh -p <port> root@<host>` through the vendor's gateway (sshHost/sshPort). */
  declare readonly sshCommand: pulumi.Output<string | null>;
  /** `ssh -p <port> root@<publicIp>` with the port published for 22/tcp; null when none is. */
  declare readonly sshDirectCommand: pulumi.Output<string | null>;
  /** The offer actually rented. */
  declare readonly offerId: pulumi.Output<number>;
  /** PULUMI_VASTAI_MARKER of this instance. */
  declare readonly marker: pulumi.Output<string>;
  /** The instance's own API key, when the service returned one (secret). */
  declare readonly instanceApiKey: pulumi.Output<string | undefined>;
  /** The image the container runs. */
  declare readonly imageInUse: pulumi.Output<string | null>;
  /** Names of the container's environment variables (never values). */
  declare readonly envNames: pulumi.Output<string[]>;
  /** "8000/tcp" -> host port, reachable at publicIp. */
  declare readonly portMappings: pulumi.Output<Record<string, number>>;
  declare readonly templateHashIdInUse: pulumi.Output<string | null>;
  /** Rented as interruptible (a bid). */
  declare readonly isBid: pulumi.Output<boolean | null>;
  /** Stopped by the service because a higher bid took the machine. */
  declare readonly outbid: pulumi.Output<boolean>;
  /** The machine's lowest winning bid now, $/hour. */
  declare readonly minBidPerHour: pulumi.Output<number | null>;
  /** Disk, GB. */
  declare readonly diskSpaceGb: pulumi.Output<number | null>;
  /** $ prepaid and not used yet (with prepayAmount). */
  declare readonly prepaidBalance: pulumi.Output<number | undefined>;
  /** "in-place" once an update recreated the container on the same machine. */
  declare readonly lastUpdate: pulumi.Output<string | undefined>;
  /** True when taken over with importId. */
  declare readonly imported: pulumi.Output<boolean | undefined>;
  /** With `volume.createNew`: the id of the volume the instance created (deleted with it unless `keepOnDestroy`). */
  declare readonly createdVolumeId: pulumi.Output<number | null | undefined>;
  /** With `schedule`: the service's ids of its jobs, by role (`stop`, `start` or `start-mon`..). */
  declare readonly scheduleJobIds: pulumi.Output<Record<string, number> | undefined>;
  /** With `schedule`: ISO 8601, the hour its jobs run from. */
  declare readonly scheduleStartedAt: pulumi.Output<string | undefined>;
  /** With `schedule`: ISO 8601, after which the service no longer runs its jobs. */
  declare readonly scheduleUntil: pulumi.Output<string | undefined>;
  /** With `schedule`: true while the instance is stopped by it (its off-hours). */
  declare readonly scheduledOff: pulumi.Output<boolean | undefined>;
  /** With `schedule`: set when a refresh finds it running in its off-hours (since, hours, hourlyCost, costUsd); null otherwise. */
  declare readonly offHoursRunning: pulumi.Output<{ since: string; hours: number; hourlyCost: number; costUsd: number } | null | undefined>;
  /** With `ttl`/`expiresAt`: ISO 8601 UTC, when the guard acts (fixed at create). */
  declare readonly deadline: pulumi.Output<string | undefined>;
  /** Who stopped it: autostop, ttl, schedule, outbid, program, outside; null while it runs. */
  declare readonly stoppedBy: pulumi.Output<string | null | undefined>;
  /** True once `deadline` has passed. */
  declare readonly expired: pulumi.Output<boolean | undefined>;
  declare readonly label: pulumi.Output<string | undefined>;
  declare readonly targetState: pulumi.Output<"running" | "stopped">;
  /** The registry login (secret). */
  declare readonly imageLogin: pulumi.Output<string | undefined>;

  constructor(name: string, args: InstanceArgs, opts?: pulumi.CustomResourceOptions) {
    // Outputs first: offerId is both an input and an output.
    const secretOutputs = ["instanceApiKey", "imageLogin", ...possiblySecret(args, ["env", "onstart", "argsStr"])];
    const imageLogin = args.imageLogin === undefined ? undefined : pulumi.secret(args.imageLogin);
    super("instance", "Instance", name, { ...OUTPUT_PLACEHOLDERS, offerId: undefined, ...args, imageLogin }, opts, secretOutputs);
  }
}
