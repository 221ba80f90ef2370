/**
 * Serverless pieces without a service: the wire schemas of endpoint and worker-group listings
 * (the endpoint's key registered for redaction as it is read), the delete answer, and how a
 * refresh turns a listed object into inputs (drift only in what the program states).
 */
import { endpointListResponse, workerGroupListResponse, workersDeletedResponse } from "../../provider/client/schemas-serverless";
import { scrub } from "../../provider/client/redact";
import { liveInputs as endpointInputs } from "../../provider/resources/endpoint/provider";
import { liveInputs as groupInputs, provider } from "../../provider/resources/workerGroup/provider";

describe("serverless wire schemas", () => {
  it("reads an endpoint listing and registers each endpoint's key for redaction", () => {
    const key = "ep-key-3b9f0c1d2e4a5f6a7b8c";
    const [e] = endpointListResponse.parse({
      success: true,
      results: [{ id: 7, endpoint_name: "llm", max_workers: 4, target_util: 0.9, api_key: key, endpoint_state: "active", created_at: "2026-01-01T00:00:00Z" }],
    });
    expect(e).toMatchObject({ id: 7, name: "llm", maxWorkers: 4, targetUtil: 0.9, state: "active", apiKey: key });
    expect(scrub(`failed with ${key}`)).toBe("failed with <redacted>");
  });

  it("reads a worker group listing, ids given as numbers or digit strings, search parsed or not", () => {
    const [g] = workerGroupListResponse.parse({
      success: true,
      results: [{ id: "12", endpoint_id: 7, endpoint_name: "llm", template_hash: "abc", search_query: { gpu_ram: { gte: 23 } }, test_workers: 3, gpu_ram: 24 }],
    });
    expect(g).toMatchObject({ id: 12, endpointId: 7, endpointName: "llm", templateHash: "abc", searchQuery: { gpu_ram: { gte: 23 } }, testWorkers: 3, gpuRam: 24 });
    expect(g.searchParams).toBeUndefined();
  });

  it("an empty answer (`success: false`, no results) is an empty list", () => {
    expect(endpointListResponse.parse({ success: false, error: "invalid_args", msg: "No endpoints for user found" })).toEqual([]);
  });

  it("reads which workers a delete destroyed and which it could not", () => {
    expect(workersDeletedResponse.parse({ success: true, deleted_workers: [1, 2], failed_workers: [3], msg: "x" })).toEqual({ deletedWorkers: [1, 2], failedWorkers: [3] });
    expect(workersDeletedResponse.parse({ success: true })).toEqual({ deletedWorkers: [], failedWorkers: [] });
  });
});

describe("refresh inputs", () => {
  it("an endpoint reads back only the settings the program states", () => {
    const live = { id: 7, name: "llm", maxWorkers: 9, coldWorkers: 5, minLoad: 0 };
    expect(endpointInputs({ name: "llm", maxWorkers: 4 }, live)).toEqual({ name: "llm", maxWorkers: 9 });
  });

  it("a group keeps the endpoint id in its input form while it names the same endpoint", () => {
    const live = { id: 12, endpointId: 7, searchParams: "gpu_ram>=23", testWorkers: 1 };
    expect(groupInputs({ endpointId: "7", searchParams: "gpu_ram>=23", testWorkers: 3 }, live)).toEqual({ endpointId: "7", searchParams: "gpu_ram>=23", testWorkers: 1 });
    expect(groupInputs({ endpointId: "8", searchParams: "x" }, { ...live, searchParams: undefined })).toEqual({ endpointId: 7, searchParams: "x" });
  });
});

describe("WorkerGroup diff", () => {
  it("the same endpoint as a number or as the Endpoint's id string is no change; another endpoint is an update", async () => {
    const olds = { endpointId: "7", searchParams: "x", workerGroupId: 12 };
    expect(await provider.diff!("12", olds, { endpointId: 7, searchParams: "x" })).toMatchObject({ changes: false });
    expect(await provider.diff!("12", olds, { endpointId: "8", searchParams: "x" })).toMatchObject({ changes: true, replaces: [] });
  });
});
