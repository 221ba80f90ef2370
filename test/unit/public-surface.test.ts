/**
 * Issue 25 item 8: a deliberate public surface. The package root exports the resources, the
 * lookups, the configuration, the errors and the client factory with its options; the rest of
 * the client lives in `pulumi-vastai/client`. The root's list is pinned here, so each new public
 * name is a deliberate change of this file; every public name of every entry point carries a
 * TSDoc comment (the names in UNDOCUMENTED are the remaining debt: the list may only shrink).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ENTRY_POINTS, publicNames, type PublicName } from "../support/public-api";

/** The package root's exports, sorted. Adding or removing one is a change of the public API. */
const ROOT_EXPORTS = [
  "AcceptBundleInput", "ApiErrorDetails", "ApiKey", "ApiKeyArgs", "ApiKeyPermissions", "AuthenticationError",
  "AutoscalerTemplates", "BackoffOptions", "BadRequestError", "CLI_DEFAULT_OFFER_FILTERS", "CallSite", "Charge",
  "ChargeItem", "ChargesArgs", "ClientOptions", "ConfigSources", "DEFAULT_API_URL", "DeleteNotConfirmedError",
  "DeploymentVersion", "ENV_VAR_LIMIT", "EarningsChart", "EarningsChartParams", "Endpoint", "EndpointArgs",
  "EndpointInfo", "EndpointsArgs", "EndpointsOutputArgs", "EnvVar", "EnvVarArgs", "Exchange",
  "ExchangeResult", "FilterCondition", "Fleet", "FleetArgs", "FleetMember", "FleetSpread",
  "FleetVolume", "GetVolumesArgs", "GoneError", "InputsOf", "Instance", "InstanceArgs",
  "InstanceOfferFilters", "InstanceOutputs", "InstanceReadiness", "InstanceVolume", "InvalidApiKeyError", "Invoice",
  "InvoicesArgs", "Logger", "LookupOptions", "Machine", "MaintenanceCategory", "MaintenanceMachineResult",
  "MaintenanceWindow", "MaintenanceWindowArgs", "MaintenanceWindowStatus", "MissingApiKeyError", "NetworkVolume", "NetworkVolumeArgs",
  "NetworkVolumeOfferFilters", "NotFoundError", "OfferFilters", "OfferQuery", "OfferSearch", "PacingOptions",
  "PagingLoopError", "PermissionDeniedError", "QueryValue", "RateLimitError", "RegeneratedKeyOutput", "RequestSpec",
  "ResolvedConfig", "ResponseLostError", "ResponseSchemaError", "ResponseTooLargeError", "RetryPolicy", "RetryableFailure",
  "RsyncCopy", "RsyncCopyArgs", "SecretInfo", "ServerError", "SshKey", "SshKeyArgs",
  "SubaccountKeyRotation", "SubaccountKeyRotationArgs", "Template", "TemplateArgs", "TemplateFilters", "Transport",
  "UserInfo", "VastApiError", "VastClient", "VastConnectionError", "VastError", "VastErrorTextError",
  "VastOperationError", "VastTimeoutError", "VastValidationError", "Volume", "VolumeArgs", "VolumeInUseError",
  "VolumeOfferFilterInputs", "Webhook", "WebhookArgs", "WorkerGroup", "WorkerGroupArgs", "WorkerGroupInfo",
  "WorkerGroupLogs", "WorkerGroupLogsArgs", "WorkerGroupsArgs", "WriteKind", "WriteListener", "acceptBundle",
  "createClient", "getAutoscalerTemplates", "getAutoscalerTemplatesOutput", "getCharges", "getChargesOutput", "getDeploymentVersions",
  "getDeploymentVersionsOutput", "getEarningsChart", "getEarningsChartOutput", "getEndpoints", "getEndpointsOutput", "getInstances",
  "getInstancesOutput", "getInvoices", "getInvoicesOutput", "getMachine", "getMachineOutput", "getMachines",
  "getMachinesOutput", "getSecrets", "getSecretsOutput", "getSshKeys", "getSshKeysOutput", "getTemplates",
  "getTemplatesOutput", "getUser", "getUserOutput", "getVolumes", "getVolumesOutput", "getWorkerGroupLogs",
  "getWorkerGroupLogsOutput", "getWorkerGroups", "getWorkerGroupsOutput", "keyFilePath", "providers", "resolveConfig",
  "searchNetworkVolumeOffers", "searchNetworkVolumeOffersOutput", "searchOffers", "searchOffersOutput", "searchVolumeOffers", "searchVolumeOffersOutput",
  "setClientOptions", "setProviderSettings",
];

