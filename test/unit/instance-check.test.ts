import { createInstanceToWire } from "../../provider/client/schemas-instances";
import { buildOfferQuery } from "../../provider/client/wire/filters";
import { ONSTART_LIMIT, decodeOnstart } from "../../provider/client/wire/onstart";
import { UNKNOWN } from "../../provider/resources/kit";
import { MARKER_ENV, checkInstanceInputs, typedInputs } from "../../provider/resources/instance/inputs";
import { offerQueryFor } from "../../provider/resources/instance/offers";
import { createBody } from "../../provider/resources/instance/rent";

const base = { offerId: 700001, image: "pytorch/pytorch:latest" };

function failuresOf(inputs: Record<string, unknown>) {
  return checkInstanceInputs(inputs).failures ?? [];
}

function reasonFor(inputs: Record<string, unknown>, property: string): string {
  const failure = failuresOf(inputs).find((f) => f.property === property);
  if (!failure) throw new Error(`no failure for ${property}: ${JSON.stringify(failuresOf(inputs))}`);
  return failure.reason;
}

function noisyScript(chars: number): string {
  // Pseudo-random text barely compresses, so even the encoded form stays long.
  let x = 12345;
  let out = "";
  while (out.length < chars) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += x.toString(36);
  }
  return out.slice(0, chars);
}

describe("Instance check", () => {
  it("accepts minimal inputs and applies the defaults", () => {
    const result = checkInstanceInputs({ ...base, __provider: "p" });
    expect(result.failures).toEqual([]);
    expect(result.inputs).toEqual({
      ...base,
      __provider: "p",
      targetState: "running",
      waitForRunning: true,
      runningTimeoutMinutes: 10,
      maxCreateAttempts: 3,
    });
  });

  it("keeps values the user gave instead of the defaults", () => {
    const result = checkInstanceInputs({ ...base, targetState: "stopped", waitForRunning: false, maxCreateAttempts: 5 });
    expect(result.inputs).toMatchObject({ targetState: "stopped", waitForRunning: false, maxCreateAttempts: 5 });
  });

  it("requires offerId or offer", () => {
    expect(reasonFor({ image: "x" }, "offerId")).toMatch(/offerId: give offerId .* or offer filters/);
  });

  it("refuses offerId together with offer filters", () => {
    expect(reasonFor({ ...base, offer: { gpuName: "RTX 4090" } }, "offer")).toBe("offer: give either offerId or offer filters, not both");
  });

  it("accepts offer filters alone", () => {
    expect(failuresOf({ image: "x", offer: { gpuName: "RTX 4090", numGpus: 1, gpuRamGb: 24, maxPricePerHour: 0.5, minReliability: 0.99, location: ["US", "SE"], verified: true } })).toEqual([]);
  });

  it("does not judge the offer choice while offerId is unknown in preview", () => {
    expect(failuresOf({ offerId: UNKNOWN, image: "x" })).toEqual([]);
    expect(failuresOf({ offerId: UNKNOWN, offer: { gpuName: "RTX 4090" }, image: "x" })).toEqual([]);
  });

  it("names unknown offer filters and bad filter values", () => {
    // Far from every name (five offer filters start with gpu): the names it takes are listed.
    expect(reasonFor({ image: "x", offer: { gpu: "A100" } }, "offer.gpu")).toMatch(/gpu is not a property of offer; it takes .*\bgpuName\b/);
    expect(reasonFor({ image: "x", offer: { gpuNmae: "A100" } }, "offer.gpuNmae")).toMatch(/gpuNmae is not a property of offer; did you mean gpuName\?/);
    expect(reasonFor({ image: "x", offer: { minReliability: 1.5 } }, "offer.minReliability")).toBe(
      "offer.minReliability: must be between 0 and 1 (got 1.5)",
    );
    expect(reasonFor({ image: "x", offer: { numGpus: 1.5 } }, "offer.numGpus")).toMatch(/must be a whole number \(got 1.5\)/);
  });

  it("requires an image when no template is given", () => {
    expect(reasonFor({ offerId: 1 }, "image")).toBe("image: is required when no templateHashId is given");
    expect(failuresOf({ offerId: 1, templateHashId: "abc" })).toEqual([]);
  });

  it("refuses a numeric template id and names templateHashId", () => {
    expect(reasonFor({ ...base, templateId: 42 }, "templateId")).toMatch(/templateId: is not accepted: pass templateHashId/);
  });

  it("refuses a VM without SSH keys", () => {
    expect(reasonFor({ ...base, vm: true }, "vm")).toMatch(/vm: a VM instance needs sshKeyIds/);
    expect(reasonFor({ ...base, vm: true, sshKeyIds: [] }, "vm")).toMatch(/needs sshKeyIds/);
    expect(failuresOf({ ...base, vm: true, sshKeyIds: [12] })).toEqual([]);
    expect(failuresOf({ ...base, vm: true, sshKeyIds: UNKNOWN })).toEqual([]);
  });

  it("accepts an onstart script that fits only after encoding", () => {
    const script = Array.from({ length: 300 }, (_, i) => `echo "step ${i}" >> /var/log/onstart.log`).join("\n");
    expect(script.length).toBeGreaterThan(ONSTART_LIMIT);
    expect(failuresOf({ ...base, onstart: script })).toEqual([]);
  });

  it("fails an onstart script too long even when encoded, naming the rule and the length but not the script", () => {
    const script = noisyScript(9000);
    const reason = reasonFor({ ...base, onstart: script }, "onstart");
    expect(reason).toMatch(/^onstart: must be at most 4048 bytes \(UTF-8\), also after compression and encoding \(the script has 9000 bytes, encoded \d+\)/);
    expect(reason).not.toContain(script.slice(0, 40));
  });

  it("checks env names, reserves the marker variable, and never echoes env values", () => {
    expect(reasonFor({ ...base, env: { "1BAD": "v" } }, "env.1BAD")).toMatch(/names must be letters, digits and _/);
    expect(reasonFor({ ...base, env: { [MARKER_ENV]: "x" } }, `env.${MARKER_ENV}`)).toMatch(/is reserved/);
    const secret = "hf_secret_value_123";
    const failures = failuresOf({ ...base, env: { TOKEN: secret, "bad name": secret } });
    expect(failures.length).toBeGreaterThan(0);
    expect(JSON.stringify(failures)).not.toContain(secret);
  });

  it("checks port mappings", () => {
    expect(reasonFor({ ...base, ports: ["8080:8080", "http"] }, "ports.1")).toMatch(/entries must be HOST:CONTAINER/);
    expect(failuresOf({ ...base, ports: ["8080:8080", "5000:5000/udp", "22"] })).toEqual([]);
  });

  it("checks the volume rules of volume_info", () => {
    expect(reasonFor({ ...base, volume: { createNew: true, volumeId: 5, mountPath: "/data" } }, "volume.size")).toBe(
      "volume.size: is required (GB) when createNew is true",
    );
    expect(reasonFor({ ...base, volume: { createNew: false, volumeId: 5, size: 10, mountPath: "/data" } }, "volume.size")).toMatch(
      /only used when createNew is true/,
    );
    expect(reasonFor({ ...base, volume: { createNew: false, volumeId: 5, mountPath: "data" } }, "volume.mountPath")).toMatch(
      /absolute path/,
    );
    expect(failuresOf({ ...base, volume: { createNew: true, volumeId: 5, size: 50, mountPath: "/data" } })).toEqual([]);
  });

  it("checks the scalar rules", () => {
    expect(reasonFor({ ...base, runtype: "vnc" }, "runtype")).toBe('runtype: must be one of ssh, jupyter, args (got "vnc")');
    expect(reasonFor({ ...base, targetState: "paused" }, "targetState")).toMatch(/must be one of running, stopped/);
    expect(reasonFor({ ...base, diskGb: 0 }, "diskGb")).toMatch(/must be greater than 0/);
    expect(reasonFor({ ...base, label: "x".repeat(1025) }, "label")).toMatch(/must be at most 1024 bytes of UTF-8/);
    expect(reasonFor({ ...base, maxCreateAttempts: 11 }, "maxCreateAttempts")).toMatch(/must be at most 10/);
    expect(reasonFor({ ...base, runningTimeoutMinutes: -1 }, "runningTimeoutMinutes")).toMatch(/must be greater than 0/);
    expect(reasonFor({ ...base, offerId: "700001" }, "offerId")).toMatch(/must be a number/);
  });

  it("never throws on arbitrary input", () => {
    for (const junk of [{}, { offer: null }, { env: [1, 2] }, { volume: "x" }, { offer: { location: [] } }, { sshKeyIds: "1" }]) {
      expect(() => checkInstanceInputs(junk as Record<string, unknown>)).not.toThrow();
    }
  });
});

