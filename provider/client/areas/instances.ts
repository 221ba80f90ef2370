import type { RequestCore } from "../core";
import { buildInstanceFilters, buildInstanceOrder, type InstanceListColumn, type InstanceListFilters } from "../wire/filters";
import { ENDPOINTS, endpointKey } from "../endpoints";
import { PagingLoopError, isServiceNotFound, VastValidationError } from "../errors";
import { SUCCESS_TRUE, deleteConfirmed } from "./confirm";
import { registerSecret, registerSecrets } from "../redact";
import { utf8Bytes } from "../wire/text";
import { successResponse } from "../schemas";
import {
  createInstanceResponse,
  createInstanceToWire,
  INSTANCE_UNCLEAR,
  instanceGetResponse,
  instanceListResponse,
  instancePageResponse,
  stateChangeResponse,
} from "../schemas-instances";
import type {
  CreateInstanceInput,
  CreateInstanceResult,
  DeleteResult,
  Instance,
  InstancePage,
  StateChangeResult,
} from "../types-templates";

/** A query of the instance list: filters and columns. */
export interface InstanceListQuery {
  /** Instances per page, at most 25 (default 25). */
  limit?: number;
  afterToken?: string | null;
  filters?: InstanceListFilters;
  orderBy?: ReadonlyArray<[InstanceListColumn, "asc" | "desc"]>;
}

/** Most bytes (UTF-8) of an instance label (api-facts: Instances): the service counts bytes. */
export const LABEL_LIMIT = 1024;

/** Instances: containers (or VMs) running on rented offers. */
export class InstancesApi {
  constructor(private readonly core: RequestCore) {}

  /** All instances of the user (one unpaged call). */
  list(): Promise<Instance[]> {
    return this.core.request({ endpoint: ENDPOINTS.instancesList, schema: instanceListResponse });
  }

  /**
   * The least time between two calls of the paged list this client keeps now, ms: a caller that
   * gathers what one call should ask for can gather that long at no cost.
   */
  listPageSpacingMs(): number {
    return this.core.spacingMs(ENDPOINTS.instancesListPage);
  }

  /**
   * One page of the paged list (`GET /api/v1/instances/`, at most 25); pass `nextToken` as
   * `afterToken`. `filters` and `orderBy` are applied by the service (`select_filters`,
   * `order_by`); `totalInstances` then counts the instances that match.
   */
  async listPage(options: InstanceListQuery = {}): Promise<InstancePage> {
    let filters: string | undefined;
    let order: string | undefined;
    try {
      filters = options.filters ? JSON.stringify(buildInstanceFilters(options.filters)) : undefined;
      order = options.orderBy ? JSON.stringify(buildInstanceOrder(options.orderBy)) : undefined;
    } catch (error) {
      throw new VastValidationError((error as Error).message);
    }
    return this.core.request({
      endpoint: ENDPOINTS.instancesListPage,
      query: { limit: options.limit ?? 25, after_token: options.afterToken ?? undefined, select_filters: filters, order_by: order },
      schema: instancePageResponse,
    });
  }

  /**
   * Every instance (matching `filters`), walking the paged list (paced at about one page a
   * second). A next_token seen before is a PagingLoopError: a cycling token would otherwise
   * page for hours.
   */
  async listAll(pageSize = 25, query: Omit<InstanceListQuery, "limit" | "afterToken"> = {}): Promise<Instance[]> {
    const all: Instance[] = [];
    const seen = new Set<string>();
    let afterToken: string | null = null;
    for (let pages = 1; ; pages++) {
      const page: InstancePage = await this.listPage({ ...query, limit: pageSize, afterToken });
      all.push(...page.instances);
      if (!page.nextToken || page.instances.length === 0) return all;
      if (seen.has(page.nextToken)) throw new PagingLoopError(endpointKey(ENDPOINTS.instancesListPage), pages);
      seen.add(page.nextToken);
      afterToken = page.nextToken;
    }
  }

  /**
   * One instance, or null when it is gone (the service's 404, or `{instances: null}`). A 404
   * without the service's error shape (a proxy, a wrong API URL) throws: it proves nothing.
   * The service may answer `{}` for a destroyed instance, and so may a server that is not the
   * service: `{}` is settled by the list (which must have its `instances` key): the instance is
   * gone only when the list does not hold it, and the list's row is returned when it does.
   */
  async get(id: number): Promise<Instance | null> {
    let answer: Instance | null | typeof INSTANCE_UNCLEAR;
    try {
      // `owner=me` as the vendor's client sends: the read is of the caller's own instance.
      answer = await this.core.request({ endpoint: ENDPOINTS.instancesGet, params: { id }, query: { owner: "me" }, schema: instanceGetResponse });
    } catch (error) {
      if (isServiceNotFound(error)) return null;
      throw error;
    }
    if (answer !== INSTANCE_UNCLEAR) return answer;
    return (await this.list()).find((i) => i.id === id) ?? null;
  }

