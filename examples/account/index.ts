/**
 * Account: environment variables (the account's secrets store), a scoped API key for CI,
 * a rotation of a subaccount's key, and read-only lookups of templates, offers, deployment
 * versions and worker-group logs.
 *
 *   pulumi config set --secret hfToken hf_...
 *   pulumi config set subaccountUserId 10002
 *   pulumi up
 *   pulumi stack output --show-secrets ciApiKey
 */
import * as pulumi from "@pulumi/pulumi";
import {
  ApiKey,
  EnvVar,
  SubaccountKeyRotation,
  getDeploymentVersionsOutput,
  getTemplatesOutput,
  getWorkerGroupLogsOutput,
  searchOffersOutput,
} from "pulumi-vastai";

const config = new pulumi.Config();

// Account environment variables: values are secrets; the service shows only their names.
new EnvVar("hf-token", { key: "HF_TOKEN", value: config.requireSecret("hfToken") });
new EnvVar("region", { key: "default_region", value: config.get("region") ?? "eu-west" }); // stored as DEFAULT_REGION

// A key for CI that can manage instances but not billing. Change `ciKeyRotation` (for
// example to this month) and the next `pulumi up` replaces the key with a new one.
const ciKey = new ApiKey("ci", {
  name: "ci-deployer",
  permissions: { instances: "write", user: "read" },
  rotateOn: config.get("ciKeyRotation") ?? "2025-01",
});

// New key for one subaccount; bump `subaccountRotation` to rotate again.
const rotation = new SubaccountKeyRotation("build-bot", {
  subaccountUserId: config.requireNumber("subaccountUserId"),
  triggers: config.get("subaccountRotation") ?? "1",
});

/** The CI key's value: `pulumi stack output --show-secrets ciApiKey`. */
export const ciApiKey = ciKey.key;
export const ciApiKeyId = ciKey.keyId;
/** Subaccount user ids that got a new key (the keys themselves stay in the secret `regeneratedKeys`). */
export const rotatedSubaccounts = rotation.regeneratedKeys.apply((keys) => keys.map((k) => k.userId));

// Lookups: plain reads, evaluated on every run.
export const pytorchTemplates = getTemplatesOutput({ name: "PyTorch (CUDA)" }).apply((templates) =>
  templates.map((t) => ({ hashId: t.hashId, name: t.name })),
);
export const cheapestRtx4090 = searchOffersOutput({
  filters: { gpuName: "RTX 4090", gpuRamGb: { gte: 24 }, reliability: { gte: 0.98 } },
  order: [["dphTotal", "asc"]],
  limit: 3,
}).apply((offers) => offers.map((o) => ({ offerId: o.id, pricePerHour: o.dphTotal, location: o.geolocation })));

const deploymentId = config.getNumber("deploymentId");
export const deploymentVersions =
  deploymentId === undefined
    ? undefined
    : getDeploymentVersionsOutput(deploymentId).apply((versions) => versions.map((v) => v.versionLabel));

const workerGroupId = config.getNumber("workerGroupId");
export const recentWorkerLogs =
  workerGroupId === undefined ? undefined : getWorkerGroupLogsOutput({ workerGroupId, tail: 20 }).apply((l) => l.lines);
