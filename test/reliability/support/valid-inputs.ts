/**
 * fast-check arbitraries: valid inputs of every resource (as a program could write them), and
 * arbitrary inputs built around each resource's property names.
 */
import fc from "fast-check";
import { UNKNOWN } from "../../../provider/resources/kit";
import { KNOWN_GPU_NAMES, suggestGpuName } from "../../../provider/resources/kit/gpu-names";
import { MARKER_ENV } from "../../../provider/resources/instance/inputs";
import type { ResourceKind } from "../../../provider/runtime";
import { ed25519PublicKey, type Props } from "./drive";

const DAY = 24 * 3600;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const text = (min = 0, max = 40) => fc.string({ minLength: min, maxLength: max });
const nonEmpty = (max = 40) => text(1, max);
/** A name of letters, digits and _ not starting with a digit. */
const varName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/).filter((n) => NAME.test(n) && n !== MARKER_ENV);
const port = fc.integer({ min: 1, max: 65535 });
const mapping = fc.tuple(port, port, fc.constantFrom("", "/tcp", "/udp")).map(([a, b, proto]) => `${a}:${b}${proto}`);
const RESERVED = new Set(["__proto__", "constructor", "prototype"]);
function hasReservedKey(v: unknown): boolean {
  if (v === null || typeof v !== "object") return false;
  return Object.keys(v).some((k) => RESERVED.has(k) || hasReservedKey((v as Record<string, unknown>)[k]));
}
/** Any JSON value without the reserved key names (check refuses those). */
const json = fc.jsonValue().filter((v) => !hasReservedKey(v));
/** Image references by the registry grammar: [registry[:port]/]path[:tag]. */
const pathComponent = fc.stringMatching(/^[a-z0-9]+(?:[._-][a-z0-9]+){0,2}$/).filter((c) => c.length <= 30);
const imageTag = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,19}$/);
const image = fc
  .tuple(
    fc.option(fc.constantFrom("ghcr.io", "localhost:5000", "registry.example.com:443"), { nil: undefined }),
    fc.array(pathComponent, { minLength: 1, maxLength: 3 }),
    fc.option(imageTag, { nil: undefined }),
  )
  .map(([registry, path, tag]) => `${registry ? `${registry}/` : ""}${path.join("/")}${tag ? `:${tag}` : ""}`);

