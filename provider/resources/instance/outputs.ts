/** Outputs of the Instance resource, from a live instance record and what create recorded. */
import { sshCommands, type Instance } from "../../client";
import { Props } from "../kit";
import { hourlyCostOf, instanceCostParts, round6 } from "../kit/costs";
import { INPUT_KEYS } from "./inputs";
import { withoutStartCommand } from "./status";
import { SCHEDULE_OUTPUT_KEYS } from "./schedule";
import { SPOT_OUTPUT_KEYS, spotOutputs } from "./spot-outputs";
import { GUARD_OUTPUT_KEYS } from "./guard/state";

/** Outputs as Pulumi sees them (numbers and strings; null while the service has no value). */
export interface InstanceOutputs {
  /** The instance id (the API's `new_contract`). */
  instanceId: number;
  /** `running`, `loading`, `exited`, `unknown`, `offline`, `stopped`, ... or null while provisioning. */
  actualStatus: string | null;
  /** What was asked for: `running` or `stopped`. */
  intendedStatus: string | null;
  statusMsg: string | null;
  sshHost: string | null;
  sshPort: number | null;
  publicIp: string | null;
  gpuName: string | null;
  numGpus: number | null;
  /** GB per GPU (the API's MB / 1000, one decimal). */
  gpuRamGb: number | null;
  /** $/hour while it runs (the service's `dph_total`). */
  pricePerHour: number | null;
  /** $/hour now: `pricePerHour` while running or booting, its disk alone while stopped, 0 once dead (6 decimals; kit/costs.ts). */
  hourlyCost: number | null;
  /** $ charged to date: the account's charges of `instance-<id>` since `spendSince` (6 decimals); kept as it was when the charges cannot be read. */
  spentUsd?: number;
  /** Unix seconds from which `spentUsd` counts: the instance's start (`start_date`). */
  spendSince?: number | null;
  /** Paste to connect through the vendor's gateway: `ssh -p <sshPort> root@<sshHost>` (works where direct access times out). */
  sshCommand: string | null;
  /** Paste to connect directly: `ssh -p <host port of 22/tcp> root@<publicIp>`; null while 22/tcp is not published. */
  sshDirectCommand: string | null;
  machineId: number | null;
  /** The offer actually rented (with `offer` filters: the match that was taken). */
  offerId: number;
  /** The value of PULUMI_VASTAI_MARKER in the instance's environment, unique per creation. */
  marker: string;
  /** The instance's own API key when the service returned one (secret output). */
  instanceApiKey?: string;
  // Read from the service (spot-outputs.ts): what a user needs without a lookup.
  /** The image the container runs (`image_uuid`). */
  imageInUse: string | null;
  /** Names of the container's environment variables (never the values), the provider's marker left out. */
  envNames: string[];
  /** Published ports: `"8000/tcp"` -> the host port it is reachable on at `publicIp`. */
  portMappings: Record<string, number>;
  /** The template the instance was started from (`template_hash_id`), null without one. */
  templateHashIdInUse: string | null;
  /** Rented as interruptible (a bid). */
  isBid: boolean | null;
  /** Stopped by the service because a higher bid took the machine. */
  outbid: boolean;
  /** The machine's lowest winning bid now, $/hour. */
  minBidPerHour: number | null;
  /** Disk, GB (`disk_space`). */
  diskSpaceGb: number | null;
  /** $ prepaid and not used yet (with `prepayAmount`). */
  prepaidBalance?: number;
  /** "in-place" once the container was recreated on the same machine by an update (inplace.ts). */
  lastUpdate?: string;
  /** True when the instance was taken over with `importId` rather than rented by the program. */
  imported?: boolean;
  // With `schedule` (schedule.ts).
  /** The service's ids of the schedule's jobs, by role: `stop`, and `start` (every day) or `start-mon`.. (one per day). */
  scheduleJobIds?: Record<string, number>;
  /** ISO 8601: the first hour the jobs run from (their first write). */
  scheduleStartedAt?: string;
  /** ISO 8601: after this the service no longer runs the jobs (`schedule.until`, or a year after `scheduleStartedAt`). */
  scheduleUntil?: string;
  /** True while the instance is stopped by its own schedule (its off-hours, at the losing bid). */
  scheduledOff?: boolean;
  /**
   * Set when a read finds the instance running in its off-hours past the grace period
   * (off-hours.ts): since when, hours, $/hour and the cost so far; null otherwise.
   */
  offHoursRunning?: { since: string; hours: number; hourlyCost: number; costUsd: number } | null;
  // With `autostop`, `ttl` or `expiresAt` (guard/).
  /** ISO 8601 UTC: when the guard stops or destroys the instance (`expiresAt`, or creation + `ttl`, fixed at create). */
  deadline?: string;
  /** Who stopped it: `autostop`, `ttl`, `schedule`, `outbid`, `program` (targetState), `outside` (console, CLI); null while it runs (guard/state.ts). */
  stoppedBy?: string | null;
  /** True once `deadline` has passed (an instance its guard destroyed then stays in state, not re-created). */
  expired?: boolean;
  /** With `volume.createNew`: the volume the instance created, found by the instance using it (null when the look-up could not tell). */
  createdVolumeId?: number | null;
}