  /**
   * Create an instance from offer `offerId`. Name a template by `templateHashId` (the numeric
   * template id is not accepted). `success: false` means created but stopped.
   *
   * Never resent: when the response is lost this throws ResponseLostError; list the instances
   * (match a unique `label`) to find out whether it was created. An offer that is gone gives
   * NotFoundError (`no_such_ask`) or GoneError (cannot start now).
   */
  async create(offerId: number, body: CreateInstanceInput): Promise<CreateInstanceResult> {
    if ("templateId" in body || "template_id" in body) {
      throw new VastValidationError("instance creation takes templateHashId (the template's hash_id), not a numeric template id");
    }
    if (body.label !== undefined && utf8Bytes(body.label) > LABEL_LIMIT) {
      throw new VastValidationError(`label is ${utf8Bytes(body.label)} bytes of UTF-8; the API accepts at most ${LABEL_LIMIT}`);
    }
    let wire: Record<string, unknown>;
    try {
      wire = createInstanceToWire(body);
    } catch (error) {
      throw new VastValidationError((error as Error).message);
    }
    registerSecret(body.imageLogin);
    // The password alone may be echoed by the service too.
    registerSecret(body.imageLogin?.match(/(?:^|\s)-p\s+(\S+)/)?.[1]);
    registerSecrets(body.env);
    const result = await this.core.request({
      endpoint: ENDPOINTS.instancesCreate,
      params: { id: offerId },
      body: wire,
      schema: createInstanceResponse,
      // success=false with new_contract: created, but it starts stopped.
      acceptOperationFailure: (b) => b.new_contract !== undefined && b.new_contract !== null,
    });
    registerSecret(result.instanceApiKey);
    return result;
  }

  /**
   * Destroy an instance. One the service reports gone resolves `{alreadyGone: true}`; a 404
   * not from the service is checked by reading the instance back.
   */
  destroy(id: number): Promise<DeleteResult> {
    return deleteConfirmed({
      what: `instance ${id}`,
      run: () => this.core.request({ endpoint: ENDPOINTS.instancesDestroy, params: { id }, body: {}, schema: successResponse, documented: SUCCESS_TRUE }),
      stillThere: async () => (await this.get(id)) !== null,
    });
  }

  /** Set the label (at most 1024 characters). */
  async setLabel(id: number, label: string): Promise<void> {
    await this.core.request({ endpoint: ENDPOINTS.instancesUpdate, params: { id }, body: { label }, schema: successResponse });
  }

  /** Ask for the instance to run. `applied: false` means queued (for example `resources_unavailable`). */
  start(id: number): Promise<StateChangeResult> {
    return this.changeState(id, "running");
  }

  /** Ask for the instance to stop. */
  stop(id: number): Promise<StateChangeResult> {
    return this.changeState(id, "stopped");
  }

  private changeState(id: number, state: "running" | "stopped"): Promise<StateChangeResult> {
    return this.core.request({
      endpoint: ENDPOINTS.instancesUpdate,
      params: { id },
      body: { state },
      schema: stateChangeResponse,
      // resources_unavailable means the change is queued; any other success=false is a failure.
      acceptOperationFailure: (b) => b.error === "resources_unavailable",
    });
  }

  /** Add an SSH public key to one instance (Docker instances; a VM needs its key at creation). */
  async attachSshKey(id: number, publicKey: string): Promise<void> {
    await this.core.request({
      endpoint: ENDPOINTS.instancesAttachSshKey,
      params: { id },
      body: { ssh_key: publicKey },
      schema: successResponse,
    });
  }

  /**
   * Detach SSH key `keyId` (the account key's id) from the instance (vendor document: detach
   * ssh-key). A key that is not attached answers the service's 404 (NotFoundError).
   */
  async detachSshKey(id: number, keyId: number): Promise<void> {
    await this.core.request({ endpoint: ENDPOINTS.instancesDetachSshKey, params: { id, keyId }, schema: successResponse });
  }
}
