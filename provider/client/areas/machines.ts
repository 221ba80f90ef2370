import type { RequestCore } from "../core";
import { SUCCESS_TRUE, writeSeen } from "./confirm";
import { ENDPOINTS } from "../endpoints";
import { isServiceNotFound, VastValidationError } from "../errors";
import {
  machineAsksResponse,
  machineGetResponse,
  machineOkResponse,
  machineListResponse,
  maintenanceCancelResponse,
  maintenanceListResponse,
  maintenanceScheduleResponse,
} from "../schemas-hosting";
import type {
  CancelMaintenanceResult,
  Machine,
  MachineDefaultJob,
  MachineListingTerms,
  MaintenanceResult,
  MaintenanceWindow,
  ScheduleMaintenanceInput,
} from "../types-account";

const MAX_BATCH = 100;

function checkBatch(field: string, ids: readonly number[]): void {
  if (ids.length < 1 || ids.length > MAX_BATCH) {
    throw new VastValidationError(`${field} must hold 1 to ${MAX_BATCH} ids, got ${ids.length}`);
  }
}

/** Machines the caller hosts, and their maintenance windows. */
export class MachinesApi {
  private userId?: Promise<number>;

  constructor(
    private readonly core: RequestCore,
    /** The caller's user id (`GET /api/v0/users/current/`), asked for once per client. */
    private readonly currentUserId: () => Promise<number>,
  ) {}

  /**
   * Machines the caller hosts. The service documents `user_id` as a required query parameter
   * of this list; without `userId` the caller's own id is looked up once and sent.
   */
  async list(userId?: number): Promise<Machine[]> {
    let id = userId;
    if (id === undefined) {
      this.userId ??= this.currentUserId().catch((error: unknown) => {
        this.userId = undefined;
        throw error;
      });
      id = await this.userId;
    }
    return this.core.request({ endpoint: ENDPOINTS.machinesList, query: { user_id: id }, schema: machineListResponse });
  }

  /** Details of one machine the caller owns; null when there is none. */
  async get(machineId: number): Promise<Machine | null> {
    try {
      return await this.core.request({
        endpoint: ENDPOINTS.machinesGet,
        params: { machine_id: machineId },
        query: { owner: "me" },
        schema: machineGetResponse,
      });
    } catch (error) {
      if (isServiceNotFound(error)) return null;
      throw error;
    }
  }

  /**
   * Schedule one maintenance window on 1 to 100 machines. Machines not owned by the caller
   * come back as failed entries (`error: "not_found"`), not as an error. Affected clients are
   * notified, so this is never resent after a lost response: list the windows to check.
   */
  async scheduleMaintenance(input: ScheduleMaintenanceInput): Promise<MaintenanceResult[]> {
    checkBatch("machineIds", input.machineIds);
    const sdate = input.startTime instanceof Date ? Math.floor(input.startTime.getTime() / 1000) : input.startTime;
    return this.core.request({
      endpoint: ENDPOINTS.maintenancesSchedule,
      body: {
        machine_ids: input.machineIds,
        sdate,
        duration: input.durationHours ?? 1,
        maintenance_category: input.category ?? "other",
      },
      schema: maintenanceScheduleResponse,
    });
  }

  /** Active maintenance windows of the given machines. */
  listMaintenances(machineIds: readonly number[]): Promise<MaintenanceWindow[]> {
    return this.core.request({
      endpoint: ENDPOINTS.maintenancesList,
      query: { owner: "me", machine_ids: JSON.stringify(machineIds) },
      schema: maintenanceListResponse,
    });
  }

  /**
   * Cancel 1 to 100 windows by id; per-window outcomes in the result. When no window of the
   * call could be cancelled the answer may say `success: false` next to the per-window
   * results: those are returned, not thrown, so the caller sees which windows and why.
   */
  async cancelMaintenances(maintenanceIds: readonly number[]): Promise<CancelMaintenanceResult[]> {
    checkBatch("maintenanceIds", maintenanceIds);
    return this.core.request({
      endpoint: ENDPOINTS.maintenancesCancel,
      body: { maintenance_ids: maintenanceIds },
      schema: maintenanceCancelResponse,
      acceptOperationFailure: (body) => Array.isArray(body.results),
    });
  }

