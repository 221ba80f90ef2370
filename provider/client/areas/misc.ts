import type { RequestCore } from "../core";
import { ENDPOINTS } from "../endpoints";
import {
  autoscalerTemplatesResponse,
  bundleAcceptResponse,
  deploymentVersionsResponse,
  earningsChartResponse,
  rsyncResponse,
  workerGroupLogsResponse,
} from "../schemas-hosting";
import type {
  AcceptBundleInput,
  AutoscalerTemplates,
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

  /** Recent log output of a worker group. The key goes in the Bearer header and the `api_key` body field. */
  async workerGroupLogs(input: WorkerGroupLogsInput): Promise<{ logs: string }> {
    const body: Record<string, unknown> = { id: input.workerGroupId, api_key: this.apiKey };
    if (input.tail !== undefined) body.tail = input.tail;
    const logs = await this.core.request({ endpoint: ENDPOINTS.workerGroupLogs, body, schema: workerGroupLogsResponse });
    return { logs };
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