/** Optional properties: each present or absent. */
function withOptional(required: Record<string, fc.Arbitrary<unknown>>, optional: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Props> {
  return fc.record({ ...required, ...optional }, { requiredKeys: Object.keys(required) as never[] }) as fc.Arbitrary<Props>;
}

const templateValid = withOptional(
  { name: nonEmpty(), image },
  {
    tag: imageTag,
    desc: text(),
    env: fc.dictionary(varName, text(0, 20), { maxKeys: 4 }),
    // Unique after writing N as N:N (the flag string cannot hold a mapping twice).
    ports: fc.uniqueArray(fc.oneof(port, mapping), { maxLength: 4, selector: (p) => (typeof p === "number" ? `${p}:${p}` : p) }),
    onstart: text(0, 200),
    runtype: fc.constantFrom("ssh", "jupyter", "args"),
    sshDirect: fc.boolean(),
    useSsh: fc.boolean(),
    dockerLoginUser: text(),
    dockerLoginPass: text(),
    recommendedDiskSpaceGb: fc.double({ min: 0.5, max: 2000, noNaN: true }),
    private: fc.boolean(),
    extraFilters: fc.dictionary(
      fc.stringMatching(/^[a-z][a-z0-9_]{0,12}$/),
      fc.oneof(fc.record({ gte: fc.integer() }), fc.record({ in: fc.array(fc.string(), { maxLength: 3 }) })),
      { maxKeys: 3 },
    ),
  },
);

/** A GPU name check lets through: one the market lists, or one no listed name is a single edit from (a near miss gets "did you mean"). */
const gpuName = fc.oneof(fc.constantFrom(...KNOWN_GPU_NAMES), nonEmpty(20).filter((name) => suggestGpuName(name) === undefined));

const offerFilters = withOptional(
  {},
  {
    gpuName,
    numGpus: fc.integer({ min: 1, max: 8 }),
    gpuRamGb: fc.double({ min: 1, max: 200, noNaN: true }),
    maxPricePerHour: fc.double({ min: 0.01, max: 50, noNaN: true }),
    minReliability: fc.double({ min: 0, max: 1, noNaN: true }),
    verified: fc.boolean(),
  },
);

const instanceValid = fc
  .tuple(
    fc.oneof(fc.record({ offerId: fc.integer({ min: 1, max: 2 ** 31 }) }), fc.record({ offer: offerFilters })),
    fc.oneof(fc.record({ image }), fc.record({ templateHashId: nonEmpty(32) })),
    withOptional(
      {},
      {
        env: fc.dictionary(varName, text(0, 20), { maxKeys: 4 }),
        ports: fc.array(mapping, { maxLength: 3 }),
        onstart: text(0, 300),
        label: text(0, 100),
        diskGb: fc.double({ min: 1, max: 1000, noNaN: true }),
        runtype: fc.constantFrom("ssh", "jupyter", "args"),
        targetState: fc.constantFrom("running", "stopped"),
        waitForRunning: fc.boolean(),
        maxCreateAttempts: fc.integer({ min: 1, max: 10 }),
        cancelUnavailable: fc.boolean(),
        rebootTrigger: text(0, 20),
        recycleTrigger: fc.integer(),
        prepayAmount: fc.double({ min: 0.01, max: 10_000, noNaN: true }),
        updatePolicy: fc.constantFrom("in-place", "replace"),
        readiness: withOptional({ tcpPort: fc.integer({ min: 1, max: 65535 }), timeoutMinutes: fc.double({ min: 0.01, max: 1440, noNaN: true }) }, { httpPath: fc.constantFrom("/", "/health", "/v1/models") }),
      },
    ),
    // A bid, with its outbid policy (a rebid carries its ceiling, at least the bid).
    fc.option(
      fc.double({ min: 0.001, max: 16, noNaN: true }).chain((bid) =>
        fc.oneof(
          fc.constant({ bidPricePerHour: bid }),
          fc.constantFrom("replace", "keep").map((onOutbid) => ({ bidPricePerHour: bid, onOutbid })),
          fc.double({ min: bid, max: 32, noNaN: true }).map((max) => ({ bidPricePerHour: bid, onOutbid: "rebid", maxBidPricePerHour: max })),
        ),
      ),
      { nil: {} },
    ),
  )
  .map(([offer, image, rest, bid]) => ({ ...offer, ...image, ...rest, ...bid }));

const sshKeyValid = fc
  .tuple(fc.stringMatching(/^[A-Za-z0-9@._-]{0,20}$/), fc.constantFrom("", " ", "\t", "  "))
  .map(([comment, pad]) => ({ publicKey: `${pad}${ed25519PublicKey(comment).trim()}${pad}` }));

const listingPrice = fc.double({ min: 0, max: 100, noNaN: true });
const machineListingValid = withOptional(
  { machineId: fc.integer({ min: 1, max: 10_000_000 }), pricePerGpu: listingPrice },
  {
    storagePricePerGbMonth: listingPrice,
    uploadPricePerGb: listingPrice,
    downloadPricePerGb: listingPrice,
    minBidPerGpu: listingPrice,
    minGpus: fc.integer({ min: 1, max: 16 }),
    endDate: fc.integer({ min: 3600, max: 360 * DAY }).map((lead) => Math.floor(Date.now() / 1000) + lead),
    discountRate: fc.double({ min: 0, max: 1, noNaN: true }),
    defaultJob: fc.record({ image: fc.constantFrom("vastai/base:latest", "ubuntu:22.04"), pricePerGpu: listingPrice }),
  },
);

const maintenanceValid = withOptional(
  {
    machineIds: fc.array(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 1, maxLength: 250 }),
    startTime: fc.integer({ min: 3600, max: 360 * DAY }).chain((lead) => {
      const unix = Math.floor(Date.now() / 1000) + lead;
      return fc.constantFrom<string | number>(unix, new Date(unix * 1000).toISOString());
    }),
  },
  {
    durationHours: fc.double({ min: 1, max: 500, noNaN: true }),
    category: fc.constantFrom("power", "internet", "disk", "gpu", "software", "other"),
    allowPartial: fc.boolean(),
  },
);

