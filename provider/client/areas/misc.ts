import type { RequestCore } from "../core";
import { ENDPOINTS, endpointKey, fillRoute } from "../endpoints";
import { VastErrorTextError, VastValidationError } from "../errors";
import {
  autoscalerTemplatesResponse,
  bundleAcceptResponse,
  deploymentVersionsResponse,
  earningsChartResponse,
  copyDirectResponse,
  rsyncResponse,
  workerGroupLogsResponse,
} from "../schemas-hosting";
import type {
  AcceptBundleInput,
  AutoscalerTemplates,
  CopyDirectInput,
  DeploymentVersion,
  EarningsChart,
  RsyncInput,
  RsyncResult,
  WorkerGroupLogsInput,
} from "../types-account";

/** Copying data between instances. */
export class CopyApi {
  constructor(private readonly core: RequestCore) {}

  /**
   * Copy between two instances (`PUT /api/v0/commands/copy_direct/`), as the vendor's client
   * does whenever neither side is local. Ids are instance ids or `C.<id>`. Not resent after a
   * lost response (a second copy would run).
   */
  async copyDirect(input: CopyDirectInput): Promise<RsyncResult> {
    return await this.core.request({
      endpoint: ENDPOINTS.copyDirect,
      body: {
        client_id: "me",
        src_id: containerLocation("srcId", input.srcId),
        dst_id: containerLocation("dstId", input.dstId),
        src_path: input.srcPath,
        dst_path: input.dstPath,
      },
      schema: copyDirectResponse,
    });
  }

  /**
   * Start a remote rsync between two instance containers. An invalid path is answered with
   * HTTP 200 and `success: false, error: "invalid_args"`, which throws VastOperationError
   * (`msg` names the path: `Invalid src_path.`). Not resent after a lost response.
   */
  rsync(input: RsyncInput): Promise<RsyncResult> {
    return this.core.request({
      endpoint: ENDPOINTS.copyRsync,
      body: {
        // Which ids may be left out is not documented; an absent id is not sent at all.
        src_id: input.srcId === undefined ? undefined : String(input.srcId),
        dst_id: input.dstId === undefined ? undefined : String(input.dstId),
        src_path: input.srcPath,
        dst_path: input.dstPath,
      },
      schema: rsyncResponse,
    });
  }
}

/** `C.<id>` (the vendor's container form) or a bare instance id, to the wire form `C.<id>`. */
export function containerLocation(field: string, id: string | number): string {
  const text = String(id).trim();
  const m = /^(?:C\.)?(\d+)$/.exec(text);
  if (!m || Number(m[1]) < 1) throw new VastValidationError(`${field} must be an instance id or "C.<instance id>", got ${JSON.stringify(text)}`);
  return `C.${m[1]}`;
}

/** Bundle (grouped ask) offers. */
export class BundlesApi {
  constructor(private readonly core: RequestCore) {}

  /**
   * Accept a bundle offer. The endpoint is currently disabled by the service and answers
   * `{}`; the result is whatever it returns.
   */
  accept(id: number, input: AcceptBundleInput): Promise<Record<string, unknown>> {
    return this.core.request({
      endpoint: ENDPOINTS.bundlesAccept,
      params: { id },
      body: { price: input.price, max_start: input.maxStart, min_duration: input.minDuration },
      schema: bundleAcceptResponse,
    });
  }
}

/** Serverless worker groups (served from the run URL). */
export class ServerlessApi {
  constructor(
    private readonly core: RequestCore,
    private readonly apiKey: string,
  ) {}

  /**
   * Recent log output of a worker group, from the documented `POST /get_workergroup_logs`
   * (the vendor's client calls `/get_autogroup_logs/`). The key goes in the Bearer header and
   * the `api_key` body field. An error the service sends as a bare string at HTTP 200 (unknown
   * group, bad key) throws VastErrorTextError carrying that text.
   */
  async workerGroupLogs(input: WorkerGroupLogsInput): Promise<{ logs: string }> {
    const body: Record<string, unknown> = { id: input.workerGroupId, api_key: this.apiKey };
    if (input.tail !== undefined) body.tail = input.tail;
    const e = ENDPOINTS.workerGroupLogs;
    const answer = await this.core.request({ endpoint: e, body, schema: workerGroupLogsResponse });
    if ("errorText" in answer) throw new VastErrorTextError({ method: e.method, path: fillRoute(e.route), endpoint: endpointKey(e) }, answer.errorText);
    return { logs: answer.logs };
  }
}

/** Stored file versions of serverless deployments. */
export class DeploymentsApi {
  constructor(private readonly core: RequestCore) {}

  /** Versions of a deployment, newest first. */
  versions(deploymentId: number): Promise<DeploymentVersion[]> {
    return this.core.request({ endpoint: ENDPOINTS.deploymentVersions, params: { id: deploymentId }, schema: deploymentVersionsResponse });
  }
}

/** Autoscaler templates. */
export class AutoscalerApi {
  constructor(private readonly core: RequestCore) {}

  /** The user's autoscaler-enabled templates and the globally recommended ones. */
  templates(userId: number): Promise<AutoscalerTemplates> {
    return this.core.request({ endpoint: ENDPOINTS.autoscalerTemplates, params: { user_id: userId }, schema: autoscalerTemplatesResponse });
  }
}

/** Host earnings. */
export class EarningsApi {
  constructor(private readonly core: RequestCore) {}

  /** The bucketed earnings series of the chart. Query parameters are not documented; they are passed as given. */
  chart(params: Record<string, string | number | boolean> = {}): Promise<EarningsChart> {
    return this.core.request({ endpoint: ENDPOINTS.earningsChart, query: params, schema: earningsChartResponse });
  }
}
