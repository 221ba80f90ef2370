/**
 * Which calls change which objects. A caller that caches what it read (the providers' shared
 * readers) subscribes with `VastClient.onWrite` and learns of every change made through this
 * client, so no call site has to remember to invalidate anything.
 *
 * A write names the objects it changed by key (an instance id, a secret's name, a machine id
 * for maintenance windows) when the request says which; otherwise the key is undefined and
 * every cached object of that kind is stale. A create names what it made from its answer (an
 * id may be reused, in a simulator at least); a failed create names nothing, since a cached
 * listing without the object is confirmed by a fresh read anyway.
 */
import { RequestCore, type RequestSpec } from "./core";
import { ENDPOINTS, type Endpoint } from "./endpoints";

/** The kinds of objects whose writes are announced. */
export type WriteKind = "instances" | "templates" | "sshKeys" | "secrets" | "apiKeys" | "maintenance"
  | "volumes" | "endpoints" | "workerGroups" | "webhooks"
  | "scheduledJobs" | "machines";

/** `keys` undefined: any object of the kind may have changed. */
export type WriteListener = (kind: WriteKind, keys: string[] | undefined) => void;

/** The keys a call changed; `result` is the parsed answer, undefined when the call failed. */
type KeysOf = (params: Record<string, string | number>, body: Record<string, unknown>, result: unknown) => string[] | undefined;

const byId: KeysOf = (params) => (params.id === undefined ? undefined : [String(params.id)]);
const field =
  (name: string): KeysOf =>
  (_params, body) => {
    const v = body[name];
    if (Array.isArray(v)) return v.map(String);
    return v === undefined || v === null ? undefined : [String(v)];
  };
const all: KeysOf = () => undefined;
const made =
  (idOf: (result: Record<string, unknown>) => unknown): KeysOf =>
  (_params, _body, result) => {
    const id = result && typeof result === "object" ? idOf(result as Record<string, unknown>) : undefined;
    return id === undefined || id === null ? [] : [String(id)];
  };

