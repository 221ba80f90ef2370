/**
 * Read-only lookups: plain async functions for any program or script, each with an
 * `...Output` variant that takes Pulumi inputs. (`acceptBundle` is the one write here; the
 * service has disabled it.)
 */
export type { LookupOptions, InputsOf } from "./common";
export { CLI_DEFAULT_OFFER_FILTERS, type TemplateFilters, type OfferFilters, type OfferQuery } from "../client/wire/filters";
export type { OfferSearch } from "../client/areas/offers";
export type { AcceptBundleInput, AutoscalerTemplates, DeploymentVersion, EarningsChart, Machine } from "../client/types-account";
export { getTemplates, getTemplatesOutput, searchOffers, searchOffersOutput, getInstances, getInstancesOutput, acceptBundle } from "./market";
export { getSecrets, getSecretsOutput, type SecretInfo } from "./account";
export { getSshKeys, getSshKeysOutput } from "./account";
export { getMachine, getMachineOutput, getEarningsChart, getEarningsChartOutput, type EarningsChartParams } from "./hosting";
export { getMachines, getMachinesOutput } from "./hosting";
export { getUser, getUserOutput, getCharges, getChargesOutput, getInvoices, getInvoicesOutput, type UserInfo, type ChargesArgs, type InvoicesArgs } from "./billing";
export type { Charge, ChargeItem, Invoice, SshKey } from "../client";
export {
  getAutoscalerTemplates,
  getAutoscalerTemplatesOutput,
  getDeploymentVersions,
  getDeploymentVersionsOutput,
  getWorkerGroupLogs,
  getWorkerGroupLogsOutput,
  type WorkerGroupLogsArgs,
  type WorkerGroupLogs,
} from "./serverless";
export {
  searchVolumeOffers,
  searchVolumeOffersOutput,
  searchNetworkVolumeOffers,
  searchNetworkVolumeOffersOutput,
  getVolumes,
  getVolumesOutput,
  type GetVolumesArgs,
} from "./volumes";
export {
  getEndpoints,
  getEndpointsOutput,
  getWorkerGroups,
  getWorkerGroupsOutput,
  type EndpointInfo,
  type EndpointsArgs,
  type EndpointsOutputArgs,
  type WorkerGroupInfo,
  type WorkerGroupsArgs,
} from "./serverless";
export { getClusters, getClustersOutput, getOverlays, getOverlaysOutput } from "./clusters";
export type { Cluster as ClusterInfo, ClusterNode, Overlay as OverlayInfo } from "../client/types-clusters";
export { getInstance, getInstanceOutput } from "./instance";
export {
  getTeamRoles,
  getTeamRolesOutput,
  getTeamMembers,
  getTeamMembersOutput,
  getSubaccounts,
  getSubaccountsOutput,
  getAuditLogs,
  getAuditLogsOutput,
  type TeamRoleInfo,
  type TeamMemberInfo,
  type SubaccountInfo,
  type AuditLogInfo,
} from "./teams";
export { getScheduledJobs, getScheduledJobsOutput, type ScheduledJobsArgs } from "./scheduled-jobs";
export type { ScheduledJobInfo } from "../client";
