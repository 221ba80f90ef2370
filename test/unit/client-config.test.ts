import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { MissingApiKeyError, keyFilePath, resolveConfig } from "../../provider/config";

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