  /**
   * List a machine for rent, or change its listing: every term at once (`PUT create_asks`).
   * Terms left out keep the service's defaults. Returns how many client contracts were
   * extended to a new end date. A resend sets the same terms again.
   */
  async listMachine(machineId: number, terms: MachineListingTerms): Promise<{ extended: number }> {
    const answer = await this.core.request({
      endpoint: ENDPOINTS.machineAsksCreate,
      body: {
        machine: machineId,
        price_gpu: terms.pricePerGpu,
        price_disk: terms.storagePricePerGbMonth,
        price_inetu: terms.uploadPricePerGb,
        price_inetd: terms.downloadPricePerGb,
        price_min_bid: terms.minBidPerGpu,
        min_chunk: terms.minGpus,
        end_date: terms.endDate,
        credit_discount_max: terms.discountRate,
        // Sent always, as the vendor's client sends every key: a listing without vol_size offers
        // half the machine's disk as a volume contract (the vendor's client's help), 0 none.
        duration: terms.duration ?? null,
        vol_size: terms.volumeSizeGb ?? 0,
        vol_price: terms.volumeSizeGb ? (terms.volumePricePerGbMonth ?? null) : null,
      },
      schema: machineAsksResponse,
      // `{success: true, extended}`: a `200 {}` is unreadable, not a listing.
      documented: SUCCESS_TRUE,
    });
    // The documented answer alone proves nothing: the machine must show the listing (its
    // listed GPU price), at the price sent when one was.
    await writeSeen(`machine listing of machine ${machineId}`, "listing", ENDPOINTS.machineAsksCreate, async () => {
      const machine = await this.get(machineId);
      if (!machine) return "the service lists no such machine of the account's";
      if (machine.listed !== true) return "the machine shows no listing";
      const live = machine.listing?.pricePerGpu;
      const sent = terms.pricePerGpu;
      if (sent !== undefined && live !== undefined && Math.abs(live - sent) > 1e-9 * Math.max(1, Math.abs(sent))) {
        return `the machine shows its GPU price at $${live}/hour, not the $${sent}/hour sent`;
      }
      return null;
    });
    return answer;
  }

  /**
   * Unlist a machine: all its asks are removed (client contracts already running stay).
   * False when the service knows no such machine of the caller's.
   */
  async unlistMachine(machineId: number): Promise<boolean> {
    try {
      await this.core.request({ endpoint: ENDPOINTS.machineAsksDelete, params: { machine_id: machineId }, schema: machineOkResponse });
      return true;
    } catch (error) {
      if (isServiceNotFound(error)) return false;
      throw error;
    }
  }

  /** Set the lowest interruptible bid per GPU, $/hour. */
  async setMinBid(machineId: number, pricePerGpu: number): Promise<void> {
    await this.core.request({
      endpoint: ENDPOINTS.machineMinBid,
      params: { machine_id: machineId },
      body: { client_id: "me", price: pricePerGpu },
      schema: machineOkResponse,
    });
  }

  /** Create (or replace) the machine's default job: the host's background bid on idle GPUs. */
  async setDefaultJob(machineId: number, job: MachineDefaultJob): Promise<void> {
    await this.core.request({
      endpoint: ENDPOINTS.machineDefaultJobCreate,
      body: {
        machine: machineId,
        price_gpu: job.pricePerGpu,
        price_inetu: job.uploadPricePerGb,
        price_inetd: job.downloadPricePerGb,
        image: job.image,
        args: job.args ?? [],
      },
      schema: machineOkResponse,
    });
  }

  /** Remove the machine's default job; false when the service knows no such machine of the caller's. */
  async removeDefaultJob(machineId: number): Promise<boolean> {
    try {
      await this.core.request({ endpoint: ENDPOINTS.machineDefaultJobDelete, params: { machine_id: machineId }, schema: machineOkResponse });
      return true;
    } catch (error) {
      if (isServiceNotFound(error)) return false;
      throw error;
    }
  }
}
