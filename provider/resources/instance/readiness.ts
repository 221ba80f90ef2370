/**
 * Readiness beyond `running`: `readiness: { tcpPort?, httpPath?, timeoutMinutes }` is checked
 * against the port the service published for the container port (the instance's `ports`
 * mapping, at its `public_ipaddr`) before create returns. A TCP connect, or with `httpPath` a
 * GET answered 2xx or 3xx. `tcpPort` defaults to the container port of the first `ports`
 * entry. Probes repeat until `timeoutMinutes`, soon after the boot (a server often listens a
 * moment after its container runs) and then less often, up to every `vastai:pollIntervalMs`
 * (the boot pace of kit/live/boot-polls.ts; the clock and sleep are the injectable timing of
 * kit/settings.ts); the mapping is read afresh each time, since the service may publish it
 * after the container runs.
 *
 * An instance that never becomes ready is destroyed and rented again elsewhere (create.ts),
 * counting toward `maxCreateAttempts`; the machine that failed is not picked again.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { probeHttp, probeTcp, type Instance, type VastClient } from "../../client";
import { BootPace, Props, containsUnknown, currentTiming } from "../kit";

/** Readiness probes follow no learned boot: short at first, growing to the poll interval. */
const PROBE_PACE = new BootPace();

const MAX_READY_MINUTES = 24 * 60;
/** Longer paths are refused by common servers (8 KB request lines) long before; 2048 is the usual URL limit. */
const HTTP_PATH_LIMIT = 2048;

export const READINESS_INPUTS = {
  readiness: z
    .strictObject({
      tcpPort: z.number({ error: "must be a port number" }).int("must be a whole number").min(1, "must be 1 to 65535").max(65535, "must be 1 to 65535").optional(),
      httpPath: z
        .string({ error: "must be a path" })
        .max(HTTP_PATH_LIMIT, `must be at most ${HTTP_PATH_LIMIT} characters`)
        .startsWith("/", "must start with /")
        // The path goes into the probe's request line: CR/LF would add header lines, a space
        // or a control character makes a request no server answers as meant.
        // eslint-disable-next-line no-control-regex -- the rule is about control characters
        .regex(/^[^\s\u0000-\u001f\u007f-\u009f]*$/u, "must not contain spaces or control characters such as CR or LF (percent-encode them, e.g. %20)")
        .optional(),
      timeoutMinutes: z
        .number({ error: "must be a number (minutes)" })
        .positive("must be greater than 0 (minutes)")
        .max(MAX_READY_MINUTES, `must be at most ${MAX_READY_MINUTES} (minutes)`),
    })
    .optional(),
};

export interface Readiness {
  tcpPort?: number;
  httpPath?: string;
  timeoutMinutes: number;
}

/** The container port to probe: `tcpPort`, else the first of `ports` ("8000:8000" -> 8000). */
export function probedPort(readiness: Readiness, ports: readonly string[] | undefined): number | undefined {
  if (readiness.tcpPort !== undefined) return readiness.tcpPort;
  const first = ports?.find((p) => typeof p === "string" && !p.endsWith("/udp"));
  const container = first === undefined ? undefined : Number(first.split("/")[0].split(":").pop());
  return container !== undefined && Number.isInteger(container) ? container : undefined;
}

/** A readiness check needs a TCP port to probe; skipped where values are unknown in preview. */
export function readinessFailures(news: Props): pulumi.dynamic.CheckFailure[] {
  const r = news.readiness;
  // A readiness of the wrong shape is the schema's failure; this rule needs an object.
  if (!r || typeof r !== "object" || Array.isArray(r) || containsUnknown(r) || containsUnknown(news.ports)) return [];
  const readiness = r as Readiness;
  if (readiness.tcpPort !== undefined) return [];
  const ports = Array.isArray(news.ports) ? news.ports.filter((p): p is string => typeof p === "string") : undefined;
  if (probedPort(readiness, ports) !== undefined) return [];
  return [{ property: "readiness.tcpPort", reason: "readiness.tcpPort: is required when ports has no TCP mapping to probe" }];
}

/** Host and host port the service published for `containerPort`, or why there is none yet. */
export function publishedPort(instance: Instance, containerPort: number): { host: string; port: number } | string {
  const host = instance.publicIpaddr;
  const bindings = instance.ports?.[`${containerPort}/tcp`];
  const first: unknown = Array.isArray(bindings) ? bindings[0] : undefined;
  const hostPort = Number(first && typeof first === "object" ? (first as Record<string, unknown>).HostPort : undefined);
  if (!host) return "the service shows no public address yet";
  if (!Number.isInteger(hostPort) || hostPort <= 0) return `the service shows no published port for ${containerPort}/tcp yet`;
  return { host, port: hostPort };
}

/** One probe of `containerPort` as `instance` publishes it: undefined when ready, else why not. */
export async function probeOnce(instance: Instance, readiness: Readiness, containerPort: number): Promise<string | undefined> {
  const target = publishedPort(instance, containerPort);
  if (typeof target === "string") return target;
  return readiness.httpPath === undefined ? probeTcp(target.host, target.port) : probeHttp(target.host, target.port, readiness.httpPath);
}

/**
 * Probes instance `id` until ready or `timeoutMinutes` pass. Undefined when ready, else why
 * not (the last probe's answer).
 */
export async function notReadyReason(client: VastClient, id: number, readiness: Readiness, ports: readonly string[] | undefined): Promise<string | undefined> {
  const { now, sleep } = currentTiming();
  const containerPort = probedPort(readiness, ports);
  if (containerPort === undefined) return "readiness has no TCP port to probe";
  const started = now();
  const deadline = started + readiness.timeoutMinutes * 60_000;
  let why: string;
  for (;;) {
    const instance = await client.instances.get(id);
    if (!instance) return "it disappeared before it was ready";
    const failed = await probeOnce(instance, readiness, containerPort);
    if (failed === undefined) return undefined;
    why = failed;
    const left = deadline - now();
    if (left <= 0) {
      const minutes = Number(readiness.timeoutMinutes.toPrecision(3));
      return `it was not ready after ${minutes} minutes (readiness.timeoutMinutes; last: ${why})`;
    }
    await sleep(Math.min(PROBE_PACE.nextDelay(now() - started), left));
  }
}