/** A value the service takes for an account variable: ^[a-zA-Z0-9_\-.]+$. */
const secretValue = fc.stringMatching(/^[a-zA-Z0-9_\-.]{1,60}$/);
const envVarValid = fc.record({ key: varName, value: secretValue });

const apiKeyValid = withOptional(
  { name: nonEmpty() },
  { permissions: withOptional({ instances: fc.constantFrom("read", "write") }, { user: fc.constantFrom("read", "write"), billing: fc.constantFrom("read", "write"), misc: fc.boolean() }), rotateOn: json },
);

// Names, not numbers: a host whose last label is numeric is read as an IPv4 address by URL parsers.
// No "--" in the third and fourth places: those labels are reserved for IDNA ("xn--0" is an
// invalid punycode label, and URL parsers refuse it).
const hostLabel = fc.stringMatching(/^[a-z]([a-z0-9-]{0,10}[a-z0-9])?$/).filter((l) => l.slice(2, 4) !== "--");
const webhookValid = withOptional(
  {
    url: fc
      .tuple(fc.constantFrom("http", "https"), fc.array(hostLabel, { minLength: 1, maxLength: 3 }), fc.option(port, { nil: undefined }), fc.stringMatching(/^(\/[a-z0-9_-]{1,10}){0,3}$/))
      .map(([scheme, labels, p, path]) => `${scheme}://${labels.join(".")}${p === undefined ? "" : `:${p}`}${path}`),
    eventTypes: fc.uniqueArray(fc.stringMatching(/^(client|host):[a-z0-9_]{1,20}$/), { minLength: 1, maxLength: 4 }),
  },
  { name: nonEmpty(101), rotateSecretTrigger: json },
);

// End dates far enough ahead that a check at any run's clock finds them after the start.
const scheduledJobValid = fc
  .tuple(
    fc.integer({ min: 1, max: 2 ** 31 }),
    fc.oneof(fc.constant({ action: "reboot" }), fc.double({ min: 0.001, max: 32, noNaN: true }).map((price) => ({ action: "changeBid", price }))),
    fc.oneof(
      fc.constant({ frequency: "HOURLY" }),
      fc.integer({ min: 0, max: 23 }).map((hour) => ({ frequency: "DAILY", hour })),
      fc.tuple(fc.constantFrom("sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"), fc.integer({ min: 0, max: 23 })).map(([day, hour]) => ({ frequency: "WEEKLY", day, hour })),
    ),
    fc.constantFrom("UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo"),
  )
  .map(([instanceId, action, slot, timeZone]) => ({ instanceId, ...action, ...slot, timeZone, end: "2099-01-01T00:00:00Z" }));

const rotationValid = fc
  .tuple(fc.oneof(fc.record({ subaccountUserId: fc.integer({ min: 1, max: 2 ** 31 }) }), fc.constant({ all: true })), fc.option(json, { nil: undefined }))
  .map(([target, triggers]) => (triggers === undefined ? target : { ...target, triggers }));

