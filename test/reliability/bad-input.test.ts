import { randomBytes } from "node:crypto";
/**
 * The bad-input catalogue: every rule of the specification, and every rule of our own, gives a
 * check failure that names the property and the rule, and nothing reaches the service.
 * Rules the service applies per call (at most 100 ids a call, the raw onstart limit, no
 * numeric template id) are also held by the client, which refuses before sending.
 */
import { SEED } from "pulumi-vastai/simulator";
import { VastValidationError } from "../../provider/client";
import { getClient } from "../../provider/context";
import { getCharges, getInvoices, searchOffers } from "../../provider/lookups";
import { MARKER_ENV } from "../../provider/resources/instance/inputs";
import { driven, ed25519PublicKey, PROVIDER_TEXT, type Props } from "./support/drive";
import { profile } from "./support/profile";
import { Rig, startRig } from "./support/rig";

type Kind = Parameters<typeof driven>[0];

interface Rule {
  /** The rule, as the specification or our own documentation states it. */
  rule: string;
  kind: Kind;
  inputs: Props;
  /** The property the failure must name. */
  property: string;
  /** Words of the rule the failure must say. */
  says: RegExp;
  /** Inputs of the resource before this change (an update), when the rule depends on them. */
  olds?: Props;
}

const DAY = 24 * 3600;
const nowUnix = () => Math.floor(Date.now() / 1000);
const template = { name: "t", image: "pytorch/pytorch" };
const instance = { offerId: SEED.offerIds[0], image: "alpine" };
const fleet = { count: 2, offer: { gpuName: "RTX 4090" }, image: "alpine" };
const window = () => ({ machineIds: [SEED.hostedMachineIds[0]], startTime: nowUnix() + 7 * DAY });
/** Pseudo-random text does not compress: 6000 characters stay far above 4048 after gzip and base64. */
function incompressibleScript(length: number): string {
  let seed = 12345;
  let out = "";
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    out += String.fromCharCode(33 + (seed % 89));
  }
  return out;
}
const incompressible = incompressibleScript(6000);
const sched = { instanceId: 1, action: "reboot", frequency: "DAILY", hour: 8, end: "2099-01-01T00:00:00Z" };
const hook = { url: "https://ops.example.com/vast", eventTypes: ["client:low_credit"] };
/** 100000 mappings, half of them repeated and a tenth malformed: one short failure, not megabytes. */
const manyPorts = Array.from({ length: 100_000 }, (_, i) => (i % 10 === 0 ? `bad-${i}` : `${(i % 50_000) + 1}:${(i % 50_000) + 1}`));

