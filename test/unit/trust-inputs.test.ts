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