const instanceRef = fc.oneof(fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: 1, max: 2 ** 31 }).map(String));
const copyPath = nonEmpty().filter((p) => p.trim() !== "");
const rsyncValid = fc
  .tuple(fc.constantFrom("src", "dst", "both"), instanceRef, instanceRef, copyPath, copyPath)
  .map(([which, src, dst, srcPath, dstPath]) => ({
    ...(which !== "dst" ? { srcId: src } : {}),
    ...(which !== "src" ? { dstId: dst } : {}),
    srcPath,
    dstPath,
  }));

const volumeFilters = (extra: Record<string, fc.Arbitrary<unknown>>) =>
  withOptional(
    {},
    {
      maxPricePerGbMonth: fc.double({ min: 0.001, max: 1000, noNaN: true }),
      minReliability: fc.double({ min: 0, max: 1, noNaN: true }),
      location: fc.oneof(fc.constantFrom("US", "Sweden, SE"), fc.array(fc.constantFrom("US", "SE", "DE"), { minLength: 1, maxLength: 3 })),
      verified: fc.boolean(),
      ...extra,
    },
  );
const volumeValid = (extra: Record<string, fc.Arbitrary<unknown>>) =>
  fc
    .tuple(fc.oneof(fc.record({ offerId: fc.integer({ min: 1, max: 2 ** 31 }) }), volumeFilters(extra).map((offer) => ({ offer }))), withOptional({}, { sizeGb: fc.integer({ min: 1, max: 1_000_000 }), name: nonEmpty(200) }))
    .map(([offer, rest]) => ({ ...offer, ...rest }));
const endpointValid = withOptional(
  { name: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,40}$/) },
  {
    minLoad: fc.double({ min: 0, max: 1000, noNaN: true }),
    minColdLoad: fc.double({ min: 0, max: 1000, noNaN: true }),
    targetUtil: fc.double({ min: 0.01, max: 1, noNaN: true }),
    coldMult: fc.double({ min: 0, max: 10, noNaN: true }),
    coldWorkers: fc.integer({ min: 0, max: 50 }),
    maxWorkers: fc.integer({ min: 1, max: 200 }),
    maxQueueTime: fc.double({ min: 0, max: 600, noNaN: true }),
    targetQueueTime: fc.double({ min: 0, max: 600, noNaN: true }),
    inactivityTimeout: fc.integer({ min: 0, max: 86400 }),
  },
);

const workerGroupValid = fc
  .tuple(
    withOptional(
      { endpointId: fc.oneof(fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: 1, max: 2 ** 31 }).map(String)) },
      { launchArgs: text(0, 40), gpuRam: fc.double({ min: 0, max: 192, noNaN: true }), testWorkers: fc.integer({ min: 0, max: 10 }), coldWorkers: fc.integer({ min: 0, max: 20 }) },
    ),
    fc.constantFrom("hash", "search", "both"),
    fc.stringMatching(/^[a-f0-9]{32}$/),
    fc.constantFrom("gpu_ram>=23 num_gpus=1", "gpu_name=RTX_4090 rentable=true", "verified=true"),
  )
  .map(([base, which, hash, search]) => ({
    ...base,
    ...(which !== "search" ? { templateHash: hash } : {}),
    ...(which !== "hash" ? { searchParams: search } : {}),
  }));

