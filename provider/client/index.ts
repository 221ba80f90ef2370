/**
 * The typed client of the GPU cloud API (Vast.ai). Knows nothing of Pulumi.
 *
 *   const client = createClient({ apiKey });
 *   const offers = await client.offers.search({ filters: { gpuName: "RTX 4090", gpuRamGb: { gte: 24 } } });
 *   const { id } = await client.instances.create(offers[0].id, { templateHashId, label: "train-1" });
 */
export { createClient, VastClient, DEFAULT_API_URL, DEFAULT_RUN_URL, DEFAULT_TIMEOUT_MS } from "./client";
export type { ClientOptions } from "./client";
export type { Logger, RequestSpec, QueryValue } from "./core";
export { ENDPOINTS, DEFAULT_INTERVALS_MS, DEFAULT_INTERVAL_MS, endpointKey } from "./endpoints";
export type { Endpoint, EndpointName, HttpMethod } from "./endpoints";
export * from "./errors";
export type { PacingOptions } from "./pacing";
export type { WriteKind, WriteListener } from "./writes";
export { DEFAULT_RETRY_POLICY } from "./retry";
export type { RetryPolicy } from "./retry";
export type { BackoffOptions } from "./backoff";
export type { Transport, Exchange, ExchangeResult } from "./transport";
export { registerSecret, registerSecrets, scrub } from "./redact";
export type * from "./types-templates";
export type * from "./types-account";
export type { Webhook, WebhookInput, WebhookWithSecret, NotificationType } from "./types-webhooks";
export { webhookUrlProblem, WEBHOOK_NAME_LIMIT, WEBHOOK_URL_LIMIT } from "./types-webhooks";
export { WebhooksApi } from "./areas/webhooks";
export type { ScheduledJobInfo, ScheduledJobInput, ScheduledJobFrequency, ScheduledJobMethod } from "./types-scheduled-jobs";
export { WEEKDAYS, frequencyProblem, isTimeZone, toUtcSlot, zoneOffsetMinutes } from "./types-scheduled-jobs";
export { ScheduledJobsApi } from "./areas/scheduled-jobs";
export type { Charge, ChargeItem, Invoice, BillingPage } from "./types-billing";
export { BillingApi, CHARGE_TYPES, MAX_CHARGES_PAGE, type ChargeType, type ChargeQuery, type InvoiceQuery, type BillingRange } from "./areas/billing";
export { API_KEY_SCOPES, SECRET_KEY_PATTERN, SECRET_VALUE_PATTERN, secretValueProblem, scopesOfPermissions, permissionsOfScopes } from "./types-account";
export { TemplatesApi } from "./areas/templates";
export { InstancesApi, LABEL_LIMIT, type InstanceListQuery } from "./areas/instances";
export { InstanceActionsApi, BID_PRICE_MIN, BID_PRICE_MAX, CREATE_BID_PRICE_MAX, type UpdateTemplateInput } from "./areas/instance-actions";
export { PROBE_TIMEOUT_MS, probeHttp, probeTcp } from "./probe";
export { DEFAULT_TEMPLATE_PRIVATE } from "./types-templates";
export { OffersApi, DEFAULT_OFFER_FILTERS, DEFAULT_OFFER_ORDER, DEFAULT_ALLOCATED_STORAGE_GB } from "./areas/offers";
export type { OfferSearch } from "./areas/offers";
export { ApiKeysApi, SecretsApi, SshKeysApi, SubaccountsApi, UsersApi } from "./areas/account";
export { MachinesApi } from "./areas/machines";
export { AutoscalerApi, BundlesApi, CopyApi, DeploymentsApi, EarningsApi, ServerlessApi } from "./areas/misc";
export { VolumesApi, VolumeInUseError, DEFAULT_VOLUME_ALLOCATED_STORAGE_GB, type VolumeOfferSearch, type VolumeListType } from "./areas/volumes";
export type * from "./types-volumes";
export { DEFAULT_VOLUME_OFFER_FILTERS, VOLUME_OFFER_FILTER_FIELDS, type VolumeOfferFilters, type VolumeOfferQuery, type VolumeOfferOrderField } from "./wire/volume-filters";
export { vendorRuntype, sshCommands, type AccessRequest, type SshCommands } from "./wire/runtype";
export type { TemplateFilters, OfferFilters, OfferQuery, OfferType, Condition, InstanceListFilters, InstanceListColumn } from "./wire/filters";
export * from "./wire";
export { EndpointGroupsApi, WorkerGroupsApi } from "./areas/serverless";
export type { EndpointSettings, ServerlessEndpoint, WorkerGroup, WorkerGroupSettings, WorkersDeleted } from "./types-serverless";
