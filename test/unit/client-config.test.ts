import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { createClient } from "../../provider/client";
import { DEFAULT_MAX_CONCURRENT_REQUESTS } from "../../provider/client/client";
import { MissingApiKeyError, keyFilePath, resolveConfig } from "../../provider/config";
import { configureRuntime, getClient, resetRuntime } from "../../provider/context";

function homeWithKey(content?: string): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "vast-home-"));
  if (content !== undefined) {
    fs.mkdirSync(path.dirname(keyFilePath(home)), { recursive: true });
    fs.writeFileSync(keyFilePath(home), content);
  }
  return home;
}

const config = (values: Record<string, string>) => (key: string) => values[key];

describe("resolveConfig", () => {
  const fileHome = homeWithKey("  key-from-file\n");
  const emptyHome = homeWithKey();

  it("takes the key from the explicit value first", () => {
    const r = resolveConfig({ apiKey: "explicit" }, { config: config({ "vastai:apiKey": "cfg" }), env: { VAST_API_KEY: "env" }, homeDir: fileHome });
    expect(r.apiKey).toBe("explicit");
  });

  it("then Pulumi config, then VAST_API_KEY, then the key file (trimmed)", () => {
    expect(resolveConfig({}, { config: config({ "vastai:apiKey": "cfg" }), env: { VAST_API_KEY: "env" }, homeDir: fileHome }).apiKey).toBe("cfg");
    expect(resolveConfig({}, { env: { VAST_API_KEY: "env" }, homeDir: fileHome }).apiKey).toBe("env");
    expect(resolveConfig({}, { env: {}, homeDir: fileHome }).apiKey).toBe("key-from-file");
  });

  it("skips blank values", () => {
    expect(resolveConfig({ apiKey: " " }, { config: config({ "vastai:apiKey": "" }), env: { VAST_API_KEY: "env" }, homeDir: emptyHome }).apiKey).toBe("env");
  });

  it("names all three ways to set a missing key in one sentence", () => {
    const run = () => resolveConfig({}, { env: {}, homeDir: emptyHome });
    expect(run).toThrow(MissingApiKeyError);
    expect(run).toThrow(
      `No Vast.ai API key found: set it with \`pulumi config set --secret vastai:apiKey <key>\`, or the VAST_API_KEY environment variable, or put it in the file ${keyFilePath(emptyHome)}.`,
    );
  });

  it("resolves URLs from explicit values, config, environment, then defaults", () => {
    const base = { env: {}, homeDir: fileHome };
    expect(resolveConfig({}, base)).toMatchObject({ apiUrl: "https://console.vast.ai", runUrl: "https://run.vast.ai" });
    expect(resolveConfig({}, { ...base, env: { VAST_URL: "http://127.0.0.1:9/", VAST_RUN_URL: "http://127.0.0.1:8" } })).toMatchObject({
      apiUrl: "http://127.0.0.1:9",
      runUrl: "http://127.0.0.1:8",
    });
    expect(
      resolveConfig({ runUrl: "http://x.test" }, { ...base, config: config({ "vastai:apiUrl": "http://cfg.test" }), env: { VAST_URL: "http://env.test" } }),
    ).toMatchObject({ apiUrl: "http://cfg.test", runUrl: "http://x.test" });
  });

  it("refuses a URL that is not http(s)", () => {
    expect(() => resolveConfig({ apiKey: "k", apiUrl: "console.vast.ai" }, { env: {} })).toThrow(/apiUrl "console.vast.ai" is not a URL/);
    expect(() => resolveConfig({ apiKey: "k", runUrl: "ftp://x" }, { env: {} })).toThrow(/runUrl "ftp:\/\/x" must use http or https/);
  });
});

describe("pacing settings", () => {
  const ENV = ["VASTAI_RATE_LIMIT_SCALE", "VASTAI_MAX_CONCURRENT_REQUESTS", "VAST_API_KEY"] as const;
  const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
  const stack = (values: Record<string, string>) =>
    configureRuntime({ config: { get: (key: string) => values[key] } } as unknown as pulumi.dynamic.ConfigureRequest);

  beforeEach(() => {
    resetRuntime();
    for (const k of ENV) delete process.env[k];
  });
  afterAll(() => {
    resetRuntime();
    for (const k of ENV) if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  });

  it("reach the client from stack config, else the environment, else the defaults", async () => {
    await stack({ "vastai:apiKey": "cfg-key-1234", "vastai:rateLimitScale": "2", "vastai:maxConcurrentRequests": "4" });
    expect(getClient()).toMatchObject({ rateLimitScale: 2, maxConcurrentRequests: 4 });
    await stack({ "vastai:apiKey": "cfg-key-1234" });
    process.env.VASTAI_RATE_LIMIT_SCALE = "1.5";
    process.env.VASTAI_MAX_CONCURRENT_REQUESTS = "3";
    expect(getClient()).toMatchObject({ rateLimitScale: 1.5, maxConcurrentRequests: 3 });
    delete process.env.VASTAI_RATE_LIMIT_SCALE;
    delete process.env.VASTAI_MAX_CONCURRENT_REQUESTS;
    expect(getClient()).toMatchObject({ rateLimitScale: 1, maxConcurrentRequests: DEFAULT_MAX_CONCURRENT_REQUESTS });
  });

  it("take effect when changed: the shared client is rebuilt, and kept while they stay", async () => {
    await stack({ "vastai:apiKey": "cfg-key-1234" });
    process.env.VASTAI_RATE_LIMIT_SCALE = "2";
    const first = getClient();
    expect(getClient()).toBe(first);
    process.env.VASTAI_RATE_LIMIT_SCALE = "3";
    expect(getClient()).not.toBe(first);
    expect(getClient().rateLimitScale).toBe(3);
  });

  it.each([
    ["rateLimitScale", "0", "a finite number greater than 0"],
    ["rateLimitScale", "-1", "a finite number greater than 0"],
    ["rateLimitScale", "fast", "a finite number greater than 0"],
    ["rateLimitScale", "Infinity", "a finite number greater than 0"],
    ["maxConcurrentRequests", "0", "a whole number of at least 1"],
    ["maxConcurrentRequests", "2.5", "a whole number of at least 1"],
  ])("refuses vastai:%s = %j, naming the setting, the rule and the value", async (name, value, rule) => {
    await stack({ "vastai:apiKey": "cfg-key-1234", [`vastai:${name}`]: value });
    expect(() => getClient()).toThrow(`vastai:${name} (or `);
    expect(() => getClient()).toThrow(`must be ${rule}, got "${value}"`);
  });

  it("are checked by the client itself too", () => {
    expect(() => createClient({ apiKey: "k-123456", rateLimitScale: 0 })).toThrow("rateLimitScale must be a positive number, got 0");
    expect(() => createClient({ apiKey: "k-123456", rateLimitScale: NaN })).toThrow("rateLimitScale must be a positive number, got NaN");
    expect(() => createClient({ apiKey: "k-123456", maxConcurrentRequests: 1.5 })).toThrow("maxConcurrentRequests must be a whole number of requests (1 or more), got 1.5");
  });
});