const WRITES = new Map<Endpoint, { kind: WriteKind; keys: KeysOf }>([
  [ENDPOINTS.instancesCreate, { kind: "instances", keys: made((r) => r.id) }],
  [ENDPOINTS.templatesCreate, { kind: "templates", keys: made((r) => (r.template as { id?: number } | undefined)?.id) }],
  [ENDPOINTS.sshKeysCreate, { kind: "sshKeys", keys: made((r) => r.id) }],
  [ENDPOINTS.apiKeysCreate, { kind: "apiKeys", keys: made((r) => r.id) }],
  [ENDPOINTS.instancesDestroy, { kind: "instances", keys: byId }],
  [ENDPOINTS.instancesUpdate, { kind: "instances", keys: byId }],
  [ENDPOINTS.instancesAttachSshKey, { kind: "instances", keys: byId }],
  [ENDPOINTS.instancesDetachSshKey, { kind: "instances", keys: byId }],
  [ENDPOINTS.instancesChangeBid, { kind: "instances", keys: byId }],
  [ENDPOINTS.instancesReboot, { kind: "instances", keys: byId }],
  [ENDPOINTS.instancesRecycle, { kind: "instances", keys: byId }],
  [ENDPOINTS.instancesPrepay, { kind: "instances", keys: byId }],
  [ENDPOINTS.instancesUpdateTemplate, { kind: "instances", keys: byId }],
  // An edit is addressed by hash, the cache by template id.
  [ENDPOINTS.templatesEdit, { kind: "templates", keys: all }],
  [ENDPOINTS.templatesDelete, { kind: "templates", keys: field("template_id") }],
  [ENDPOINTS.sshKeysUpdate, { kind: "sshKeys", keys: byId }],
  [ENDPOINTS.sshKeysDelete, { kind: "sshKeys", keys: byId }],
  [ENDPOINTS.secretsAdd, { kind: "secrets", keys: field("key") }],
  [ENDPOINTS.secretsUpdate, { kind: "secrets", keys: field("key") }],
  [ENDPOINTS.secretsDelete, { kind: "secrets", keys: field("key") }],
  [ENDPOINTS.apiKeysDelete, { kind: "apiKeys", keys: byId }],
  [ENDPOINTS.maintenancesSchedule, { kind: "maintenance", keys: field("machine_ids") }],
  // Cancelled by window id, cached by machine.
  [ENDPOINTS.maintenancesCancel, { kind: "maintenance", keys: all }],
  // A machine's listing: by the machine id in the body or the path.
  [ENDPOINTS.machineAsksCreate, { kind: "machines", keys: field("machine") }],
  [ENDPOINTS.machineDefaultJobCreate, { kind: "machines", keys: field("machine") }],
  [ENDPOINTS.machineAsksDelete, { kind: "machines", keys: (params) => [String(params.machine_id)] }],
  [ENDPOINTS.machineMinBid, { kind: "machines", keys: (params) => [String(params.machine_id)] }],
  [ENDPOINTS.machineDefaultJobDelete, { kind: "machines", keys: (params) => [String(params.machine_id)] }],
  // Volumes: a create names its volume when the answer does (`V.<id>`); a delete names its id.
  [ENDPOINTS.volumesCreate, { kind: "volumes", keys: made((r) => r.id) }],
  [ENDPOINTS.networkVolumesCreate, { kind: "volumes", keys: made((r) => r.id) }],
  [ENDPOINTS.volumesDelete, { kind: "volumes", keys: (_params, body) => (body.id === undefined ? undefined : [String(body.id)]) }],
  // Serverless endpoint groups and worker groups (an endpoint's delete also deletes its groups:
  // a worker-group read finds that out from a fresh listing, its cache lives seconds).
  [ENDPOINTS.endpointsCreate, { kind: "endpoints", keys: made((r) => r.result) }],
  [ENDPOINTS.endpointsUpdate, { kind: "endpoints", keys: byId }],
  [ENDPOINTS.endpointsDelete, { kind: "endpoints", keys: byId }],
  [ENDPOINTS.workerGroupsCreate, { kind: "workerGroups", keys: made((r) => r.id) }],
  [ENDPOINTS.workerGroupsUpdate, { kind: "workerGroups", keys: byId }],
  [ENDPOINTS.workerGroupsDelete, { kind: "workerGroups", keys: byId }],
  [ENDPOINTS.webhooksCreate, { kind: "webhooks", keys: made((r) => (r.webhook as { id?: number } | undefined)?.id) }],
  [ENDPOINTS.webhooksUpdate, { kind: "webhooks", keys: byId }],
  [ENDPOINTS.webhooksDelete, { kind: "webhooks", keys: byId }],
  [ENDPOINTS.webhooksRotateSecret, { kind: "webhooks", keys: byId }],
  // A scheduled job's create answer may carry no id: any job may be new.
  [ENDPOINTS.scheduledJobsCreate, { kind: "scheduledJobs", keys: all }],
  [ENDPOINTS.scheduledJobsUpdate, { kind: "scheduledJobs", keys: byId }],
  [ENDPOINTS.scheduledJobsDelete, { kind: "scheduledJobs", keys: byId }],
]);

/** The request core that announces, once a write has settled (either way), what it may have changed. */
export class AnnouncingCore extends RequestCore {
  private readonly listeners = new Set<WriteListener>();

  onWrite(listener: WriteListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  override async request<T>(spec: RequestSpec<T>): Promise<T> {
    const write = WRITES.get(spec.endpoint);
    if (!write) return super.request(spec);
    let result: T | undefined;
    try {
      result = await super.request(spec);
      return result;
    } finally {
      const body = spec.body && typeof spec.body === "object" ? (spec.body as Record<string, unknown>) : {};
      const keys = write.keys(spec.params ?? {}, body, result);
      if (keys === undefined || keys.length > 0) for (const listener of this.listeners) listener(write.kind, keys);
    }
  }
}
