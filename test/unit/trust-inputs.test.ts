/**
 * Inputs are judged before anything is sent: unknown names are refused with the nearest known
 * one, failures never show secret values, and secrets of any length are scrubbed from messages.
 */
import { VastValidationError } from "../../provider/client";
import { registerSecret, registerSecrets, scrub } from "../../provider/client/redact";
import { searchOffers, getWorkerGroupLogs } from "../../provider/lookups";
import { PROVIDER_KEY } from "../../provider/resources/kit";
import { provider as apiKey } from "../../provider/resources/apiKey/provider";
import { provider as envVar } from "../../provider/resources/envVar/provider";
import { provider as instance } from "../../provider/resources/instance/provider";
import { provider as maintenanceWindow } from "../../provider/resources/maintenanceWindow/provider";
import { provider as rsyncCopy } from "../../provider/resources/rsyncCopy/provider";
import { provider as sshKey } from "../../provider/resources/sshKey/provider";
import { provider as subaccountKeyRotation } from "../../provider/resources/subaccountKeyRotation/provider";
import { provider as template } from "../../provider/resources/template/provider";

const P = { [PROVIDER_KEY]: "serialized-provider" };
const SECRET = "hunter2-env-value";
const reasons = async (impl: { check: typeof apiKey.check }, news: Record<string, unknown>) =>
  ((await impl.check({}, { ...P, ...news })).failures ?? []).map((f) => f.reason);

describe("check failures never print secret values", () => {
  it("(7) an invalid Template env entry names the variable and the rule, not its value", async () => {
    const got = await reasons(template, { name: "t", image: "alpine", env: { "1BAD": SECRET } });
    expect(got.join("\n")).toMatch(/env\.1BAD: .*letters, digits and _/);
    expect(got.join("\n")).not.toContain(SECRET);
  });

  it("(7) an unknown Instance property is named without printing any input", async () => {
    const got = await reasons(instance, { offerId: 1, image: "alpine", env: { TOKEN: SECRET }, lable: "x" });
    expect(got).toEqual(["lable is not an Instance property; did you mean label?"]);
  });

  it("(7) a registry password of the wrong type is not printed", async () => {
    const got = await reasons(template, { name: "t", image: "alpine", dockerLoginPass: ["s3cr3t-pass"] });
    expect(got.join("\n")).toMatch(/dockerLoginPass: must be a string/);
    expect(got.join("\n")).not.toContain("s3cr3t-pass");
  });

  it("(7) non-secret values are still shown", async () => {
    expect(await reasons(template, { name: "t", image: "alpine", runtype: "vnc" })).toEqual([
      'runtype: must be one of ssh, jupyter, args (got "vnc")',
    ]);
  });
});

