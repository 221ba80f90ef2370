import type { Exchange, ExchangeResult } from "../../provider/client";
import { resetRuntime, setClientOptions } from "../../provider/context";
import { UNKNOWN } from "../../provider/resources/kit";
import { IN_PLACE_KEYS, REPLACE_KEYS, changedInputs, diffInstance, diffOfInputs } from "../../provider/resources/instance/diff";
import { INPUT_KEYS, checkInstanceInputs } from "../../provider/resources/instance/inputs";

/** State as create leaves it: checked inputs plus outputs. */
function stateOf(inputs: Record<string, unknown>, outputs: Record<string, unknown> = {}) {
  return {
    __provider: "old-code",
    ...checkInstanceInputs(inputs).inputs,
    instanceId: 42,
    actualStatus: "running",
    intendedStatus: "running",
    sshHost: "10.0.0.1",
    marker: "m",
    ...outputs,
  };
}

const news = (inputs: Record<string, unknown>) => ({ __provider: "new-code", ...checkInstanceInputs(inputs).inputs });

const base = {
  offerId: 700001,
  image: "pytorch/pytorch",
  env: { A: "1" },
  ports: ["8000:8000"],
  onstart: "echo hi",
  volume: { createNew: false, volumeId: 3, mountPath: "/data" },
  diskGb: 20,
  runtype: "ssh",
  vm: false,
  label: "one",
};

