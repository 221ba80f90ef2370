/** Which redirects the transport follows: only those that keep the method and the host. */
import { followsRedirect } from "../../provider/client/transport";

const FROM = "https://console.vast.ai/api/v0/secrets";

describe("followsRedirect", () => {
  it.each([
    ["PUT", 308, "/api/v0/secrets/"],
    ["DELETE", 307, "https://console.vast.ai/api/v0/secrets/"],
    ["POST", 301, "/api/v0/secrets/"],
    ["GET", 302, "/api/v0/secrets/"],
    ["GET", 303, "/api/v0/secrets/"],
  ])("follows %s %d to %s (same method, same host)", (method, status, location) => {
    expect(followsRedirect(method, FROM, status, location)).toBe(true);
  });

  it.each<[string, number, string | undefined, string]>([
    ["POST", 303, "/api/v0/secrets/", "a 303 would turn the write into a GET"],
    ["GET", 308, "https://elsewhere.example/api/v0/secrets/", "another host would not get the key"],
    ["GET", 308, "http://console.vast.ai/api/v0/secrets/", "a downgrade to plain HTTP"],
    ["GET", 308, undefined, "no Location"],
    ["GET", 304, "/x", "not a redirect"],
  ])("does not follow %s %d to %s: %s", (method, status, location) => {
    expect(followsRedirect(method, FROM, status, location)).toBe(false);
  });
});
