/**
 * Issue 25 item 8: a deliberate public surface. The package root exports the resources, the
 * lookups, the configuration, the errors and the client factory with its options; the rest of
 * the client lives in `pulumi-vastai/client`. The root's list is pinned here, so each new public
 * name is a deliberate change of this file; every public name of every entry point carries a
 * TSDoc comment (which `npm run docs` turns into the API reference).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ENTRY_POINTS, publicNames, type PublicName } from "../support/public-api";

/** The package root's exports, sorted. Adding or removing one is a change of the public API. */
const ROOT_EXPORTS = [
  "AcceptBundleInput", "ApiErrorDetails", "ApiKey", "ApiKeyArgs", "ApiKeyPermissions", "AuditLogInfo",
  "AuthenticationError", "AutoscalerTemplates", "BackoffOptions", "BadRequestError", "CLI_DEFAULT_OFFER_FILTERS", "CallSite",
  "Charge", "ChargeItem", "ChargesArgs", "ClientOptions", "Cluster", "ClusterArgs",
  "ClusterInfo", "ClusterMember", "ClusterMemberArgs", "ClusterNode", "ConfigSources", "DEFAULT_API_URL",
  "DeleteNotConfirmedError", "DeploymentVersion", "ENV_VAR_LIMIT", "EarningsChart", "EarningsChartParams", "Endpoint",
  "EndpointArgs", "EndpointInfo", "EndpointsArgs", "EndpointsOutputArgs", "EnvVar", "EnvVarArgs",
  "Exchange", "ExchangeResult", "FilterCondition", "Fleet", "FleetArgs", "FleetMember",
  "FleetSpread", "FleetVolume", "GetVolumesArgs", "GoneError", "InputsOf", "Instance",
  "InstanceArgs", "InstanceAutostop", "InstanceOfferFilters", "InstanceOutputs", "InstanceReadiness", "InstanceSchedule", "InstanceVolume", "InvalidApiKeyError",
  "Invoice", "InvoicesArgs", "Logger", "LookupOptions", "Machine", "MachineDefaultJobArgs",
  "MachineListing", "MachineListingArgs", "MaintenanceCategory", "MaintenanceMachineResult", "MaintenanceWindow", "MaintenanceWindowArgs",
  "MaintenanceWindowStatus", "MissingApiKeyError", "NetworkVolume", "NetworkVolumeArgs", "NetworkVolumeListing", "NetworkVolumeListingArgs", "NetworkVolumeOfferFilters", "NotFoundError",
  "OfferFilters", "OfferQuery", "OfferSearch", "Overlay", "OverlayArgs", "OverlayInfo",
  "OverlayMember", "OverlayMemberArgs", "PacingOptions",
  "PagingLoopError", "PermissionDeniedError", "QueryValue", "RateLimitError", "RegeneratedKeyOutput", "RequestSpec",
  "ResolvedConfig", "ResponseLostError", "ResponseSchemaError", "ResponseTooLargeError", "RetryPolicy", "RetryableFailure",
  "RsyncCopy", "RsyncCopyArgs", "ScheduledJob", "ScheduledJobArgs", "ScheduledJobInfo", "ScheduledJobsArgs",
  "SecretInfo", "ServerError", "SshKey", "SshKeyArgs", "Subaccount", "SubaccountArgs",
  "SubaccountInfo", "SubaccountKeyRotation", "SubaccountKeyRotationArgs", "Team", "TeamArgs", "TeamMember",
  "TeamMemberArgs", "TeamMemberInfo", "TeamMemberStatus", "TeamRole", "TeamRoleArgs", "TeamRoleInfo",
  "Template", "TemplateArgs", "TemplateFilters", "Transport", "UserInfo", "VastApiError",
  "VastClient", "VastConnectionError", "VastError", "VastErrorTextError", "VastOperationError", "VastTimeoutError",
  "VastValidationError", "Volume", "VolumeArgs", "VolumeInUseError", "VolumeListing", "VolumeListingActiveError", "VolumeListingArgs", "VolumeOfferFilterInputs", "Webhook",
  "WebhookArgs", "WorkerGroup", "WorkerGroupArgs", "WorkerGroupInfo", "WorkerGroupLogs", "WorkerGroupLogsArgs",
  "WorkerGroupsArgs", "WriteKind", "WriteListener", "acceptBundle", "createClient", "getAuditLogs",
  "getAuditLogsOutput", "getAutoscalerTemplates", "getAutoscalerTemplatesOutput", "getCharges", "getChargesOutput", "getClusters",
  "getClustersOutput", "getDeploymentVersions", "getDeploymentVersionsOutput", "getEarningsChart", "getEarningsChartOutput", "getEndpoints",
  "getEndpointsOutput", "getInstance", "getInstanceOutput", "getInstances", "getInstancesOutput", "getInvoices",
  "getInvoicesOutput", "getMachine", "getMachineOutput", "getMachines", "getMachinesOutput", "getOverlays",
  "getOverlaysOutput", "getScheduledJobs", "getScheduledJobsOutput", "getSecrets", "getSecretsOutput", "getSshKeys",
  "getSshKeysOutput", "getSubaccounts", "getSubaccountsOutput", "getTeamMembers", "getTeamMembersOutput", "getTeamRoles",
  "getTeamRolesOutput", "getTemplates", "getTemplatesOutput", "getUser", "getUserOutput", "getVolumes",
  "getVolumesOutput", "getWorkerGroupLogs", "getWorkerGroupLogsOutput", "getWorkerGroups", "getWorkerGroupsOutput", "keyFilePath",
  "providers", "resolveConfig", "searchNetworkVolumeOffers", "searchNetworkVolumeOffersOutput", "searchOffers", "searchOffersOutput",
  "searchVolumeOffers", "searchVolumeOffersOutput", "setClientOptions", "setProviderSettings",
];

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
    const root = path.join(__dirname, "../..");
    const readme = ["README.md", ...fs.readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)]
      .map((f) => fs.readFileSync(path.join(root, f), "utf8"))
      .join("\n");
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
    const missing = [...new Set(Object.values(names).flat().filter((n) => !n.documented).map((n) => `${n.declaredIn}: ${n.name}`))];
    expect(missing).toEqual([]);
  });
});
