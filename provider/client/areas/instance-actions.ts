/**
 * Actions on one instance beyond its state and label: the bid of an interruptible rental,
 * reboot and recycle of its container, and prepayment (with the balance it leaves). Paths and
 * bodies as the vendor's client sends them (vastai/api/instances.py, billing.py).
 */
import type { RequestCore } from "../core";
import { ENDPOINTS } from "../endpoints";
import { VastValidationError } from "../errors";
import { successResponse } from "../schemas";
import { dropUndefined } from "../schemas";
import { balanceResponse, prepayResponse } from "../schemas-instances";
import { toRequestEnv } from "../wire/env";
import { encodedOnstart } from "../wire/onstart";
import type { InstanceBalance, PrepayResult } from "../types-templates";

/** The bid range the bid endpoint accepts, $/hour (vendor document: change bid): in-place changes. */
export const BID_PRICE_MIN = 0.001;
/** The highest bid price the client accepts, $/hour. */
export const BID_PRICE_MAX = 32;
/** The most a bid may be when an instance is created, $/hour (vendor document: create instance, `price` maximum 128). */
export const CREATE_BID_PRICE_MAX = 128;

/**
 * What `updateTemplate` sets; absent fields are left as they are. `env` (with `ports`) replaces
 * the whole environment, so callers send every variable the container is to keep.
 */
export interface UpdateTemplateInput {
  templateHashId?: string;
  image?: string;
  env?: Record<string, string>;
  ports?: string[];
  onstart?: string;
  argsStr?: string;
}

/** Actions on existing instances: bid, template update, reboot, recycle, prepay and balance. */
export class InstanceActionsApi {
  constructor(private readonly core: RequestCore) {}

  /**
   * Set the bid of an interruptible instance, $/hour for the whole instance (the create's
   * `price`). The service answers `invalid_args` outside 0.001..32.
   */
  async changeBid(id: number, pricePerHour: number): Promise<void> {
    if (!Number.isFinite(pricePerHour) || pricePerHour < BID_PRICE_MIN || pricePerHour > BID_PRICE_MAX) {
      throw new VastValidationError(
        `bid price must be between ${BID_PRICE_MIN} and ${BID_PRICE_MAX} $/hour for an in-place change (got ${pricePerHour}); ` +
          `a new rental takes bids up to ${CREATE_BID_PRICE_MAX}`,
      );
    }
    await this.core.request({
      endpoint: ENDPOINTS.instancesChangeBid,
      params: { id },
      body: { client_id: "me", price: pricePerHour },
      schema: successResponse,
    });
  }

  /**
   * Recreate the container on the same machine from a template, image, environment, start
   * script or arguments (the GPU stays rented; the status goes through loading again). Body as
   * the vendor's client sends it (`vastai update instance`): `{id, template_hash_id, image,
   * args, env, onstart}`. A refusal is `{success: false, msg}` (VastOperationError) or an HTTP
   * 4xx (VastApiError).
   */
  async updateTemplate(id: number, input: UpdateTemplateInput): Promise<void> {
    const body = dropUndefined({
      id,
      template_hash_id: input.templateHashId,
      image: input.image,
      args: input.argsStr,
      env: input.env === undefined && input.ports === undefined ? undefined : toRequestEnv({ env: input.env, ports: input.ports }),
      onstart: input.onstart === undefined ? undefined : encodedOnstart(input.onstart),
    });
    if (Object.keys(body).length === 1) throw new VastValidationError("updateTemplate needs at least one of templateHashId, image, env, ports, onstart, argsStr");
    await this.core.request({ endpoint: ENDPOINTS.instancesUpdateTemplate, params: { id }, body, schema: successResponse });
  }

  /** Stop and start the container on the same machine (the GPU stays rented). */
  async reboot(id: number): Promise<void> {
    await this.core.request({ endpoint: ENDPOINTS.instancesReboot, params: { id }, body: {}, schema: successResponse });
  }

  /** Destroy and recreate the container in place, from a freshly pulled image (the GPU stays rented). */
  async recycle(id: number): Promise<void> {
    await this.core.request({ endpoint: ENDPOINTS.instancesRecycle, params: { id }, body: {}, schema: successResponse });
  }

  /**
   * Pay `amount` dollars of credit ahead for the instance (a discount for long use). Never
   * resent: a lost response is a ResponseLostError; read `balance` to learn whether it was paid.
   */
  async prepay(id: number, amount: number): Promise<PrepayResult> {
    if (!Number.isFinite(amount) || amount <= 0) throw new VastValidationError(`prepay amount must be a positive number of dollars (got ${amount})`);
    return this.core.request({ endpoint: ENDPOINTS.instancesPrepay, params: { id }, body: { amount }, schema: prepayResponse });
  }

  /** The prepaid balance of the instance (`owner=me`, as the vendor's client asks). */
  balance(id: number): Promise<InstanceBalance> {
    return this.core.request({ endpoint: ENDPOINTS.instancesBalance, params: { id }, query: { owner: "me" }, schema: balanceResponse });
  }
}
