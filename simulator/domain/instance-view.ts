/**
 * Instance status is derived from timestamps when read (no timers keep the process alive):
 * null for the first half of the boot, `loading` for the second, then the final status
 * (`running` unless the control API chose another). A control override wins over everything.
 */
import type { SimContext } from "../context";
import { machineById } from "../seed/machines";
import type { InstanceRecord } from "../store/types";
import { OUTBID_MSG, minBidOf } from "./bids";
import { offerSeed } from "./offers";

export function instanceStatus(ctx: SimContext, inst: InstanceRecord): string | null {
  if (inst.statusOverride) return inst.statusOverride.value;
  if (inst.outbid) return "stopped";
  if (inst.intendedStatus === "stopped" || inst.startQueued) return "stopped";
  const elapsed = ctx.now() - inst.bootStartedAt;
  if (ctx.bootMs <= 0 || elapsed >= ctx.bootMs) return inst.finalStatus;
  return elapsed < ctx.bootMs / 2 ? null : "loading";
}

const MESSAGES: Record<string, string> = {
  loading: "Pulling the image",
  running: "Running",
  stopped: "Stopped by the user",
  exited: "The container exited",
  unknown: "No heartbeat from the host",
  offline: "The host is offline",
};

/** Host port a container port is published on: stable per instance and port. */
function hostPort(inst: InstanceRecord, port: number): number {
  return 20000 + ((inst.id * 131 + port * 7) % 40000);
}

function ports(inst: InstanceRecord, published: Record<string, number> | undefined): Record<string, { HostIp: string; HostPort: string }[]> {
  const out: Record<string, { HostIp: string; HostPort: string }[]> = {
    "22/tcp": [{ HostIp: "0.0.0.0", HostPort: String(inst.sshPort) }],
  };
  for (const [key] of inst.env) {
    const m = /^-p (\d+):(\d+)(?:\/(tcp|udp))?$/.exec(key);
    if (m) out[`${m[2]}/${m[3] ?? "tcp"}`] = [{ HostIp: "0.0.0.0", HostPort: String(hostPort(inst, Number(m[2]))) }];
  }
  // Ports the control API published for the machine (a test's loopback listener) win.
  for (const key of Object.keys(out)) {
    const port = published?.[key];
    if (port !== undefined) out[key] = [{ HostIp: "127.0.0.1", HostPort: String(port) }];
  }
  return out;
}

function statusMessage(inst: InstanceRecord, status: string | null): string {
  if (inst.finalStatusMsg !== undefined && !inst.statusOverride && status === inst.finalStatus) return inst.finalStatusMsg;
  return status === null ? "Provisioning" : (MESSAGES[status] ?? status);
}

export function instanceView(ctx: SimContext, inst: InstanceRecord): Record<string, unknown> {
  const offer = offerSeed(inst.offerId);
  const machine = machineById(inst.machineId);
  const status = instanceStatus(ctx, inst);
  const intended = inst.intendedStatus;
  const published = ctx.store.data.machinePorts?.[String(inst.machineId)];
  return {
    id: inst.id,
    machine_id: inst.machineId,
    host_id: machine?.ownerId,
    actual_status: status,
    intended_status: intended,
    cur_state: intended === "running" && !inst.startQueued && !inst.outbid ? "running" : "stopped",
    next_state: intended,
    status_msg: inst.outbid && !inst.statusOverride ? OUTBID_MSG : statusMessage(inst, status),
    label: inst.label,
    image_uuid: inst.imageUuid,
    image_runtype: inst.runtype,
    image_args: [],
    args_str: inst.argsStr,
    template_hash_id: inst.templateHashId,
    template_id: inst.templateId,
    num_gpus: offer?.numGpus,
    gpu_name: offer?.gpuName,
    gpu_ram: offer?.gpuRam,
    gpu_totalram: offer ? offer.gpuRam * offer.numGpus : undefined,
    dph_total: inst.bidPrice ?? inst.dphTotal ?? offer?.dphTotal,
    is_bid: inst.bidPrice !== null,
    min_bid: minBidOf(ctx.store, inst.offerId),
    disk_space: inst.diskSpace,
    geolocation: offer?.geolocation,
    reliability2: offer?.reliability,
    ssh_host: machine?.publicIp,
    ssh_port: inst.sshPort,
    public_ipaddr: published ? "127.0.0.1" : machine?.publicIp,
    ports: ports(inst, published),
    extra_env: inst.env.map(([k, v]) => [k, v]),
    onstart: inst.onstart,
    vm: inst.vm,
    volume_info: inst.volumeInfo,
    start_date: inst.createdAt / 1000,
    // Percent, as the vendor's client prints it ("Util. %"); null while the instance is not running.
    gpu_util: status === "running" ? (inst.gpuUtil ?? 0) : null,
  };
}