/** Public names declared without a TSDoc comment, as `file:name`. Document one, then delete it here. */
const UNDOCUMENTED = new Set([
  "provider/client/areas/billing.ts:BillingApi", "provider/client/areas/billing.ts:BillingRange", "provider/client/areas/billing.ts:CHARGE_TYPES",
  "provider/client/areas/billing.ts:ChargeQuery", "provider/client/areas/billing.ts:ChargeType", "provider/client/areas/billing.ts:InvoiceQuery",
  "provider/client/areas/instance-actions.ts:BID_PRICE_MAX", "provider/client/areas/instance-actions.ts:InstanceActionsApi", "provider/client/areas/instances.ts:InstanceListQuery",
  "provider/client/areas/offers.ts:OfferSearch", "provider/client/areas/volumes.ts:VolumeOfferSearch", "provider/client/areas/volumes.ts:VolumesApi",
  "provider/client/areas/webhooks.ts:WebhooksApi", "provider/client/client.ts:ClientOptions", "provider/client/client.ts:DEFAULT_API_URL",
  "provider/client/client.ts:DEFAULT_RUN_URL", "provider/client/client.ts:VastClient", "provider/client/core.ts:Logger",
  "provider/client/core.ts:QueryValue", "provider/client/core.ts:RequestSpec", "provider/client/endpoints.ts:ENDPOINTS",
  "provider/client/endpoints.ts:Endpoint", "provider/client/endpoints.ts:EndpointName", "provider/client/errors.ts:ApiErrorDetails",
  "provider/client/pacing.ts:PacingOptions", "provider/client/probe.ts:probeHttp", "provider/client/probe.ts:probeTcp",
  "provider/client/retry.ts:RetryPolicy", "provider/client/transport.ts:Exchange", "provider/client/transport.ts:ExchangeResult",
  "provider/client/transport.ts:Transport", "provider/client/types-account.ts:AcceptBundleInput", "provider/client/types-account.ts:ApiKey",
  "provider/client/types-account.ts:ApiKeyPermissions", "provider/client/types-account.ts:ApiKeyScope", "provider/client/types-account.ts:AutoscalerTemplates",
  "provider/client/types-account.ts:CancelMaintenanceResult", "provider/client/types-account.ts:CreateApiKeyInput", "provider/client/types-account.ts:CreatedApiKey",
  "provider/client/types-account.ts:DeploymentVersion", "provider/client/types-account.ts:EarningsChart", "provider/client/types-account.ts:Machine",
  "provider/client/types-account.ts:MaintenanceCategory", "provider/client/types-account.ts:MaintenanceResult", "provider/client/types-account.ts:MaintenanceWindow",
  "provider/client/types-account.ts:RegeneratedKey", "provider/client/types-account.ts:RsyncInput", "provider/client/types-account.ts:RsyncResult",
  "provider/client/types-account.ts:ScheduleMaintenanceInput", "provider/client/types-account.ts:WorkerGroupLogsInput", "provider/client/types-billing.ts:BillingPage",
  "provider/client/types-templates.ts:CreateInstanceResult", "provider/client/types-templates.ts:DeleteResult", "provider/client/types-templates.ts:InstancePage",
  "provider/client/types-templates.ts:TemplateCreateResult", "provider/client/types-volumes.ts:CreateVolumeInput", "provider/client/types-volumes.ts:CreatedVolume",
  "provider/client/types-webhooks.ts:WEBHOOK_URL_LIMIT", "provider/client/wire/env.ts:EnvSpec", "provider/client/wire/filters.ts:FILTER_OPS",
  "provider/client/wire/filters.ts:FilterOp", "provider/client/wire/filters.ts:InstanceListColumn", "provider/client/wire/filters.ts:OfferQuery",
  "provider/client/wire/filters.ts:OfferType", "provider/client/wire/image.ts:TAG_RULE", "provider/client/wire/onstart.ts:EncodedOnstart",
  "provider/client/wire/onstart.ts:PreparedOnstart", "provider/client/wire/volume-filters.ts:VOLUME_OFFER_FILTER_FIELDS", "provider/client/wire/volume-filters.ts:VolumeOfferQuery",
  "provider/config.ts:ConfigSources", "provider/config.ts:InvalidApiKeyError", "provider/config.ts:MissingApiKeyError",
  "provider/config.ts:ResolvedConfig", "provider/lookups/account.ts:getSecretsOutput", "provider/lookups/account.ts:getSshKeysOutput",
  "provider/lookups/billing.ts:ChargesArgs", "provider/lookups/billing.ts:InvoicesArgs", "provider/lookups/billing.ts:getChargesOutput",
  "provider/lookups/billing.ts:getInvoicesOutput", "provider/lookups/billing.ts:getUserOutput", "provider/lookups/common.ts:LookupOptions",
  "provider/lookups/hosting.ts:getEarningsChartOutput", "provider/lookups/hosting.ts:getMachineOutput", "provider/lookups/hosting.ts:getMachinesOutput",
  "provider/lookups/market.ts:getInstancesOutput", "provider/lookups/market.ts:getTemplatesOutput", "provider/lookups/market.ts:searchOffersOutput",
  "provider/lookups/serverless.ts:EndpointsArgs", "provider/lookups/serverless.ts:EndpointsOutputArgs", "provider/lookups/serverless.ts:WorkerGroupLogs",
  "provider/lookups/serverless.ts:WorkerGroupLogsArgs", "provider/lookups/serverless.ts:WorkerGroupsArgs", "provider/lookups/serverless.ts:getAutoscalerTemplatesOutput",
  "provider/lookups/serverless.ts:getDeploymentVersionsOutput", "provider/lookups/serverless.ts:getWorkerGroupLogsOutput", "provider/lookups/serverless.ts:getWorkerGroupsOutput",
  "provider/lookups/volumes.ts:GetVolumesArgs", "provider/lookups/volumes.ts:getVolumesOutput", "provider/lookups/volumes.ts:searchNetworkVolumeOffersOutput",
  "provider/lookups/volumes.ts:searchVolumeOffersOutput", "provider/resources/apiKey/index.ts:ApiKeyArgs", "provider/resources/endpoint/index.ts:EndpointArgs",
  "provider/resources/envVar/index.ts:EnvVarArgs", "provider/resources/fleet/index.ts:Fleet", "provider/resources/fleet/index.ts:FleetArgs",
  "provider/resources/fleet/index.ts:FleetSpread", "provider/resources/instance/index.ts:Instance", "provider/resources/instance/index.ts:InstanceArgs",
  "provider/resources/maintenanceWindow/index.ts:MaintenanceMachineResult", "provider/resources/maintenanceWindow/index.ts:MaintenanceWindowArgs", "provider/resources/networkVolume/index.ts:NetworkVolumeArgs",
  "provider/resources/networkVolume/index.ts:NetworkVolumeOfferFilters", "provider/resources/rsyncCopy/index.ts:RsyncCopyArgs", "provider/resources/sshKey/index.ts:SshKeyArgs",
  "provider/resources/subaccountKeyRotation/index.ts:SubaccountKeyRotationArgs", "provider/resources/template/index.ts:TemplateArgs", "provider/resources/volume/index.ts:VolumeArgs",
  "provider/resources/volume/index.ts:VolumeOfferFilterInputs", "provider/resources/webhook/index.ts:WebhookArgs", "provider/resources/workerGroup/index.ts:WorkerGroupArgs",
  "provider/runtime.ts:ResourceKind", "provider/runtime.ts:RuntimeProvider", "provider/runtime.ts:implementation",
  "simulator/http/faults.ts:FaultSpec", "simulator/http/rate-limit.ts:RateLimitSetting", "simulator/options.ts:SimulatorOptions",
  "simulator/seed/seed.ts:SEED", "simulator/seed/seed.ts:SimulatorSeed", "simulator/start.ts:Simulator",
  "simulator/start.ts:startSimulator", "simulator/state-view.ts:StateView", "testing/engine.ts:EngineOptions",
  "testing/engine.ts:OfflineEngine", "testing/index.ts:TestStackOptions", "testing/plugin.ts:CheckFailure",
  "testing/plugin.ts:DiffResult", "testing/plugin.ts:PluginOptions", "testing/plugin.ts:ProviderPlugin",
  "testing/plugin.ts:startProviderPlugin", "testing/report.ts:ResourceOutcome", "testing/report.ts:StepReport",
  "testing/report.ts:StepRow",
]);

