/**
 * How the vendor's client asks for SSH and Jupyter when it creates an instance: space-separated
 * runtypes (`"ssh_proxy"`, `"ssh_direc ssh_proxy"`, `"jupyter_proxy ssh_proxy"`,
 * `"jupyter_direc ssh_direc ssh_proxy"`; api-facts: Live quirks). `direc` is the service's own
 * spelling. And how users connect afterwards: through the `ssh_host`/`ssh_port` gateway, or
 * with direct SSH at the host port published for `22/tcp` on `public_ipaddr`.
 */
import type { Instance } from "../types-templates";

/** How a user asks to reach an instance: the runtype, and SSH or Jupyter with or without direct access (vendor runtype strings). */
export interface AccessRequest {
  runtype?: "ssh" | "jupyter" | "args";
  /** SSH access; `direct` adds direct SSH beside the gateway. */
  ssh?: { direct?: boolean };
  /** Jupyter (with SSH through the gateway); `direct` serves both directly as well. */
  jupyter?: { direct?: boolean };
}

/** The runtype string the vendor's client sends for this access, or undefined to leave it to the service (SSH). */
export function vendorRuntype(a: AccessRequest): string | undefined {
  if (a.runtype === "args") {
    if (a.jupyter) throw new Error("runtype args cannot be combined with jupyter (use onstart to start a server)");
    return "args";
  }
  if (a.jupyter || a.runtype === "jupyter") return a.jupyter?.direct || a.ssh?.direct ? "jupyter_direc ssh_direc ssh_proxy" : "jupyter_proxy ssh_proxy";
  if (a.ssh || a.runtype === "ssh") return a.ssh?.direct ? "ssh_direc ssh_proxy" : "ssh_proxy";
  return undefined;
}

/** The commands a user can paste to reach an instance; null where the service shows no way (yet). */
export interface SshCommands {
  /** Through the vendor's gateway: `ssh -p <ssh_port> root@<ssh_host>` (port + 1 for a Jupyter runtype, as the vendor's client). */
  proxy: string | null;
  /** Direct: `ssh -p <host port of 22/tcp> root@<public_ipaddr>`; null when `22/tcp` is not published. */
  direct: string | null;
}

function hostPortOf(instance: Instance, key: string): number | undefined {
  const bindings = instance.ports?.[key];
  const first: unknown = Array.isArray(bindings) ? bindings[0] : undefined;
  const port = Number(first && typeof first === "object" ? (first as Record<string, unknown>).HostPort : undefined);
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

/**
 * Commands a user can paste to reach an instance: through the `ssh_host`/`ssh_port` gateway
 * (port + 1 for a Jupyter image, as the vendor does), and direct to the published port of 22 on
 * `public_ipaddr` when the instance lists one (null when the `22/tcp` entry is missing).
 */
export function sshCommands(instance: Instance): SshCommands {
  const runtype = typeof instance.raw.image_runtype === "string" ? instance.raw.image_runtype : "";
  const gatewayPort = typeof instance.sshPort === "number" ? instance.sshPort + (runtype.includes("jupyter") ? 1 : 0) : null;
  const proxy = instance.sshHost && gatewayPort !== null ? `ssh -p ${gatewayPort} root@${instance.sshHost}` : null;
  const port22 = hostPortOf(instance, "22/tcp");
  const direct = instance.publicIpaddr && port22 !== undefined ? `ssh -p ${port22} root@${instance.publicIpaddr}` : null;
  return { proxy, direct };
}