describe("Instance diff of inputs", () => {
  it("sees no change when only the code or the outputs differ", () => {
    expect(diffOfInputs(stateOf(base), news(base))).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it.each([
    ["ports", ["9000:9000"]],
    ["offerId", 700002],
    ["volume", { createNew: false, volumeId: 4, mountPath: "/data" }],
    ["diskGb", 40],
    ["runtype", "jupyter"],
    ["vm", true],
  ])("replaces the instance when %s changes", (key, value) => {
    const result = diffOfInputs(stateOf(base), news({ ...base, [key]: value }));
    // The same given offer is rented again: the old instance holds it, so it is deleted first.
    expect(result).toEqual({ changes: true, replaces: [key], deleteBeforeReplace: key !== "offerId" });
  });

  it("23.13 a replacement that rents the same given offerId deletes the old instance first; with offer filters it creates first", () => {
    expect(diffOfInputs(stateOf(base), news({ ...base, diskGb: 40 })).deleteBeforeReplace).toBe(true);
    const filtered = { ...base, offerId: undefined, offer: { gpuName: "RTX 4090" } };
    expect(diffOfInputs({ ...stateOf(filtered), offerId: 700001 }, news({ ...filtered, diskGb: 40 })).deleteBeforeReplace).toBe(false);
  });

  it.each([
    ["label", "two"],
    ["targetState", "stopped"],
    ["sshKeyIds", [5]],
    ["waitForRunning", false],
    ["runningTimeoutMinutes", 20],
    ["maxCreateAttempts", 5],
    ["updatePolicy", "replace"],
  ])("changes %s in place", (key, value) => {
    expect(diffOfInputs(stateOf(base), news({ ...base, [key]: value }))).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  it.each([
    ["image", "other/image"],
    ["templateHashId", "hash-2"],
    ["env", { A: "2" }],
    ["onstart", "echo bye"],
    ["argsStr", "--serve"],
  ])("changes %s in place by default (same machine), and replaces under updatePolicy replace", (key, value) => {
    expect(diffOfInputs(stateOf(base), news({ ...base, [key]: value }))).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(diffOfInputs(stateOf(base), news({ ...base, updatePolicy: "in-place", [key]: value })).replaces).toEqual([]);
    const replacing = { ...base, updatePolicy: "replace" };
    expect(diffOfInputs(stateOf(replacing), news({ ...replacing, [key]: value }))).toEqual({ changes: true, replaces: [key], deleteBeforeReplace: true });
  });

  it("lists every changed property and exactly the replacing ones", () => {
    const result = diffOfInputs(stateOf(base), news({ ...base, image: "x", label: "two", diskGb: 30, targetState: "stopped" }));
    expect(changedInputs(stateOf(base), news({ ...base, image: "x", label: "two", diskGb: 30, targetState: "stopped" }))).toEqual([
      "diskGb", "image", "label", "targetState",
    ]);
    expect(result.replaces).toEqual(["diskGb"]);
  });

  it("classifies every input as either replacing or in place", () => {
    expect([...REPLACE_KEYS, ...IN_PLACE_KEYS].sort()).toEqual([...INPUT_KEYS].sort());
    expect(REPLACE_KEYS.filter((k) => IN_PLACE_KEYS.includes(k))).toEqual([]);
  });

  it("does not mistake the rented offerId output for an input when filters are used", () => {
    const filters = { ...base, offerId: undefined, offer: { gpuName: "RTX 4090" } };
    const old = stateOf(filters, { offerId: 700001 });
    expect(diffOfInputs(old, news(filters)).changes).toBe(false);
    expect(diffOfInputs(old, news({ ...filters, offer: { gpuName: "RTX 3090" } })).replaces).toEqual(["offer"]);
  });

  it("replaces when switching between offerId and filters", () => {
    const filters = { ...base, offerId: undefined, offer: { gpuName: "RTX 4090" } };
    const fromFilters = stateOf(filters, { offerId: 700001 });
    expect(diffOfInputs(fromFilters, news(base)).replaces).toEqual(["offer", "offerId"]);
    expect(diffOfInputs(stateOf(base), news(filters)).replaces).toEqual(["offer"]);
  });

  it("treats a value unknown in preview as a change of that property", () => {
    expect(diffOfInputs(stateOf(base), { ...news(base), diskGb: UNKNOWN }).replaces).toEqual(["diskGb"]);
    // A template edit in the same run (hashId unknown in preview) is an in-place update.
    expect(diffOfInputs(stateOf(base), { ...news(base), templateHashId: UNKNOWN })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(diffOfInputs(stateOf(base), { ...news(base), label: UNKNOWN })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });
});

describe("Instance diff consults the live status", () => {
  const requests: Exchange[] = [];
  let liveStatus: string | null = "running";
  let present = true;

  beforeEach(() => {
    requests.length = 0;
    resetRuntime();
    setClientOptions({
      apiKey: "unit-test-key",
      apiUrl: `http://127.0.0.1:9/${Math.random()}`,
      pacing: false,
      transport: async (exchange): Promise<ExchangeResult> => {
        requests.push(exchange);
        const instances = present ? [{ id: 42, actual_status: liveStatus, intended_status: "running" }] : [];
        const single = { instances: present ? instances[0] : null };
        const body = exchange.url.includes("/api/v1/instances") ? { instances, next_token: null, total_instances: instances.length } : single;
        return { status: 200, body: JSON.stringify(body), contentType: "application/json" };
      },
    });
  });

  afterAll(() => resetRuntime());

  it.each(["exited", "unknown", "offline"])("replaces the instance when it is %s", async (status) => {
    liveStatus = status;
    present = true;
    expect(await diffInstance("42", stateOf(base), news(base))).toEqual({ changes: true, replaces: ["actualStatus"], deleteBeforeReplace: true });
    expect(requests.every((r) => r.method === "GET")).toBe(true);
  });

  it("keeps a running instance and makes no write", async () => {
    liveStatus = "running";
    present = true;
    expect(await diffInstance("42", stateOf(base), news(base))).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    expect(requests.map((r) => r.method)).toEqual(["GET"]);
  });

  it("keeps the in-place change of a live instance as an update", async () => {
    liveStatus = "loading";
    present = true;
    expect(await diffInstance("42", stateOf(base), news({ ...base, label: "two" }))).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  it("replaces an instance that is gone", async () => {
    present = false;
    expect((await diffInstance("42", stateOf(base), news(base))).replaces).toEqual(["instanceId"]);
  });

  it("does not read the live status when inputs already force a replacement", async () => {
    liveStatus = "exited";
    present = true;
    expect((await diffInstance("42", stateOf(base), news({ ...base, diskGb: 99 }))).replaces).toEqual(["diskGb"]);
    expect(requests).toHaveLength(0);
  });
});