describe("unknown properties", () => {
  const cases: Array<[string, { check: typeof apiKey.check }, Record<string, unknown>, string, string]> = [
    ["ApiKey", apiKey, { name: "k" }, "permisions", "permissions"],
    ["EnvVar", envVar, { key: "A", value: "b" }, "vlaue", "value"],
    ["Instance", instance, { offerId: 1, image: "alpine" }, "diskGB", "diskGb"],
    ["MaintenanceWindow", maintenanceWindow, { machineIds: [1], startTime: Math.floor(Date.now() / 1000) + 86400 }, "duration", "durationHours"],
    ["RsyncCopy", rsyncCopy, { srcId: 1, srcPath: "/a", dstPath: "/b" }, "dstID", "dstId"],
    ["SshKey", sshKey, { publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl x" }, "publickey2", "publicKey"],
    ["SubaccountKeyRotation", subaccountKeyRotation, { all: true }, "trigers", "triggers"],
    ["Template", template, { name: "t", image: "alpine" }, "recommendedDiskSpace", "recommendedDiskSpaceGb"],
  ];
  it.each(cases)("(9) %s refuses an unknown name with the nearest known one", async (type, impl, valid, wrong, near) => {
    const got = await reasons(impl, { ...valid, [wrong]: 3 });
    const article = /^([AEIOU]|S[^aeiouy])/.test(type) ? "an" : "a";
    expect(got).toContain(`${wrong} is not ${article} ${type} property; did you mean ${near}?`);
  });

  it("(9) outputs and __provider are known properties", async () => {
    expect(await reasons(apiKey, { name: "k", key: "x", keyId: 3 })).toEqual([]);
    expect(await reasons(template, { name: "t", image: "alpine", hashId: "h", templateId: 3 })).toEqual([]);
  });

  it("(9) searchOffers refuses an unknown name and points into filters", async () => {
    const call = searchOffers({ gpuNmae: "RTX 4090" } as never, { client: {} as never });
    await expect(call).rejects.toThrow(VastValidationError);
    await expect(call).rejects.toThrow("gpuNmae is not a searchOffers property; did you mean filters.gpuName?");
  });

  it("(9) getWorkerGroupLogs refuses an unknown name", async () => {
    const call = getWorkerGroupLogs({ workerGroupId: 1, tial: 5 } as never, { client: {} as never });
    await expect(call).rejects.toThrow("tial is not a getWorkerGroupLogs property; did you mean tail?");
  });
});

describe("redaction of short secrets and env values", () => {
  it("(8) a secret shorter than 8 characters is redacted where it stands as a value", () => {
    registerSecret("pw12");
    expect(scrub('{"docker_login_pass_x":"pw12","n":"pw123"}')).toBe('{"docker_login_pass_x":"<redacted>","n":"pw123"}');
    expect(scrub("PASSWORD=pw12 next")).toBe("PASSWORD=<redacted> next");
    expect(scrub("pw12")).toBe("<redacted>");
  });

  it("(8) a short secret is not blanked inside other words", () => {
    registerSecret("on");
    expect(scrub("connection refused on port 22")).toBe("connection refused on port 22");
  });

  it("(8) env values are registered for redaction", () => {
    registerSecrets({ DB_PASSWORD: "zq-short", OTHER: "a-much-longer-env-value" });
    expect(scrub('env {"DB_PASSWORD":"zq-short"} and a-much-longer-env-value')).toBe('env {"DB_PASSWORD":"<redacted>"} and <redacted>');
  });
});

describe("image references", () => {
  it.each(["Not A Valid/Image Name!!", "library/UPPER", "alpine:x y", "alpine:", "-alpine", "alpine@sha256:short"])(
    "(10) Template and Instance refuse the image %j",
    async (image) => {
      const t = await reasons(template, { name: "t", image });
      expect(t.join("\n")).toMatch(/^image: must be an image reference \[registry\[:port\]\/\]path\[:tag\]\[@digest\]/);
      const i = await reasons(instance, { offerId: 1, image });
      expect(i.join("\n")).toMatch(/^image: must be an image reference/);
    },
  );

  it("(10) Template refuses a tag with a space", async () => {
    expect(await reasons(template, { name: "t", image: "alpine", tag: "x y" })).toEqual([
      'tag: must be a tag of letters, digits, _ . and - (not starting with . or -), at most 128 characters (got "x y")',
    ]);
  });

  it.each([
    "alpine",
    "pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime",
    "ghcr.io/org/app:v1",
    "localhost:5000/my_app__x/y-z",
    "registry.example.com:443/a/b@sha256:" + "a".repeat(64),
    "[::1]:5000/app",
  ])("(10) accepts the image %j", async (image) => {
    expect(await reasons(template, { name: "t", image })).toEqual([]);
    expect(await reasons(instance, { offerId: 1, image })).toEqual([]);
  });
});

describe("keys, caps and lengths", () => {
  it.each(["__proto__", "constructor", "prototype"])("(11) the env key %s is refused by Instance and Template", async (key) => {
    const env = JSON.parse(`{"${key}": "x", "OK": "y"}`) as Record<string, string>;
    const message = `env.${key}: "${key}" is not allowed as a name (__proto__, constructor, prototype are reserved)`;
    expect(await reasons(instance, { offerId: 1, image: "alpine", env })).toEqual([message]);
    expect(await reasons(template, { name: "t", image: "alpine", env })).toEqual([message]);
  });

  it("(11) a __proto__ key in Template extraFilters is refused", async () => {
    const extraFilters = JSON.parse('{"__proto__": {"gte": 1}}') as Record<string, unknown>;
    expect(await reasons(template, { name: "t", image: "alpine", extraFilters })).toEqual([
      'extraFilters.__proto__: "__proto__" is not allowed as a name (__proto__, constructor, prototype are reserved)',
    ]);
  });

  it("(11) runningTimeoutMinutes has a finite maximum of a day", async () => {
    expect(await reasons(instance, { offerId: 1, image: "alpine", runningTimeoutMinutes: 1e308 })).toEqual([
      "runningTimeoutMinutes: must be at most 1440 (minutes) (got 1e+308)",
    ]);
    expect(await reasons(instance, { offerId: 1, image: "alpine", runningTimeoutMinutes: 1440 })).toEqual([]);
  });

  it("(11) every numeric input has a finite maximum", async () => {
    const huge = 1e308;
    const inst = { offerId: 1, image: "alpine" };
    const checks: Array<[{ check: typeof apiKey.check }, Record<string, unknown>, string]> = [
      [instance, { ...inst, diskGb: huge }, "diskGb"],
      [instance, { image: "alpine", offer: { gpuRamGb: huge } }, "offer.gpuRamGb"],
      [instance, { image: "alpine", offer: { maxPricePerHour: huge } }, "offer.maxPricePerHour"],
      [template, { name: "t", image: "alpine", recommendedDiskSpaceGb: huge }, "recommendedDiskSpaceGb"],
      [maintenanceWindow, { machineIds: [1], startTime: Math.floor(Date.now() / 1000) + 86400, durationHours: huge }, "durationHours"],
    ];
    for (const [impl, news, property] of checks) {
      const got = ((await impl.check({}, { ...P, ...news })).failures ?? []).map((f) => f.property);
      expect(got).toContain(property);
    }
  });

  it("(11) a label is measured in bytes of UTF-8, as the service counts", async () => {
    const got = await reasons(instance, { offerId: 1, image: "alpine", label: "😀".repeat(300) });
    expect(got.join("\n")).toMatch(/^label: must be at most 1024 bytes of UTF-8 \(it has 1200\)/);
  });

  it("(11) onstart is measured in bytes: 4000 two-byte characters that do not compress are too long", async () => {
    let seed = 7;
    let script = "";
    for (let i = 0; i < 4000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      script += String.fromCharCode(0x400 + (seed % 200));
    }
    const got = await reasons(instance, { offerId: 1, image: "alpine", onstart: script });
    expect(got.join("\n")).toMatch(/^onstart: must be at most 4048 bytes/);
  });
});