describe("Instance offer filters", () => {
  it("sends gpuRamGb as a minimum in MB, cheapest first, rentable only", () => {
    const query = offerQueryFor({ gpuName: "RTX 4090", numGpus: 2, gpuRamGb: 24, maxPricePerHour: 0.7, minReliability: 0.99, location: "SE", verified: true });
    expect(buildOfferQuery(query)).toEqual({
      rentable: { eq: true },
      rented: { eq: false },
      gpu_name: { eq: "RTX 4090" },
      num_gpus: { eq: 2 },
      gpu_ram: { gte: 24000 },
      dph_total: { lte: 0.7 },
      reliability: { gte: 0.99 },
      geolocation: { eq: "SE" },
      verified: { eq: true },
      order: [["dph_total", "asc"]],
      type: "on-demand",
      limit: 10,
    });
  });

  it("turns a list of locations into an `in` filter", () => {
    expect(buildOfferQuery(offerQueryFor({ location: ["US", "CA"] })).geolocation).toEqual({ in: ["US", "CA"] });
  });
});

describe("Instance creation body", () => {
  it("converts inputs to the client's form, adds the marker and encodes a long onstart", () => {
    const script = Array.from({ length: 300 }, (_, i) => `echo "step ${i}"`).join("\n");
    const inputs = typedInputs({
      offerId: 1, templateHashId: "h1", env: { A: "1" }, ports: ["8000:8000"], onstart: script, diskGb: 40, runtype: "ssh",
      volume: { createNew: true, volumeId: 9, size: 20, mountPath: "/data" }, label: "l", vm: false,
    });
    const body = createBody(inputs, "m1");
    expect(createInstanceToWire(body).env).toEqual({ A: "1", "-p 8000:8000": "1", [MARKER_ENV]: "m1" });
    expect(body).toMatchObject({
      templateHashId: "h1",
      env: { A: "1", [MARKER_ENV]: "m1" },
      ports: ["8000:8000"],
      disk: 40,
      runtype: "ssh_proxy",
      volumeInfo: { createNew: true, volumeId: 9, size: 20, mountPath: "/data" },
      label: "l",
      targetState: "running",
      vm: false,
    });
    const sent = createInstanceToWire(body).onstart as string;
    expect(sent.length).toBeLessThanOrEqual(ONSTART_LIMIT);
    expect(decodeOnstart(sent)).toBe(script);
    expect(body).not.toHaveProperty("templateId");
  });

  it("sends a short onstart as it is", () => {
    expect(createInstanceToWire(createBody(typedInputs({ offerId: 1, image: "x", onstart: "echo hi" }), "m")).onstart).toBe("echo hi");
  });
});