const fleetValid = withOptional(
  {
    count: fc.integer({ min: 0, max: 500 }),
    offer: withOptional({}, { gpuName: fc.constantFrom("RTX 4090", "A100 SXM4"), numGpus: fc.integer({ min: 1, max: 8 }), maxPricePerHour: fc.double({ min: 0.01, max: 100, noNaN: true }) }),
    image: fc.constantFrom("pytorch/pytorch", "vllm/vllm-openai:latest"),
  },
  {
    spread: fc.record({ by: fc.constantFrom("machine", "country"), max: fc.integer({ min: 1, max: 500 }) }),
    maxPricePerHour: fc.double({ min: 0.01, max: 1000, noNaN: true }),
    maxHourlyCost: fc.double({ min: 0.01, max: 100_000, noNaN: true }),
    badHostMinutes: fc.integer({ min: 0, max: 43_200 }),
    volume: fc.record({ createNew: fc.constant(true), size: fc.integer({ min: 1, max: 10_000 }), mountPath: fc.constantFrom("/data", "/workspace/cache") }),
    overlay: fc.stringMatching(/^[a-z][a-z0-9-]{0,30}$/),
  },
  // An overlay is one cluster's network: a fleet on one rents on that cluster (offer.clusterId).
).chain((f) =>
  f.overlay === undefined ? fc.constant(f) : fc.integer({ min: 1, max: 2 ** 31 }).map((clusterId) => ({ ...f, offer: { ...(f.offer as object), clusterId } })),
);

const volumeListingTerms = {
  sizeGb: fc.integer({ min: 1, max: 1_000_000 }),
  pricePerGbMonth: listingPrice,
};
const volumeListingEnd = { endDate: fc.integer({ min: 3600, max: 360 * DAY }).map((lead) => Math.floor(Date.now() / 1000) + lead) };

const serviceId = fc.integer({ min: 1, max: 2 ** 31 });
const overlayName = fc.stringMatching(/^[a-z][a-z0-9-]{0,62}$/);
const subnet = fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 8, max: 30 })).map(([a, b, bits]) => `10.${a}.${b}.0/${bits}`);
const simpleName = fc.stringMatching(/^[a-z][a-z0-9_-]{0,30}$/);
const email = fc.tuple(fc.stringMatching(/^[a-z][a-z0-9._]{0,10}$/), fc.stringMatching(/^[a-z]{1,8}$/)).map(([u, d]) => `${u}@${d}.example.com`);
const areaPermissions = withOptional({ instances: fc.constantFrom("read", "write") }, { user: fc.constantFrom("read", "write"), billing: fc.constantFrom("read", "write"), machines: fc.constantFrom("read", "write"), misc: fc.boolean() });
const teamValid = withOptional({ name: simpleName }, { transferCredit: fc.double({ min: 0, max: 1000, noNaN: true }) });
const teamRoleValid = fc.record({ name: simpleName.filter((n) => !["owner", "manager", "member"].includes(n)), permissions: areaPermissions });
const teamMemberValid = fc.record({ email, role: simpleName.filter((n) => n !== "owner") });
const subaccountValid = withOptional({ email, username: simpleName, password: fc.stringMatching(/^[A-Za-z0-9]{8,30}$/) }, { hostOnly: fc.boolean() });

export const VALID: Record<ResourceKind, fc.Arbitrary<Props>> = {
  template: templateValid,
  instance: instanceValid,
  sshKey: sshKeyValid,
  maintenanceWindow: maintenanceValid,
  machineListing: machineListingValid,
  volumeListing: withOptional({ machineId: fc.integer({ min: 1, max: 10_000_000 }), ...volumeListingTerms }, volumeListingEnd),
  networkVolumeListing: withOptional({ diskId: fc.integer({ min: 1, max: 10_000_000 }), ...volumeListingTerms }, volumeListingEnd),
  envVar: envVarValid,
  apiKey: apiKeyValid,
  subaccountKeyRotation: rotationValid,
  rsyncCopy: rsyncValid,
  volume: volumeValid({ machineId: fc.integer({ min: 1, max: 2 ** 31 }) }),
  networkVolume: volumeValid({ clusterId: fc.integer({ min: 1, max: 2 ** 31 }) }),
  endpoint: endpointValid,
  workerGroup: workerGroupValid,
  webhook: webhookValid,
  scheduledJob: scheduledJobValid,
  fleet: fleetValid,
  stackIdentity: fc.constant({ stackName: "organization/proj/dev" }),
  cluster: fc.record({ subnet, managerMachineId: serviceId }),
  clusterMember: fc.record({ clusterId: serviceId, machineId: serviceId }),
  overlay: fc.record({ clusterId: serviceId, name: overlayName }),
  overlayMember: fc.record({ overlayName, instanceId: serviceId }),
  team: teamValid,
  teamRole: teamRoleValid,
  teamMember: teamMemberValid,
  subaccount: subaccountValid,
};

