/**
 * The client's own limits: an answer larger than the cap, a paged list whose token cycles, and
 * an API key that cannot be sent are clear errors naming the endpoint or the source, never the key.
 */
import { InvalidApiKeyError, resolveConfig } from "../../provider/config";
import { PagingLoopError, ResponseTooLargeError, createClient } from "../../provider/client";
import type { Exchange, ExchangeResult } from "../../provider/client/transport";

function clientAnswering(answer: (exchange: Exchange) => ExchangeResult, options: { maxResponseMB?: number } = {}) {
  const sent: Exchange[] = [];
  const client = createClient({
    apiKey: "k".repeat(64),
    apiUrl: "http://127.0.0.1:9",
    pacing: false,
    ...options,
    transport: async (exchange) => {
      sent.push(exchange);
      return answer(exchange);
    },
  });
  return { client, sent };
}

describe("response size cap", () => {
  it("(14) an answer over the cap is an error naming the endpoint and the cap, not retried", async () => {
    const big = JSON.stringify({ instances: [], pad: "x".repeat(2 * 1024 * 1024) });
    const { client, sent } = clientAnswering(() => ({ status: 200, body: big, contentType: "application/json" }), { maxResponseMB: 1 });
    const call = client.instances.list();
    await expect(call).rejects.toThrow(ResponseTooLargeError);
    await expect(client.instances.list()).rejects.toThrow(
      "GET /api/v0/instances/ (GET /api/v0/instances/) answered with more than 1 MB, the client's cap (maxResponseMB)",
    );
    expect(sent).toHaveLength(2);
    expect(sent[0].maxResponseBytes).toBe(1024 * 1024);
  });

  it("(14) the default cap is 64 MB and is passed to the transport", async () => {
    const { client, sent } = clientAnswering(() => ({ status: 200, body: '{"instances": []}', contentType: "application/json" }));
    await client.instances.list();
    expect(sent[0].maxResponseBytes).toBe(64 * 1024 * 1024);
  });
});

describe("paging", () => {
  it("(14) a next_token seen before stops paging with an error naming the endpoint", async () => {
    let pages = 0;
    const tokens = ["a", "b", "a"];
    const { client } = clientAnswering(() => {
      const token = tokens[pages++ % tokens.length];
      return { status: 200, body: JSON.stringify({ instances: [{ id: pages }], next_token: token }), contentType: "application/json" };
    });
    const call = client.instances.listAll(1);
    await expect(call).rejects.toThrow(PagingLoopError);
    await expect(call).rejects.toThrow("GET /api/v1/instances/: the service sent a next_token it had sent before (after 3 pages)");
    expect(pages).toBe(3);
  });
});

describe("API key validation", () => {
  it.each([
    ["a line break", "abcdef\nghij", "a control character (U+000A) at position 7 of 11"],
    ["a non-ASCII character", "abc\u00e9def", "a non-ASCII character (U+00E9) at position 4 of 7"],
    ["a space inside", "abc def", "a space (U+0020) at position 4 of 7"],
  ])("(14) a key with %s is refused naming the source, never the key", (_what, key, says) => {
    let error: unknown;
    try {
      resolveConfig({}, { env: { VAST_API_KEY: key }, homeDir: "/nonexistent" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidApiKeyError);
    const message = (error as Error).message;
    expect(message).toContain(`The Vast.ai API key from the VAST_API_KEY environment variable has ${says}`);
    expect(message).not.toContain(key.slice(0, 3));
  });

  it("(14) a key with surrounding blanks is trimmed, not refused", () => {
    expect(resolveConfig({ apiKey: "  abc123\n" }, { homeDir: "/nonexistent" }).apiKey).toBe("abc123");
  });
});