let names: Record<string, PublicName[]>;
beforeAll(() => {
  names = publicNames();
}, 60_000);

describe("issue 25 item 8: a deliberate public surface", () => {
  test("25.8 the package root exports exactly the pinned list", () => {
    expect(names["pulumi-vastai"].map((n) => n.name)).toEqual(ROOT_EXPORTS);
  });

  test("25.8 wire helpers and constants are not at the root but in pulumi-vastai/client", () => {
    const root = new Set(names["pulumi-vastai"].map((n) => n.name));
    const client = new Set(names["pulumi-vastai/client"].map((n) => n.name));
    for (const name of ["MB_PER_GB", "utf8Bytes", "encodeOnstart", "isoOfEpochSeconds", "fitsBytes", "ENDPOINTS", "scrub"]) {
      expect({ name, atRoot: root.has(name), inClient: client.has(name) }).toEqual({ name, atRoot: false, inClient: true });
    }
  });

  test("25.8 every entry point checked here is a package.json export with typesVersions", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8")) as {
      exports: Record<string, unknown>;
      typesVersions: Record<string, Record<string, string[]>>;
    };
    for (const entry of Object.keys(ENTRY_POINTS)) {
      const sub = entry.slice("pulumi-vastai".length);
      expect(pkg.exports).toHaveProperty(["." + sub]);
      if (sub) expect(pkg.typesVersions["*"]).toHaveProperty([sub.slice(1)]);
    }
  });

  test("25.8 every name the README imports from the package is exported by that entry point", () => {
    const readme = fs.readFileSync(path.join(__dirname, "../../README.md"), "utf8");
    const imports = [...readme.matchAll(/^import \{([^}]*)\} from "(pulumi-vastai(?:\/\w+)?)";$/gm)];
    expect(imports.length).toBeGreaterThan(0);
    const absent: string[] = [];
    for (const [, list, entry] of imports) {
      const exported = new Set((names[entry] ?? []).map((n) => n.name));
      for (const raw of list.split(",")) {
        const name = raw.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0];
        if (name && !exported.has(name)) absent.push(`${entry}: ${name}`);
      }
    }
    expect(absent).toEqual([]);
  });

  test("25.8 every public name of the root and the subpaths has a TSDoc comment", () => {
    const all = Object.values(names).flat();
    const key = (n: PublicName) => `${n.declaredIn}:${n.name}`;
    const missing = [...new Set(all.filter((n) => !n.documented && !UNDOCUMENTED.has(key(n))).map(key))];
    expect(missing).toEqual([]);
    // A name documented (or gone) leaves the debt list, which so only shrinks.
    const undocumentedNow = new Set(all.filter((n) => !n.documented).map(key));
    expect([...UNDOCUMENTED].filter((k) => !undocumentedNow.has(k))).toEqual([]);
  });
});