/** Output names, in the order documented above. */
export const OUTPUT_KEYS: readonly (keyof InstanceOutputs)[] = [
  "instanceId", "actualStatus", "intendedStatus", "statusMsg", "sshHost", "sshPort", "publicIp", "gpuName",
  "numGpus", "gpuRamGb", "pricePerHour", "hourlyCost", "spentUsd", "spendSince", "sshCommand", "sshDirectCommand", "machineId", "offerId", "marker", "instanceApiKey",
  ...SPOT_OUTPUT_KEYS, "lastUpdate", "imported", ...SCHEDULE_OUTPUT_KEYS, ...GUARD_OUTPUT_KEYS, "createdVolumeId",
];

const orNull = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);

/**
 * The outputs that come from the live record (the rest are kept from create). `sent` holds the
 * instance's start command: a status message that repeats it (a container that cannot start)
 * is kept without it, as its errors are.
 */
export function liveOutputs(instance: Instance, sent: { onstart?: unknown; argsStr?: unknown } = {}): Props {
  return {
    instanceId: instance.id,
    actualStatus: orNull(instance.actualStatus),
    intendedStatus: orNull(instance.intendedStatus),
    statusMsg: typeof instance.statusMsg === "string" && instance.statusMsg !== "" ? withoutStartCommand(instance.statusMsg, sent) : orNull(instance.statusMsg),
    sshHost: orNull(instance.sshHost),
    sshPort: orNull(instance.sshPort),
    publicIp: orNull(instance.publicIpaddr),
    gpuName: orNull(instance.gpuName),
    numGpus: orNull(instance.numGpus),
    gpuRamGb: orNull(instance.gpuRamGb),
    pricePerHour: orNull(instance.dphTotal),
    hourlyCost: round6(hourlyCostOf(instanceCostParts(instance))),
    spendSince: orNull(instance.startDate),
    sshCommand: sshCommands(instance).proxy,
    sshDirectCommand: sshCommands(instance).direct,
    machineId: orNull(instance.machineId),
    ...spotOutputs(instance),
  };
}

/** The outputs held in a state entry (inputs left out). `offerId` counts as an output here. */
export function storedOutputs(props: Props): Props {
  const out: Props = {};
  for (const key of OUTPUT_KEYS) if (props[key] !== undefined) out[key] = props[key];
  return out;
}

/** The inputs held in a state entry; `offerId` only when it was an input (no `offer` filters). */
export function storedInputs(props: Props): Props {
  const out: Props = {};
  const usedFilters = props.offer !== undefined && props.offer !== null;
  for (const key of INPUT_KEYS) {
    if (props[key] === undefined || (key === "offerId" && usedFilters)) continue;
    out[key] = props[key];
  }
  return out;
}