const RULES: Rule[] = [
  // Template (spec: Template fields)
  { rule: "template name is required", kind: "template", inputs: { image: "x" }, property: "name", says: /must be a string/ },
  { rule: "template image is required", kind: "template", inputs: { name: "t" }, property: "image", says: /must be a string/ },
  { rule: "template name is not empty", kind: "template", inputs: { ...template, name: "" }, property: "name", says: /must not be empty/ },
  { rule: "runtype is one of ssh, jupyter, args", kind: "template", inputs: { ...template, runtype: "vnc" }, property: "runtype", says: /must be one of ssh, jupyter, args/ },
  { rule: "recommended disk space is a positive number of GB", kind: "template", inputs: { ...template, recommendedDiskSpaceGb: -8 }, property: "recommendedDiskSpaceGb", says: /positive number of GB/ },
  { rule: "filter operators are eq, neq, lt, lte, gt, gte, in, notin", kind: "template", inputs: { ...template, extraFilters: { gpu_ram: { above: 1 } } }, property: "extraFilters.gpu_ram.above", says: /operator must be one of eq, neq, lt, lte, gt, gte, in, notin/ },
  { rule: "in and notin take a list", kind: "template", inputs: { ...template, extraFilters: { gpu_name: { in: "RTX 4090" } } }, property: "extraFilters.gpu_name.in", says: /needs a list of values/ },
  { rule: "filter fields are offer fields in snake_case", kind: "template", inputs: { ...template, extraFilters: { gpuRam: { gte: 1 } } }, property: "extraFilters.gpuRam", says: /snake_case/ },
  { rule: "env names are variable names", kind: "template", inputs: { ...template, env: { "1BAD": "x" } }, property: "env.1BAD", says: /letters, digits and _/ },
  { rule: "ports are HOST:CONTAINER mappings", kind: "template", inputs: { ...template, ports: ["80-90"] }, property: "ports.0", says: /port mapping HOST:CONTAINER/ },
  { rule: "template properties are known ones", kind: "template", inputs: { ...template, dockerPassword: "x" }, property: "dockerPassword", says: /is not a Template property; did you mean / },
  { rule: "template image is an image reference", kind: "template", inputs: { ...template, image: "Not A Valid/Image Name!!" }, property: "image", says: /image reference \[registry\[:port\]\/\]path\[:tag\]\[@digest\]/ },
  { rule: "template tag is a registry tag", kind: "template", inputs: { ...template, tag: "x y" }, property: "tag", says: /must be a tag of letters, digits/ },
  { rule: "env names are not __proto__", kind: "template", inputs: { ...template, env: JSON.parse('{"__proto__": "x"}') as Props }, property: "env.__proto__", says: /is not allowed as a name/ },
  { rule: "recommended disk space has a finite maximum", kind: "template", inputs: { ...template, recommendedDiskSpaceGb: 1e308 }, property: "recommendedDiskSpaceGb", says: /at most 100000 GB/ },
  // Instance creation (spec: Instance-creation request body, Limits)
  { rule: "onstart at most 4048 bytes, after compression", kind: "instance", inputs: { ...instance, onstart: incompressible }, property: "onstart", says: /at most 4048 bytes/ },
  { rule: "instance offer.gpuName is not a misspelt known GPU", kind: "instance", inputs: { ...instance, offer: { gpuName: "RTX4090" } }, property: "offer.gpuName", says: /"RTX4090" is not a GPU name the market lists; did you mean RTX 4090\?/ },
  { rule: "instance properties are known ones", kind: "instance", inputs: { ...instance, lable: "x" }, property: "lable", says: /is not an Instance property; did you mean label\?/ },
  { rule: "instance image is an image reference", kind: "instance", inputs: { ...instance, image: "alpine:x y" }, property: "image", says: /image reference/ },
  { rule: "env names are not constructor", kind: "instance", inputs: { ...instance, env: { constructor: "x" } }, property: "env.constructor", says: /is not allowed as a name/ },
  { rule: "running timeout at most a day", kind: "instance", inputs: { ...instance, runningTimeoutMinutes: 1e308 }, property: "runningTimeoutMinutes", says: /at most 1440/ },
  { rule: "disk has a finite maximum", kind: "instance", inputs: { ...instance, diskGb: 1e308 }, property: "diskGb", says: /at most 100000/ },
  { rule: "label counted in bytes", kind: "instance", inputs: { ...instance, label: "\u{1F600}".repeat(600) }, property: "label", says: /at most 1024 bytes of UTF-8/ },
  { rule: "template_hash_id, never template_id", kind: "instance", inputs: { ...instance, templateId: 101 }, property: "templateId", says: /pass templateHashId/ },
  { rule: "offerId and offer are mutually exclusive", kind: "instance", inputs: { ...instance, offer: { gpuName: "RTX 4090" } }, property: "offer", says: /either offerId or offer filters, not both/ },
  { rule: "one of offerId and offer is required", kind: "instance", inputs: { image: "alpine" }, property: "offerId", says: /give offerId .* or offer filters/ },
  { rule: "image is required without a template", kind: "instance", inputs: { offerId: SEED.offerIds[0] }, property: "image", says: /required when no templateHashId/ },
  { rule: "a VM needs SSH keys at creation", kind: "instance", inputs: { ...instance, vm: true }, property: "vm", says: /needs sshKeyIds/ },
  { rule: "label at most 1024 bytes", kind: "instance", inputs: { ...instance, label: "x".repeat(1025) }, property: "label", says: /at most 1024 bytes/ },
  { rule: "instance runtype is one of ssh, jupyter, args", kind: "instance", inputs: { ...instance, runtype: "vnc" }, property: "runtype", says: /must be one of ssh, jupyter, args/ },
  { rule: "targetState is running or stopped", kind: "instance", inputs: { ...instance, targetState: "paused" }, property: "targetState", says: /must be one of running, stopped/ },
  { rule: "volume size only with createNew", kind: "instance", inputs: { ...instance, volume: { createNew: false, volumeId: 1, size: 10, mountPath: "/data" } }, property: "volume.size", says: /only used when createNew is true/ },
  { rule: "a new volume needs a size", kind: "instance", inputs: { ...instance, volume: { createNew: true, volumeId: 1, mountPath: "/data" } }, property: "volume.size", says: /required \(GB\) when createNew is true/ },
  { rule: "volume mount path is absolute", kind: "instance", inputs: { ...instance, volume: { createNew: true, volumeId: 1, size: 5, mountPath: "data" } }, property: "volume.mountPath", says: /absolute path/ },
  { rule: "the marker variable is reserved", kind: "instance", inputs: { ...instance, env: { [MARKER_ENV]: "x" } }, property: `env.${MARKER_ENV}`, says: /is reserved/ },
  { rule: "GPU memory filter is a positive number of GB", kind: "instance", inputs: { image: "alpine", offer: { gpuRamGb: 0 } }, property: "offer.gpuRamGb", says: /greater than 0/ },
  { rule: "reliability filter is between 0 and 1", kind: "instance", inputs: { image: "alpine", offer: { minReliability: 2 } }, property: "offer.minReliability", says: /between 0 and 1/ },
  // 33.7: the rest of the vendor's offer vocabulary, with its encodings
  { rule: "33.7 driver version is three parts of 1 to 3 digits (the vendor's client encodes it as a number)", kind: "instance", inputs: { image: "alpine", offer: { driverVersion: { gte: "535.86" } } }, property: "offer.driverVersion", says: /^offer\.driverVersion: must be a driver version of three parts of 1 to 3 digits, such as "535\.86\.05", got "535\.86"/ },
  { rule: "33.7 cluster id is a positive whole number", kind: "instance", inputs: { image: "alpine", offer: { clusterId: 4.5 } }, property: "offer.clusterId", says: /must be a whole number \(cluster id\), got 4\.5/ },
  { rule: "33.7 durationDays is not negative", kind: "instance", inputs: { image: "alpine", offer: { durationDays: { gte: -1 } } }, property: "offer.durationDays", says: /must be at least 0 \(days\), got -1/ },
  { rule: "33.7 pciGen is a PCIe generation", kind: "instance", inputs: { image: "alpine", offer: { pciGen: { gte: 40 } } }, property: "offer.pciGen", says: /must be at most 10 \(PCIe generation\), got 40/ },
  { rule: "33.7 hasAvx is true or false", kind: "instance", inputs: { image: "alpine", offer: { hasAvx: 1 } }, property: "offer.hasAvx", says: /must be true or false, got 1/ },
  { rule: "33.7 gpuFrac is 0..1", kind: "instance", inputs: { image: "alpine", offer: { gpuFrac: { gte: 2 } } }, property: "offer.gpuFrac", says: /must be at most 1 \(0\.\.1\), got 2/ },
  { rule: "33.7 verification is one the service knows", kind: "instance", inputs: { image: "alpine", offer: { verification: "trusted" } }, property: "offer.verification", says: /must be one of verified, unverified, deverified, got "trusted"/ },
  { rule: "33.7 gpuMaxPower is watts, not negative", kind: "instance", inputs: { image: "alpine", offer: { gpuMaxPower: { lte: -5 } } }, property: "offer.gpuMaxPower", says: /must be at least 0 \(W\), got -5/ },
  { rule: "33.7 ubuntuVersion is a non-empty string", kind: "instance", inputs: { image: "alpine", offer: { ubuntuVersion: 22.04 } }, property: "offer.ubuntuVersion", says: /must be a non-empty string, got 22\.04/ },
  { rule: "33.7 fleet driver version as Instance's", kind: "fleet", inputs: { ...fleet, offer: { driverVersion: "latest" } }, property: "offer.driverVersion", says: /must be a driver version .*got "latest"/ },
  { rule: "create attempts at most 10", kind: "instance", inputs: { ...instance, maxCreateAttempts: 11 }, property: "maxCreateAttempts", says: /at most 10/ },
  // Interruptible rentals, triggers, prepayment (vendor document: create `price`, change bid, prepay)
  { rule: "bid price at least 0.001 $/hour", kind: "instance", inputs: { ...instance, bidPricePerHour: 0 }, property: "bidPricePerHour", says: /at least 0.001/ },
  { rule: "bid price at most 128 $/hour at creation (the create endpoint's maximum)", kind: "instance", inputs: { ...instance, bidPricePerHour: 140 }, property: "bidPricePerHour", says: /at most 128 .*changes in place are limited to 32/ },
  { rule: "imageLogin is -u USER -p PASSWORD REGISTRY (value never shown)", kind: "instance", inputs: { ...instance, imageLogin: "me:hunter2-secret@ghcr.io" }, property: "imageLogin", says: /^imageLogin: must be "-u USER -p PASSWORD REGISTRY", for example "-u me -p TOKEN ghcr.io"$/ },
  { rule: "importId is digits only", kind: "instance", inputs: { ...instance, importId: "C.123" }, property: "importId", says: /must be digits only .*"C\.123"/ },
  { rule: "importId is a string", kind: "instance", inputs: { ...instance, importId: 123 }, property: "importId", says: /must be a string: the service's id of an existing instance/ },
  { rule: "updatePolicy is in-place or replace", kind: "instance", inputs: { ...instance, updatePolicy: "rebuild" }, property: "updatePolicy", says: /must be one of "in-place", "replace"/ },
  { rule: "onOutbid is replace, rebid or keep", kind: "instance", inputs: { ...instance, bidPricePerHour: 0.3, onOutbid: "wait" }, property: "onOutbid", says: /must be one of replace, rebid, keep/ },
  { rule: "onOutbid only with a bid", kind: "instance", inputs: { ...instance, onOutbid: "keep" }, property: "onOutbid", says: /only applies to an interruptible instance/ },
  { rule: "maxBidPricePerHour only with a bid", kind: "instance", inputs: { ...instance, maxBidPricePerHour: 1 }, property: "maxBidPricePerHour", says: /only applies to an interruptible instance/ },
  { rule: "rebid needs maxBidPricePerHour", kind: "instance", inputs: { ...instance, bidPricePerHour: 0.3, onOutbid: "rebid" }, property: "maxBidPricePerHour", says: /is required with onOutbid "rebid"/ },
  { rule: "maxBidPricePerHour at least the bid", kind: "instance", inputs: { ...instance, bidPricePerHour: 0.3, maxBidPricePerHour: 0.2 }, property: "maxBidPricePerHour", says: /must be at least bidPricePerHour \(0.3\)/ },
  { rule: "cancelUnavailable is true or false", kind: "instance", inputs: { ...instance, cancelUnavailable: "yes" }, property: "cancelUnavailable", says: /must be true or false/ },
  { rule: "prepay amount is positive dollars", kind: "instance", inputs: { ...instance, prepayAmount: -5 }, property: "prepayAmount", says: /greater than 0 \(dollars\)/ },
  { rule: "readiness needs a TCP port to probe", kind: "instance", inputs: { ...instance, readiness: { timeoutMinutes: 5 } }, property: "readiness.tcpPort", says: /required when ports has no TCP mapping/ },
  { rule: "readiness port is 1 to 65535", kind: "instance", inputs: { ...instance, readiness: { tcpPort: 0, timeoutMinutes: 5 } }, property: "readiness.tcpPort", says: /must be 1 to 65535/ },
  { rule: "readiness path starts with /", kind: "instance", inputs: { ...instance, ports: ["8000:8000"], readiness: { httpPath: "health", timeoutMinutes: 5 } }, property: "readiness.httpPath", says: /must start with \// },
  { rule: "readiness timeout at most a day", kind: "instance", inputs: { ...instance, ports: ["8000:8000"], readiness: { timeoutMinutes: 1e308 } }, property: "readiness.timeoutMinutes", says: /at most 1440/ },
  { rule: "prepay amount has a finite maximum", kind: "instance", inputs: { ...instance, prepayAmount: 1e308 }, property: "prepayAmount", says: /at most 100000/ },
  // Batch maintenance (spec: Host machines, Limits)
  { rule: "27.4 listing price_gpu not negative", kind: "machineListing", inputs: { machineId: 50001, pricePerGpu: -0.1 }, property: "pricePerGpu", says: /must not be negative \(\$\/GPU\/hour\)/ },
  { rule: "27.4 listing price_gpu given", kind: "machineListing", inputs: { machineId: 50001 }, property: "pricePerGpu", says: /pricePerGpu/ },
  { rule: "27.4 listing min_chunk at least 1", kind: "machineListing", inputs: { machineId: 50001, pricePerGpu: 0.4, minGpus: 0 }, property: "minGpus", says: /at least 1/ },
  { rule: "27.4 listing credit_discount_max a fraction", kind: "machineListing", inputs: { machineId: 50001, pricePerGpu: 0.4, discountRate: 40 }, property: "discountRate", says: /from 0 to 1/ },
  { rule: "27.4 listing end_date in the future", kind: "machineListing", inputs: { machineId: 50001, pricePerGpu: 0.4, endDate: nowUnix() - 60 }, property: "endDate", says: /must be in the future/ },
  { rule: "33.7 listing vol_price only with a volume offer", kind: "machineListing", inputs: { machineId: 50001, pricePerGpu: 0.4, volumePricePerGbMonth: 0.05 }, property: "volumePricePerGbMonth", says: /needs volumeSizeGb above 0.*got volumeSizeGb null/ },
  { rule: "33.7 listing vol_size a whole number of GB", kind: "machineListing", inputs: { machineId: 50001, pricePerGpu: 0.4, volumeSizeGb: -5 }, property: "volumeSizeGb", says: /must not be negative/ },
  { rule: "33.7 listing duration not with end_date", kind: "machineListing", inputs: { machineId: 50001, pricePerGpu: 0.4, duration: "3 months", endDate: nowUnix() + 86_400 }, property: "duration", says: /cannot be combined with endDate/ },
  { rule: "33.7 listing duration form", kind: "machineListing", inputs: { machineId: 50001, pricePerGpu: 0.4, duration: "soon" }, property: "duration", says: /n days/ },
  { rule: "27.4 listing default job has an image", kind: "machineListing", inputs: { machineId: 50001, pricePerGpu: 0.4, defaultJob: { image: " ", pricePerGpu: 0.1 } }, property: "defaultJob.image", says: /Docker image name/ },
  { rule: "27.4 listing properties are known ones", kind: "machineListing", inputs: { machineId: 50001, pricePerGpu: 0.4, minBidPerGPU: 0.2 }, property: "minBidPerGPU", says: /is not a MachineListing property; did you mean minBidPerGpu\?/ },
  { rule: "27.4 volume listing machine id whole", kind: "volumeListing", inputs: { machineId: 50001.5, sizeGb: 100, pricePerGbMonth: 0.1 }, property: "machineId", says: /machineId: must be a whole number/ },
  { rule: "27.4 volume listing size given", kind: "volumeListing", inputs: { machineId: 50001, pricePerGbMonth: 0.1 }, property: "sizeGb", says: /sizeGb/ },
  { rule: "27.4 volume listing size in GB, not bytes", kind: "volumeListing", inputs: { machineId: 50001, sizeGb: 500_000_000_000, pricePerGbMonth: 0.1 }, property: "sizeGb", says: /at most 1000000 \(GB\)/ },
  { rule: "27.4 volume listing price not negative", kind: "volumeListing", inputs: { machineId: 50001, sizeGb: 100, pricePerGbMonth: -0.1 }, property: "pricePerGbMonth", says: /must not be negative \(\$\/GB\/month\)/ },
  { rule: "27.4 volume listing end date in the future", kind: "volumeListing", inputs: { machineId: 50001, sizeGb: 100, pricePerGbMonth: 0.1, endDate: nowUnix() - 60 }, property: "endDate", says: /must be in the future/ },
  { rule: "27.4 volume listing properties are known ones", kind: "volumeListing", inputs: { machineId: 50001, sizeGb: 100, pricePerGBMonth: 0.1 }, property: "pricePerGBMonth", says: /is not a VolumeListing property; did you mean pricePerGbMonth\?/ },
  { rule: "27.4 network volume listing disk id given", kind: "networkVolumeListing", inputs: { sizeGb: 100, pricePerGbMonth: 0.1 }, property: "diskId", says: /diskId/ },
  { rule: "27.4 network volume listing size at least 1 GB", kind: "networkVolumeListing", inputs: { diskId: 8101, sizeGb: 0, pricePerGbMonth: 0.1 }, property: "sizeGb", says: /must be at least 1 \(GB\)/ },
  { rule: "27.4 network volume listing price in dollars", kind: "networkVolumeListing", inputs: { diskId: 8101, sizeGb: 100, pricePerGbMonth: 15 * 100 }, property: "pricePerGbMonth", says: /at most 100 \(\$\/GB\/month\)/ },
  { rule: "27.4 network volume listing end date a date", kind: "networkVolumeListing", inputs: { diskId: 8101, sizeGb: 100, pricePerGbMonth: 0.1, endDate: "next month" }, property: "endDate", says: /ISO 8601 date-time with a time zone/ },
  { rule: "machine_ids has at least 1 entry", kind: "maintenanceWindow", inputs: { ...window(), machineIds: [] }, property: "machineIds", says: /at least one machine id/ },
  { rule: "machine ids are positive whole numbers", kind: "maintenanceWindow", inputs: { ...window(), machineIds: [1.5] }, property: "machineIds.0", says: /whole number/ },
  { rule: "sdate in the future", kind: "maintenanceWindow", inputs: { ...window(), startTime: nowUnix() - 60 }, property: "startTime", says: /must be in the future/ },
  { rule: "sdate within 1 year", kind: "maintenanceWindow", inputs: { ...window(), startTime: nowUnix() + 400 * DAY }, property: "startTime", says: /within one year/ },
  { rule: "sdate in seconds, not milliseconds", kind: "maintenanceWindow", inputs: { ...window(), startTime: Date.now() + 7 * DAY * 1000 }, property: "startTime", says: /Unix seconds, not milliseconds/ },
  { rule: "sdate with a time zone", kind: "maintenanceWindow", inputs: { ...window(), startTime: "2031-01-01T00:00:00" }, property: "startTime", says: /with a time zone/ },
  { rule: "duration at least 1 hour", kind: "maintenanceWindow", inputs: { ...window(), durationHours: 0.5 }, property: "durationHours", says: /at least 1/ },
  { rule: "duration at most 30 days", kind: "maintenanceWindow", inputs: { ...window(), durationHours: 1e308 }, property: "durationHours", says: /at most 720/ },
  { rule: "window properties are known ones", kind: "maintenanceWindow", inputs: { ...window(), duration: 3 }, property: "duration", says: /is not a MaintenanceWindow property; did you mean durationHours\?/ },
  { rule: "maintenance_category is one of power, internet, disk, gpu, software, other", kind: "maintenanceWindow", inputs: { ...window(), category: "network" }, property: "category", says: /must be one of power, internet, disk, gpu, software, other/ },
  // Subaccount keys (spec: PUT /api/v0/subaccounts/regenerate_keys)
  { rule: "subaccount_user_id and regenerate_all are mutually exclusive", kind: "subaccountKeyRotation", inputs: { subaccountUserId: 10002, all: true }, property: "subaccountUserId", says: /exactly one of subaccountUserId or all: true \(both were given\)/ },
  { rule: "one of subaccount_user_id and regenerate_all is required", kind: "subaccountKeyRotation", inputs: {}, property: "subaccountUserId", says: /exactly one of subaccountUserId or all: true \(neither was given\)/ },
  { rule: "rotation properties are known ones", kind: "subaccountKeyRotation", inputs: { all: true, trigers: 1 }, property: "trigers", says: /is not a SubaccountKeyRotation property; did you mean triggers\?/ },
  { rule: "subaccount_user_id is an integer", kind: "subaccountKeyRotation", inputs: { subaccountUserId: 10002.5 }, property: "subaccountUserId", says: /must be an integer/ },
  // API keys, account variables, SSH keys, copy
  { rule: "API key name is required", kind: "apiKey", inputs: { permissions: { instances: "write" } }, property: "name", says: /must be a string/ },
  { rule: "API key properties are known ones", kind: "apiKey", inputs: { name: "ci", permisions: { user: "read" } }, property: "permisions", says: /is not an ApiKey property; did you mean permissions\?/ },
  { rule: "permission levels are read or write", kind: "apiKey", inputs: { name: "ci", permissions: { billing: "no" } }, property: "permissions.billing", says: /must be "read" or "write"/ },
  { rule: "variable names are letters, digits and _", kind: "envVar", inputs: { key: "HF-TOKEN", value: "v" }, property: "key", says: /letters, digits and _/ },
  { rule: "variable properties are known ones", kind: "envVar", inputs: { key: "A", value: "v", secret: true }, property: "secret", says: /is not an EnvVar property; did you mean / },
  { rule: "variable value is required", kind: "envVar", inputs: { key: "HF_TOKEN" }, property: "value", says: /must be a string/ },
  { rule: "SSH key is a public key line of a known type", kind: "sshKey", inputs: { publicKey: "ssh-foo AAAA" }, property: "publicKey", says: /must start with a key type among/ },
  { rule: "SSH key is not a private key", kind: "sshKey", inputs: { publicKey: "-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----" }, property: "publicKey", says: /not a private key/ },
  { rule: "SSH key body matches its type", kind: "sshKey", inputs: { publicKey: ed25519PublicKey("x").replace("ssh-ed25519", "ssh-rsa") }, property: "publicKey", says: /holds a ssh-ed25519 key, not ssh-rsa/ },
  { rule: "copy needs at least one instance id", kind: "rsyncCopy", inputs: { srcPath: "/a/", dstPath: "/b/" }, property: "srcId", says: /at least one instance id/ },
  { rule: "copy properties are known ones", kind: "rsyncCopy", inputs: { srcId: 1, srcPath: "/a/", dstPath: "/b/", dstID: 2 }, property: "dstID", says: /is not a RsyncCopy property; did you mean dstId\?/ },
  { rule: "SSH key properties are known ones", kind: "sshKey", inputs: { publicKey: ed25519PublicKey("x"), comment: "c" }, property: "comment", says: /is not an SshKey property; did you mean publicKey\?/ },
  { rule: "copy paths are not empty", kind: "rsyncCopy", inputs: { srcId: 1, srcPath: " ", dstPath: "/b/" }, property: "srcPath", says: /must not be empty/ },
  { rule: "endpoint name is letters, digits, '.', '_', '-'", kind: "endpoint", inputs: { name: "my endpoint" }, property: "name", says: /must be letters, digits.*"my endpoint"/ },
  { rule: "endpoint target utilisation is a fraction", kind: "endpoint", inputs: { name: "e", targetUtil: 90 }, property: "targetUtil", says: /at most 1 \(a fraction\).*90/ },
  { rule: "endpoint worker counts are whole numbers", kind: "endpoint", inputs: { name: "e", maxWorkers: 2.5 }, property: "maxWorkers", says: /must be a whole number.*2\.5/ },
  { rule: "endpoint properties are known ones", kind: "endpoint", inputs: { name: "e", maxWorker: 3 }, property: "maxWorker", says: /is not an Endpoint property; did you mean maxWorkers\?/ },
  { rule: "worker group needs a template or a search", kind: "workerGroup", inputs: { endpointId: 1 }, property: "templateHash", says: /give templateHash, searchParams or both/ },
  { rule: "worker group endpoint is an Endpoint id", kind: "workerGroup", inputs: { endpointId: "llm", searchParams: "x" }, property: "endpointId", says: /must be the Endpoint's id/ },
  { rule: "worker group test workers are at most 10", kind: "workerGroup", inputs: { endpointId: 1, searchParams: "x", testWorkers: 50 }, property: "testWorkers", says: /must be at most 10.*50/ },
  { rule: "worker group properties are known ones", kind: "workerGroup", inputs: { endpointId: 1, searchParam: "x" }, property: "searchParam", says: /is not a WorkerGroup property; did you mean searchParams\?/ },
  { rule: "copy instance ids are positive integers", kind: "rsyncCopy", inputs: { srcId: "abc", srcPath: "/a/", dstPath: "/b/" }, property: "srcId", says: /must be an instance id/ },
  // Volumes (vendor document: rent volume; the vendor's client: create volume)
  { rule: "one of a volume offer id and offer filters is required", kind: "volume", inputs: { sizeGb: 10 }, property: "offerId", says: /give offerId \(a volume offer, from searchVolumeOffers\) or offer filters/ },
  { rule: "volume offerId and offer are mutually exclusive", kind: "volume", inputs: { offerId: 900001, offer: { location: "US" } }, property: "offer", says: /either offerId or offer filters, not both/ },
  { rule: "volume size is a whole number of GB", kind: "volume", inputs: { offerId: 900001, sizeGb: 10.5 }, property: "sizeGb", says: /must be a whole number/ },
  { rule: "volume size has a finite maximum", kind: "volume", inputs: { offerId: 900001, sizeGb: 1e12 }, property: "sizeGb", says: /at most 1000000 \(GB\)/ },
  { rule: "volume name leaves room for the marker", kind: "volume", inputs: { offerId: 900001, name: "v".repeat(201) }, property: "name", says: /at most 200 characters/ },
  { rule: "volume price filter is positive", kind: "volume", inputs: { offer: { maxPricePerGbMonth: 0 } }, property: "offer.maxPricePerGbMonth", says: /greater than 0 \(\$ per GB per month, maximum\)/ },
  { rule: "volume properties are known ones", kind: "volume", inputs: { offerId: 900001, size: 10 }, property: "size", says: /is not a Volume property; did you mean sizeGb\?/ },
  { rule: "a volume offer id is a whole number", kind: "volume", inputs: { offerId: 9.5 }, property: "offerId", says: /must be a whole number/ },
  { rule: "network volumes are chosen by cluster, not machine", kind: "networkVolume", inputs: { offer: { machineId: 30001 } }, property: "offer.machineId", says: /machineId is not a property of offer; it takes .*clusterId/ },
  { rule: "network volume reliability filter is between 0 and 1", kind: "networkVolume", inputs: { offer: { minReliability: -1 } }, property: "offer.minReliability", says: /between 0 and 1/ },
  { rule: "network volume properties are known ones", kind: "networkVolume", inputs: { offerId: 950001, nmae: "x" }, property: "nmae", says: /is not a NetworkVolume property; did you mean name\?/ },
  { rule: "a linked volume id is a whole number or a Volume's id", kind: "instance", inputs: { ...instance, volume: { createNew: false, volumeId: "vol-1", mountPath: "/data" } }, property: "volume.volumeId", says: /must be a volume id \(a whole number, or a Volume's id\)/ },
  // Notification webhooks (vendor document: NotificationWebhookCreateRequest)
  { rule: "webhook_url is required", kind: "webhook", inputs: { eventTypes: hook.eventTypes }, property: "url", says: /must be a string/ },
  { rule: "webhook url is http or https", kind: "webhook", inputs: { ...hook, url: "ftp://files.example.com/" }, property: "url", says: /must use http or https/ },
  { rule: "webhook url is absolute", kind: "webhook", inputs: { ...hook, url: "example.com/hook" }, property: "url", says: /must be an absolute http:\/\/ or https:\/\/ URL/ },
  { rule: "webhook url at most 2048 characters", kind: "webhook", inputs: { ...hook, url: `https://example.com/${"x".repeat(2100)}` }, property: "url", says: /at most 2048 characters/ },
  { rule: "webhook url carries no credentials", kind: "webhook", inputs: { ...hook, url: "https://bob:pw@example.com/" }, property: "url", says: /must not carry a user name or password/ },
  { rule: "event_types has at least 1 entry", kind: "webhook", inputs: { ...hook, eventTypes: [] }, property: "eventTypes", says: /at least one notification type/ },
  { rule: "event types are <context>:<slug> keys", kind: "webhook", inputs: { ...hook, eventTypes: ["low_credit"] }, property: "eventTypes.0", says: /<context>:<slug>/ },
  { rule: "event types are not repeated", kind: "webhook", inputs: { ...hook, eventTypes: ["client:outbid", "client:outbid"] }, property: "eventTypes", says: /appears twice/ },
  { rule: "webhook name at most 120 characters with the marker", kind: "webhook", inputs: { ...hook, name: "x".repeat(102) }, property: "name", says: /at most 101 characters/ },
  { rule: "webhook properties are known ones", kind: "webhook", inputs: { ...hook, rotateSecret: 1 }, property: "rotateSecret", says: /is not a Webhook property; did you mean rotateSecretTrigger\?/ },

  // importId (docs/_index.md: Importing existing objects): the id's form per kind; refused by the action kinds
  { rule: "template importId is a numeric template id", kind: "template", inputs: { ...template, importId: "abc" }, property: "importId", says: /numeric id .*\(got "abc"\)/ },
  { rule: "ssh key importId is a numeric key id", kind: "sshKey", inputs: { publicKey: ed25519PublicKey("k"), importId: "0" }, property: "importId", says: /numeric id/ },
  { rule: "env var importId is a variable name", kind: "envVar", inputs: { key: "A", value: "v", importId: "1BAD" }, property: "importId", says: /variable's name.*\(got "1BAD"\)/ },
  { rule: "api key importId is a string id", kind: "apiKey", inputs: { name: "ci", importId: 12 }, property: "importId", says: /numeric id.*\(got 12\)/ },
  { rule: "volume importId is a numeric volume id", kind: "volume", inputs: { importId: "vol-1" }, property: "importId", says: /volume's numeric id/ },
  { rule: "network volume importId is a numeric volume id", kind: "networkVolume", inputs: { importId: "" }, property: "importId", says: /network volume's numeric id/ },
  { rule: "endpoint importId is a numeric endpoint id", kind: "endpoint", inputs: { importId: "llm" }, property: "importId", says: /endpoint's numeric id/ },
  { rule: "worker group importId is a numeric group id", kind: "workerGroup", inputs: { importId: "1.5" }, property: "importId", says: /worker group's numeric id/ },
  { rule: "webhook importId is a numeric webhook id", kind: "webhook", inputs: { importId: "-3" }, property: "importId", says: /webhook's numeric id/ },
  { rule: "maintenance window importId is a MaintenanceWindow id", kind: "maintenanceWindow", inputs: { ...window(), importId: "42" }, property: "importId", says: /mw-<start unix seconds>-<12 hex digits>/ },
  { rule: "an rsync copy cannot be imported", kind: "rsyncCopy", inputs: { srcId: 1, dstId: 2, srcPath: "/a", dstPath: "/b", importId: "1" }, property: "importId", says: /RsyncCopy cannot be imported: .*an action/ },
  { rule: "a key rotation cannot be imported", kind: "subaccountKeyRotation", inputs: { all: true, importId: "1" }, property: "importId", says: /SubaccountKeyRotation cannot be imported: .*an action/ },
  // Issue 27: the account's teams, clusters, overlays and scheduled jobs
  { rule: "27.1 team role importId is a numeric role id", kind: "teamRole", inputs: { name: "dev", permissions: { user: "read" }, importId: "dev" }, property: "importId", says: /team role's numeric id.*\(got "dev"\)/ },
  { rule: "27.1 team member importId is an e-mail address", kind: "teamMember", inputs: { email: "ana@example.com", role: "member", importId: "42" }, property: "importId", says: /member's e-mail address.*\(got "42"\)/ },
  { rule: "27.1 subaccount importId is a numeric user id", kind: "subaccount", inputs: { email: "bot@example.com", username: "bot", password: "long-enough", importId: "bot" }, property: "importId", says: /subaccount's numeric id.*\(got "bot"\)/ },
  { rule: "27.1 a team cannot be imported (the service cannot read one back)", kind: "team", inputs: { name: "ml", importId: "ml" }, property: "importId", says: /Team cannot be imported: the service has no call that reads a team/ },
  { rule: "27.2 cluster importId is a numeric cluster id", kind: "cluster", inputs: { subnet: "10.0.0.0/24", managerMachineId: 50001, importId: "c1" }, property: "importId", says: /cluster's numeric id/ },
  { rule: "27.2 cluster member importId is <clusterId>/<machineId>", kind: "clusterMember", inputs: { clusterId: 1, machineId: 50001, importId: "50001" }, property: "importId", says: /must be "<clusterId>\/<machineId>".*\(got "50001"\)/ },
  { rule: "27.2 overlay importId is a numeric overlay id", kind: "overlay", inputs: { clusterId: 1, name: "net", importId: "net" }, property: "importId", says: /overlay's numeric id/ },
  { rule: "27.2 overlay member importId is <overlayId>/<instanceId>", kind: "overlayMember", inputs: { overlayName: "net", instanceId: 8000001, importId: "net/8000001" }, property: "importId", says: /must be "<overlayId>\/<instanceId>"/ },
  { rule: "27.3 scheduled job importId is a numeric job id", kind: "scheduledJob", inputs: { ...sched, importId: "0" }, property: "importId", says: /scheduled job's numeric id/ },
  { rule: "a misspelt importId is suggested", kind: "sshKey", inputs: { publicKey: ed25519PublicKey("k"), importID: "1" }, property: "importID", says: /is not an SshKey property; did you mean importId\?/ },
  // Fleet (our own rules; offer filters and the container's inputs are Instance's)
  { rule: "fleet count is a whole number", kind: "fleet", inputs: { ...fleet, count: 2.5 }, property: "count", says: /must be a whole number/ },
  { rule: "fleet count at most 500", kind: "fleet", inputs: { ...fleet, count: 501 }, property: "count", says: /must be at most 500/ },
  { rule: "fleet offer filters are Instance's", kind: "fleet", inputs: { ...fleet, offer: { gpuRamGb: -1 } }, property: "offer.gpuRamGb", says: /must be greater than 0/ },
  { rule: "fleet needs an image or templateHashId", kind: "fleet", inputs: { count: 1, offer: {} }, property: "image", says: /is required when no templateHashId is given/ },
  { rule: "fleet minHealthy at most count", kind: "fleet", inputs: { ...fleet, minHealthy: 3 }, property: "minHealthy", says: /must be at most count \(2\), got 3/ },
  { rule: "fleet spread is by machine or country", kind: "fleet", inputs: { ...fleet, spread: { by: "rack", max: 1 } }, property: "spread.by", says: /must be one of machine, country/ },
  { rule: "fleet spread max at least 1", kind: "fleet", inputs: { ...fleet, spread: { by: "machine", max: 0 } }, property: "spread.max", says: /must be at least 1/ },
  { rule: "fleet maxPricePerHour positive", kind: "fleet", inputs: { ...fleet, maxPricePerHour: -1 }, property: "maxPricePerHour", says: /must be greater than 0 \(\$\/hour per member/ },
  { rule: "fleet maxHourlyCost positive", kind: "fleet", inputs: { ...fleet, maxHourlyCost: 0 }, property: "maxHourlyCost", says: /must be greater than 0 \(\$\/hour for the whole fleet/ },
  { rule: "fleet badHostMinutes at most 30 days", kind: "fleet", inputs: { ...fleet, badHostMinutes: 50_000 }, property: "badHostMinutes", says: /must be at most 43200/ },
  { rule: "fleet env does not set the marker", kind: "fleet", inputs: { ...fleet, env: { [MARKER_ENV]: "x" } }, property: "env.PULUMI_VASTAI_MARKER", says: /is reserved/ },
  { rule: "fleet readiness needs a TCP port, as Instance's", kind: "fleet", inputs: { ...fleet, readiness: { timeoutMinutes: 1 } }, property: "readiness.tcpPort", says: /is required when ports has no TCP mapping to probe/ },
  { rule: "fleet volume is never one existing volume for N members", kind: "fleet", inputs: { ...fleet, volume: { createNew: false, volumeId: 20000001, mountPath: "/data" } }, property: "volume.volumeId", says: /a fleet cannot link one existing volume to N members; use createNew: true.*\(got 20000001\)$/ },
  { rule: "fleet volume is a new one per member", kind: "fleet", inputs: { ...fleet, volume: { createNew: false, mountPath: "/data" } }, property: "volume.createNew", says: /must be true: a fleet makes one new volume per member.*\(got false\)$/ },
  { rule: "fleet volume comes from each member's machine, not one volume offer", kind: "fleet", inputs: { ...fleet, volume: { createNew: true, volumeId: 900001, size: 20, mountPath: "/data" } }, property: "volume.volumeId", says: /volume offer on that member's machine; leave volumeId out \(got 900001\)$/ },
  { rule: "fleet volume size by Instance's rule", kind: "fleet", inputs: { ...fleet, volume: { createNew: true, mountPath: "/data" } }, property: "volume.size", says: /is required \(GB\) when createNew is true/ },
  { rule: "fleet properties are known ones", kind: "fleet", inputs: { ...fleet, minHealty: 1 }, property: "minHealty", says: /is not a Fleet property; did you mean minHealthy\?/ },
  // Issue 23 item 11: the readiness path goes into an HTTP request line (Instance and Fleet share the rule)
  { rule: "23.11 readiness.httpPath has no CR/LF", kind: "instance", inputs: { ...instance, ports: ["8000:8000"], readiness: { httpPath: "/health\r\nX-Injected: 1", timeoutMinutes: 5 } }, property: "readiness.httpPath", says: /must not contain spaces or control characters such as CR or LF.*\(got "\/health\\r\\nX-Injected: 1"\)$/ },
  { rule: "23.11 fleet readiness.httpPath has no CR/LF, as Instance's", kind: "fleet", inputs: { ...fleet, ports: ["8000:8000"], readiness: { httpPath: "/ok\n", timeoutMinutes: 5 } }, property: "readiness.httpPath", says: /control characters such as CR or LF.*\(got "\/ok\\n"\)$/ },
  { rule: "23.11 readiness.httpPath has no other control character", kind: "instance", inputs: { ...instance, ports: ["8000:8000"], readiness: { httpPath: "/a\u0000b", timeoutMinutes: 5 } }, property: "readiness.httpPath", says: /control characters/ },
  // Issue 23 item 14: accepted but questionable inputs
  { rule: "23.14 template name has no ANSI escape", kind: "template", inputs: { ...template, name: "\u001b[31mred\u001b[0m" }, property: "name", says: /must not contain control characters such as ANSI escapes, CR or LF \(found U\+001B at character 1\).*\(got "\\u001b\[31mred/ },
  { rule: "23.14 template name at most 256 characters", kind: "template", inputs: { ...template, name: "n".repeat(1_000_000) }, property: "name", says: /must be at most 256 characters.*\.\.\.\)$/ },
  { rule: "23.14 instance label has no ANSI escape", kind: "instance", inputs: { ...instance, label: "ok\u001b]0;pwned\u0007" }, property: "label", says: /found U\+001B at character 3/ },
  { rule: "23.14 fleet label has no control character, as Instance's", kind: "fleet", inputs: { ...fleet, label: "a\r\nb" }, property: "label", says: /found U\+000D at character 2/ },
  { rule: "23.14 API key name has no control character", kind: "apiKey", inputs: { name: "ci\u009b2J" }, property: "name", says: /found U\+009B/ },
  { rule: "23.14 API key name at most 256 characters", kind: "apiKey", inputs: { name: "k".repeat(300) }, property: "name", says: /must be at most 256 characters/ },
  { rule: "23.14 webhook name has no control character", kind: "webhook", inputs: { ...hook, name: "ops\u001b[2J" }, property: "name", says: /found U\+001B at character 4/ },
  { rule: "23.14 volume name has no direction override", kind: "volume", inputs: { offerId: 900001, name: "data\u202Etxt.exe" }, property: "name", says: /found U\+202E/ },
  { rule: "23.14 variable name is not the reserved marker", kind: "envVar", inputs: { key: MARKER_ENV, value: "v" }, property: "key", says: /PULUMI_VASTAI_MARKER is reserved/ },
  { rule: "23.14 variable name is not the reserved marker in lower case (the service upper-cases names)", kind: "envVar", inputs: { key: MARKER_ENV.toLowerCase(), value: "v" }, property: "key", says: /PULUMI_VASTAI_MARKER is reserved/ },
  { rule: "23.14 template ports at most 256 mappings", kind: "template", inputs: { ...template, ports: manyPorts }, property: "ports", says: /^ports: must hold at most 256 port mappings \(got 100000\)/ },
  { rule: "23.14 instance ports at most 256 mappings", kind: "instance", inputs: { ...instance, ports: manyPorts }, property: "ports", says: /^ports: must hold at most 256 port mappings \(got 100000\)/ },
  { rule: "23.14 endpoint maxWorkers at most 1000", kind: "endpoint", inputs: { name: "e", maxWorkers: 1e9 }, property: "maxWorkers", says: /must be at most 1000 \(got 1000000000\)/ },
  { rule: "23.14 endpoint coldWorkers at most 1000", kind: "endpoint", inputs: { name: "e", coldWorkers: 5000 }, property: "coldWorkers", says: /must be at most 1000/ },
  // Issue 27 item 1: teams (vendor document: create team, create team role, invite team member, create subaccount)
  { rule: "27.1 team_name is required", kind: "team", inputs: {}, property: "name", says: /must be a string/ },
  { rule: "27.1 team name has no control character", kind: "team", inputs: { name: "ml\u001b[2J" }, property: "name", says: /found U\+001B/ },
  { rule: "27.1 transfer_credit is not negative", kind: "team", inputs: { name: "ml", transferCredit: -5 }, property: "transferCredit", says: /must be 0 or more.*\(got -5\)/ },
  { rule: "27.1 role permissions are required", kind: "teamRole", inputs: { name: "dev" }, property: "permissions", says: /must be an object of areas/ },
  { rule: "27.1 role permission levels are read or write, as ApiKey's", kind: "teamRole", inputs: { name: "dev", permissions: { billing: "admin" } }, property: "permissions.billing", says: /must be "read" or "write"/ },
  { rule: "27.1 role permissions grant at least one area", kind: "teamRole", inputs: { name: "dev", permissions: {} }, property: "permissions", says: /must grant at least one area/ },
  { rule: "27.1 role name is not one of the team's own", kind: "teamRole", inputs: { name: "owner", permissions: { user: "read" } }, property: "name", says: /must not be one of the team's own roles/ },
  { rule: "27.1 role name has no / (it is part of the role's address)", kind: "teamRole", inputs: { name: "a/b", permissions: { user: "read" } }, property: "name", says: /must not contain \/ \? # %/ },
  { rule: "27.1 invitation email is an e-mail address", kind: "teamMember", inputs: { email: "ana", role: "member" }, property: "email", says: /must be an e-mail address.*\(got "ana"\)/ },
  { rule: "27.1 invitation role is required", kind: "teamMember", inputs: { email: "ana@example.com" }, property: "role", says: /must be a string/ },
  { rule: "27.1 nobody is invited as owner", kind: "teamMember", inputs: { email: "ana@example.com", role: "owner" }, property: "role", says: /must not be owner/ },
  { rule: "27.1 subaccount email is not an @vast address", kind: "subaccount", inputs: { email: "bot@vast.ai", username: "bot", password: "long-enough" }, property: "email", says: /must not be an @vast address/ },
  { rule: "27.1 subaccount email at most 64 characters", kind: "subaccount", inputs: { email: `${"b".repeat(70)}@example.com`, username: "bot", password: "long-enough" }, property: "email", says: /at most 64 characters/ },
  { rule: "27.1 subaccount username has no spaces", kind: "subaccount", inputs: { email: "bot@example.com", username: "ci bot", password: "long-enough" }, property: "username", says: /must not contain spaces/ },
  { rule: "27.1 subaccount password at least 8 characters", kind: "subaccount", inputs: { email: "bot@example.com", username: "bot", password: "short" }, property: "password", says: /must be at least 8 characters/ },

  // Clusters and overlays (not in the vendor document; the vendor client's shapes)
  { rule: "27.2 cluster subnet is an IPv4 CIDR", kind: "cluster", inputs: { subnet: "10.0.0.0", managerMachineId: 50001 }, property: "subnet", says: /must be an IPv4 subnet in CIDR form such as 10\.0\.0\.0\/24/ },
  { rule: "27.2 cluster subnet octets at most 255", kind: "cluster", inputs: { subnet: "10.0.300.0/24", managerMachineId: 50001 }, property: "subnet", says: /CIDR form/ },
  { rule: "27.2 cluster manager is a machine id", kind: "cluster", inputs: { subnet: "10.0.0.0/24", managerMachineId: 0 }, property: "managerMachineId", says: /must be greater than 0 \(a machine id the account hosts\)/ },
  { rule: "27.2 cluster properties are known ones", kind: "cluster", inputs: { subnet: "10.0.0.0/24", managerId: 50001 }, property: "managerId", says: /is not a Cluster property; did you mean managerMachineId\?/ },
  { rule: "27.2 cluster member machine is a whole number", kind: "clusterMember", inputs: { clusterId: 1, machineId: 1.5 }, property: "machineId", says: /must be a whole number/ },
  { rule: "27.2 overlay name is not empty", kind: "overlay", inputs: { clusterId: 1, name: "" }, property: "name", says: /must not be empty/ },
  { rule: "27.2 overlay name at most 64 characters", kind: "overlay", inputs: { clusterId: 1, name: "n".repeat(65) }, property: "name", says: /at most 64 characters/ },
  { rule: "27.2 overlay name has no control character", kind: "overlay", inputs: { clusterId: 1, name: "net\u0007" }, property: "name", says: /U\+0007/ },
  { rule: "27.2 overlay member instance is an id", kind: "overlayMember", inputs: { overlayName: "net", instanceId: "8000001" }, property: "instanceId", says: /must be a number/ },
  { rule: "27.2 fleet overlay is an overlay name", kind: "fleet", inputs: { count: 1, offer: {}, image: "x", overlay: " net" }, property: "overlay", says: /must not start or end with spaces/ },
  // Scheduled jobs (the vendor's client: validate_frequency_values, add_scheduled_job)
  { rule: "27.3 scheduled job frequency is HOURLY, DAILY or WEEKLY", kind: "scheduledJob", inputs: { ...sched, frequency: "MONTHLY" }, property: "frequency", says: /must be one of HOURLY, DAILY, WEEKLY/ },
  { rule: "27.3 an HOURLY job takes no hour", kind: "scheduledJob", inputs: { ...sched, frequency: "HOURLY" }, property: "hour", says: /an HOURLY job takes no day and no hour/ },
  { rule: "27.3 a WEEKLY job needs a day", kind: "scheduledJob", inputs: { ...sched, frequency: "WEEKLY" }, property: "day", says: /is required for a WEEKLY job/ },
  { rule: "27.3 scheduled job hour is 0-23", kind: "scheduledJob", inputs: { ...sched, hour: 24 }, property: "hour", says: /must be an hour 0-23/ },
  { rule: "33.9 scheduled job timeZone is whole hours from UTC at the start (the service takes no minute)", kind: "scheduledJob", inputs: { ...sched, timeZone: "Asia/Kathmandu" }, property: "timeZone", says: /must be whole hours from UTC.*Asia\/Kathmandu is 345 minutes/ },
  { rule: "33.9 scheduled job timeZone is a zone Intl knows", kind: "scheduledJob", inputs: { ...sched, timeZone: "Mars/Olympus" }, property: "timeZone", says: /must be a time zone Intl knows.*Mars\/Olympus/ },
  { rule: "33.7 fleet overlay needs offer.clusterId (an overlay is one cluster's network)", kind: "fleet", inputs: { ...fleet, overlay: "net" }, property: "offer.clusterId", says: /is required with overlay: overlay "net" is local networking on one physical cluster/ },
  { rule: "27.3 scheduled job hour is whole (the service takes no minute)", kind: "scheduledJob", inputs: { ...sched, hour: 8.5 }, property: "hour", says: /whole hour/ },
  { rule: "27.3 scheduled job day is a weekday name", kind: "scheduledJob", inputs: { ...sched, frequency: "WEEKLY", day: "mon" }, property: "day", says: /must be a day of the week/ },
  { rule: "27.3 scheduled job time zone is one Intl knows", kind: "scheduledJob", inputs: { ...sched, timeZone: "Mars/Olympus" }, property: "timeZone", says: /must be a time zone Intl knows/ },
  { rule: "27.3 scheduled job end after its start", kind: "scheduledJob", inputs: { ...sched, start: "2030-01-02T00:00:00Z", end: "2030-01-01T00:00:00Z" }, property: "end", says: /must be after the start/ },
  { rule: "27.3 scheduled job end is an ISO 8601 time", kind: "scheduledJob", inputs: { ...sched, end: "next week" }, property: "end", says: /ISO 8601/ },
  { rule: "27.3 changeBid needs a price", kind: "scheduledJob", inputs: { ...sched, action: "changeBid" }, property: "price", says: /is required for action changeBid/ },
  { rule: "27.3 scheduled bid at most 32 $/hour", kind: "scheduledJob", inputs: { ...sched, action: "changeBid", price: 40 }, property: "price", says: /at most 32/ },
  { rule: "27.3 scheduled job action is reboot or changeBid", kind: "scheduledJob", inputs: { ...sched, action: "destroy" }, property: "action", says: /must be one of reboot, changeBid/ },
  // Instance schedule (issue 27 item 5): office hours by scheduled bid changes.
  { rule: "27.5 schedule only on an interruptible instance (no scheduled stop of an on-demand one is evidenced)", kind: "instance", inputs: { ...instance, schedule: { start: "08:00", end: "20:00" } }, property: "schedule", says: /applies only to an interruptible instance \(give bidPricePerHour\).*got a schedule/ },
  { rule: "27.5 schedule hours are whole hours HH:00", kind: "instance", inputs: { ...instance, bidPricePerHour: 0.3, schedule: { start: "08:30", end: "20:00" } }, property: "schedule.start", says: /must be a whole hour "HH:00"/ },
  { rule: "27.5 schedule end differs from its start", kind: "instance", inputs: { ...instance, bidPricePerHour: 0.3, schedule: { start: "08:00", end: "08:00" } }, property: "schedule.end", says: /must differ from schedule.start \(both 08:00\)/ },
  { rule: "27.5 schedule days are sun..sat", kind: "instance", inputs: { ...instance, bidPricePerHour: 0.3, schedule: { days: ["monday"], start: "08:00", end: "20:00" } }, property: "schedule.days.0", says: /days of the week: sun, mon/ },
  { rule: "27.5 schedule days name a day once", kind: "instance", inputs: { ...instance, bidPricePerHour: 0.3, schedule: { days: ["mon", "mon"], start: "08:00", end: "20:00" } }, property: "schedule.days", says: /must not name a day twice/ },
  { rule: "27.5 schedule time zone a whole number of hours from UTC", kind: "instance", inputs: { ...instance, bidPricePerHour: 0.3, schedule: { start: "08:00", end: "20:00", timeZone: "Asia/Kolkata" } }, property: "schedule.timeZone", says: /whole number of hours from UTC.*330 minutes/ },
  { rule: "27.5 schedule until in the future", kind: "instance", inputs: { ...instance, bidPricePerHour: 0.3, schedule: { start: "08:00", end: "20:00", until: "2020-01-01T00:00:00Z" } }, property: "schedule.until", says: /must be in the future/ },
  { rule: "27.5 a scheduled bid at most 32 $/hour (the start job sets it through the bid endpoint)", kind: "instance", inputs: { ...instance, bidPricePerHour: 40, schedule: { start: "08:00", end: "20:00" } }, property: "bidPricePerHour", says: /at most 32 with a schedule/ },
  { rule: "33.2 the stack identity's stackName is organization/project/stack", kind: "stackIdentity", inputs: { stackName: "dev" }, property: "stackName", says: /fully qualified stack name, organization\/project\/stack.*got "dev"/ },
  { rule: "27.5 Fleet takes no schedule (its members are on-demand)", kind: "fleet", inputs: { ...fleet, schedule: { start: "08:00", end: "20:00" } }, property: "schedule", says: /not offered for a Fleet: its members are rented on-demand/ },
  // Issue 34: the in-machine guard (autostop, ttl, expiresAt, expireAction).
  { rule: "34 autostop idle time at least 1 minute (a negative one refused)", kind: "instance", inputs: { ...instance, autostop: { idleMinutes: -5 } }, property: "autostop.idleMinutes", says: /must be at least 1 minute \(got -5\)/ },
  { rule: "34 autostop idle time whole minutes", kind: "instance", inputs: { ...instance, autostop: { idleMinutes: 2.5 } }, property: "autostop.idleMinutes", says: /whole number of minutes \(got 2.5\)/ },
  { rule: "34 autostop GPU threshold a percent up to 100", kind: "instance", inputs: { ...instance, autostop: { idleMinutes: 30, gpuUtilBelowPercent: 150 } }, property: "autostop.gpuUtilBelowPercent", says: /at most 100 \(percent, got 150\)/ },
  { rule: "34 autostop action stop or destroy", kind: "instance", inputs: { ...instance, autostop: { idleMinutes: 30, action: "hibernate" } }, property: "autostop.action", says: /must be one of "stop", "destroy" \(got "hibernate"\)/ },
  { rule: "34 ttl a duration in m, h, d", kind: "instance", inputs: { ...instance, ttl: "8 hours" }, property: "ttl", says: /must be a duration such as "90m", "8h".*\(got "8 hours"\)/ },
  { rule: "34 ttl at least a minute", kind: "instance", inputs: { ...instance, ttl: "0m" }, property: "ttl", says: /must be at least 1 minute \(got "0m"\)/ },
  { rule: "34 ttl at most a year", kind: "instance", inputs: { ...instance, ttl: "400d" }, property: "ttl", says: /must be at most 365d \(got "400d"\)/ },
  { rule: "34 expiresAt an ISO 8601 time with a zone", kind: "instance", inputs: { ...instance, expiresAt: "tomorrow 6pm" }, property: "expiresAt", says: /ISO 8601 time with a zone.*\(got "tomorrow 6pm"\)/ },
  { rule: "34 expiresAt in the future (a deadline in the past refused at create)", kind: "instance", inputs: { ...instance, expiresAt: "2020-01-01T00:00:00Z" }, property: "expiresAt", says: /must be in the future \(got 2020-01-01T00:00:00Z, now is / },
  { rule: "34 expiresAt changed to a past time refused on update", kind: "instance", olds: { ...instance, expiresAt: "2099-01-01T00:00:00Z" }, inputs: { ...instance, expiresAt: "2021-06-01T00:00:00Z" }, property: "expiresAt", says: /must be in the future \(got 2021-06-01T00:00:00Z/ },
  { rule: "34 ttl or expiresAt, not both", kind: "instance", inputs: { ...instance, ttl: "8h", expiresAt: "2099-01-01T00:00:00Z" }, property: "expiresAt", says: /give either ttl or expiresAt, not both \(ttl "8h", expiresAt "2099-01-01T00:00:00Z"\)/ },
  { rule: "34 expireAction stop or destroy", kind: "instance", inputs: { ...instance, ttl: "8h", expireAction: "pause" }, property: "expireAction", says: /must be one of "stop", "destroy" \(got "pause"\)/ },
  { rule: "34 expireAction only with a deadline", kind: "instance", inputs: { ...instance, expireAction: "stop" }, property: "expireAction", says: /is used only with ttl or expiresAt/ },
  { rule: "34 the guard needs a container (no VM)", kind: "instance", inputs: { ...instance, vm: true, sshKeyIds: [1], autostop: { idleMinutes: 30 } }, property: "autostop", says: /cannot be combined with vm: the guard runs in a container's start command/ },
  { rule: "34 runtype args with a guard needs the command (argsStr)", kind: "instance", inputs: { ...instance, runtype: "args", ttl: "2h" }, property: "argsStr", says: /is required with runtype args and autostop, ttl or expiresAt/ },
  { rule: "34 Fleet autostop stops only (a member destroyed from inside looks lost)", kind: "fleet", inputs: { ...fleet, autostop: { idleMinutes: 30, action: "destroy" } }, property: "autostop.action", says: /must be "stop" on a Fleet \(got "destroy"\)/ },
  { rule: "34 Fleet ttl a duration", kind: "fleet", inputs: { ...fleet, ttl: "-3h" }, property: "ttl", says: /must be a duration such as "90m".*\(got "-3h"\)/ },
  { rule: "34 Fleet expiresAt in the future", kind: "fleet", inputs: { ...fleet, expiresAt: "2020-01-01T00:00:00+02:00" }, property: "expiresAt", says: /must be in the future/ },
];

let rig: Rig;
beforeAll(async () => {
  rig = await startRig(profile());
  await rig.clearRequests();
});
afterAll(() => rig?.close());

describe("check refuses every rule with the property and the rule named", () => {
  it.each(RULES.map((r) => [`${r.kind}: ${r.rule}`, r] as const))("%s", async (_name, r) => {
    const { failures } = await driven(r.kind).check(r.olds ?? {}, { __provider: PROVIDER_TEXT, ...r.inputs });
    const named = (failures ?? []).filter((f) => f.property === r.property);
    expect(named.map((f) => f.reason)).toEqual([expect.stringMatching(r.says)]);
    // The property leads the reason: "p: rule", "p, q: rule" or "p is not a ... property".
    const leads = [`${r.property}: `, `${r.property} is not `].some((start) => named[0].reason.startsWith(start));
    expect(leads || named[0].reason.includes(`${r.property},`)).toBe(true);
  });

  it("never reached the service while checking", async () => {
    expect(await rig.requests()).toEqual([]);
  });
});

describe("the client refuses the per-call rules before sending", () => {
  const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e);

  it("refuses more than 100 machine ids in one schedule call", async () => {
    const ids = Array.from({ length: 101 }, (_, i) => 50001 + i);
    const error = await refusal(getClient().machines.scheduleMaintenance({ machineIds: ids, startTime: nowUnix() + DAY }));
    expect(error).toBeInstanceOf(VastValidationError);
    expect((error as Error).message).toBe("machineIds must hold 1 to 100 ids, got 101");
  });

  it("refuses an onstart over 4048 bytes even encoded, and a numeric template id", async () => {
    // Random bytes do not compress: no encoding brings 6000 characters of them under the limit.
    const noise = randomBytes(4500).toString("base64");
    const long = await refusal(getClient().instances.create(SEED.offerIds[0], { image: "x", onstart: noise }));
    expect((long as Error).message).toMatch(/^onstart must be at most 4048 bytes, also after compression and encoding \(the script has 6000 bytes/);
    const numeric = await refusal(getClient().instances.create(SEED.offerIds[0], { image: "x", templateId: 101 } as never));
    expect((numeric as Error).message).toMatch(/takes templateHashId .* not a numeric template id/);
  });

  it("refuses a bid outside 0.001..32 $/hour and a prepayment that is not positive", async () => {
    const bid = await refusal(getClient().instanceActions.changeBid(1, 33));
    expect(bid).toBeInstanceOf(VastValidationError);
    expect((bid as Error).message).toBe("bid price must be between 0.001 and 32 $/hour for an in-place change (got 33); a new rental takes bids up to 128");
    const prepay = await refusal(getClient().instanceActions.prepay(1, 0));
    expect((prepay as Error).message).toBe("prepay amount must be a positive number of dollars (got 0)");
  });

  it("refuses a lookup argument it does not take, naming the nearest", async () => {
    const error = await refusal(searchOffers({ gpuNmae: "RTX 4090" } as never));
    expect(error).toBeInstanceOf(VastValidationError);
    expect((error as Error).message).toBe("gpuNmae is not a searchOffers property; did you mean filters.gpuName?");
  });

  it("refuses a volume offer filter the search does not take, naming the fields", async () => {
    const error = await refusal(getClient().volumes.searchOffers("local", { filters: { gpuName: "RTX 4090" } as never }));
    expect(error).toBeInstanceOf(VastValidationError);
    expect((error as Error).message).toMatch(/^volume offer filter "gpuName" is not searchable; use one of id, machineId/);
    const size = await refusal(getClient().volumes.create("local", { offerId: 900001, sizeGb: 2.5 }));
    expect((size as Error).message).toBe("sizeGb must be a positive whole number, got 2.5");
  });

  it("refuses a billing range the service cannot take, naming the argument", async () => {
    const now = nowUnix();
    expect(((await refusal(getCharges({ start: now, end: now - DAY }))) as Error).message).toMatch(/^getCharges: end \(\d+\) must not be before start/);
    expect(((await refusal(getInvoices({ start: Date.now() }))) as Error).message).toMatch(/^getInvoices: start must be Unix seconds, not milliseconds/);
    expect(((await refusal(getCharges({ start: now, pageSize: 1000 }))) as Error).message).toMatch(/^getCharges: limit must be a whole number from 1 to 500/);
  });

  it("sent nothing", async () => {
    expect(await rig.requests()).toEqual([]);
  });
});

// Last: these checks run for seconds without a request, which would let the rig's idle connection close under the calls above.
describe("issue 23 item 14: failures of huge inputs stay short", () => {
  it.each([
    ["template", { ...template, ports: manyPorts, env: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`${i}BAD`, "x"])) }],
    ["instance", { ...instance, ports: manyPorts.map((p) => `${p}/sctp`) }],
    ["template", { ...template, name: "\u001b".repeat(1_000_000) }],
  ] as const)("23.14 %s: the whole failure text of 100000 bad entries is under 4 KB", async (kind, inputs) => {
    const { failures } = await driven(kind).check({}, { __provider: PROVIDER_TEXT, ...inputs });
    const text = (failures ?? []).map((f) => `${f.property}: ${f.reason}`).join("\n");
    expect(failures?.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThan(4096);
  });
});

afterAll(() => {
  process.stdout.write(`\nBad-input catalogue: ${RULES.length} check rules over ${new Set(RULES.map((r) => r.kind)).size} resources, 9 client rules; 0 requests sent\n`);
});