/** Property names each resource knows (inputs), for arbitrary inputs that hit the real rules. */
export const PROPERTY_NAMES: Record<ResourceKind, string[]> = {
  template: ["name", "image", "tag", "env", "ports", "onstart", "runtype", "extraFilters", "recommendedDiskSpaceGb", "dockerLoginPass", "volumeInfo"],
  instance: [
    "offerId", "offer", "templateHashId", "templateId", "image", "env", "ports", "onstart", "volume", "label", "sshKeyIds", "vm", "targetState",
    "bidPricePerHour", "onOutbid", "maxBidPricePerHour", "cancelUnavailable", "prepayAmount", "readiness", "updatePolicy", "importId", "schedule",
  ],
  sshKey: ["publicKey"],
  maintenanceWindow: ["machineIds", "startTime", "durationHours", "category", "allowPartial"],
  machineListing: ["machineId", "pricePerGpu", "storagePricePerGbMonth", "uploadPricePerGb", "downloadPricePerGb", "minBidPerGpu", "minGpus", "endDate", "discountRate", "defaultJob"],
  volumeListing: ["machineId", "sizeGb", "pricePerGbMonth", "endDate"],
  networkVolumeListing: ["diskId", "sizeGb", "pricePerGbMonth", "endDate"],
  envVar: ["key", "value"],
  apiKey: ["name", "permissions", "rotateOn"],
  subaccountKeyRotation: ["subaccountUserId", "all", "triggers"],
  rsyncCopy: ["srcId", "dstId", "srcPath", "dstPath", "triggers"],
  volume: ["offerId", "offer", "sizeGb", "name"],
  networkVolume: ["offerId", "offer", "sizeGb", "name"],
  endpoint: ["name", "minLoad", "minColdLoad", "targetUtil", "coldMult", "coldWorkers", "maxWorkers", "maxQueueTime", "targetQueueTime", "inactivityTimeout"],
  workerGroup: ["endpointId", "templateHash", "searchParams", "launchArgs", "gpuRam", "testWorkers", "coldWorkers"],
  webhook: ["url", "eventTypes", "name", "rotateSecretTrigger"],
  scheduledJob: ["instanceId", "action", "price", "frequency", "day", "hour", "timeZone", "start", "end"],
  // Its one input (set by the package) and its outputs.
  stackIdentity: ["stackName", "nonce", "tag"],
  fleet: [
    "count", "offer", "templateHashId", "image", "env", "ports", "onstart", "volume", "diskGb", "label", "minHealthy", "spread", "maxPricePerHour", "maxHourlyCost", "badHostMinutes",
    "readiness", "updatePolicy", "overlay",
  ],
  cluster: ["subnet", "managerMachineId"],
  clusterMember: ["clusterId", "machineId"],
  overlay: ["clusterId", "name"],
  overlayMember: ["overlayName", "instanceId"],
  team: ["name", "transferCredit"],
  teamRole: ["name", "permissions"],
  teamMember: ["email", "role"],
  subaccount: ["email", "username", "password", "hostOnly"],
};

/** Any value, sometimes the preview's unknown marker. */
const anyValue = fc.oneof({ weight: 8, arbitrary: fc.anything() }, { weight: 1, arbitrary: fc.constant(UNKNOWN) });

/** Arbitrary properties: known names and random ones, with any values (the serialized provider text kept). */
export function arbitraryInputs(kind: ResourceKind): fc.Arbitrary<Props> {
  const key = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PROPERTY_NAMES[kind]) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
  return fc.dictionary(key, anyValue, { maxKeys: 8 });
}
