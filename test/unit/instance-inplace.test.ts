import { VastApiError, VastConnectionError, VastOperationError, type Instance, type VastClient } from "../../provider/client";
import { InPlaceRefusedError, REFUSED_KEY, applyTemplateUpdate, reflectTemplate, templateReplaces, updateBody } from "../../provider/resources/instance/inplace";
import { checkInstanceInputs } from "../../provider/resources/instance/inputs";

const site = { method: "PUT", path: "/api/v0/instances/update_template/7/", endpoint: "instancesUpdateTemplate" };

function clientThat(fail?: unknown): { client: VastClient; calls: unknown[] } {
  const calls: unknown[] = [];
  const client = {
    instanceActions: {
      updateTemplate: async (id: number, body: unknown) => {
        calls.push([id, body]);
        if (fail) throw fail;
      },
    },
  } as unknown as VastClient;
  return { client, calls };
}

const olds = { image: "a", env: { A: "1" }, ports: ["8000:8000"], onstart: "echo", argsStr: "--a", marker: "m1" };

describe("in-place update body", () => {
  it("sends only changed keys; env keeps the marker and the ports; removed onstart/args are cleared", () => {
    expect(updateBody(olds, { ...olds, image: "b" }, ["image"], "MK")).toEqual({ image: "b" });
    expect(updateBody(olds, { ...olds, env: { B: "2" } }, ["env"], "MK")).toEqual({ env: { B: "2", MK: "m1" }, ports: ["8000:8000"] });
    expect(updateBody(olds, { image: "a" }, ["onstart", "argsStr"], "MK")).toEqual({ onstart: "", argsStr: "" });
    expect(updateBody(olds, { ...olds, templateHashId: "h2" }, ["templateHashId"], "MK")).toEqual({ templateHashId: "h2" });
  });

  it("replaces template keys only under updatePolicy replace", () => {
    expect(templateReplaces(["image", "label"], { updatePolicy: "replace" })).toEqual(["image"]);
    expect(templateReplaces(["image"], { updatePolicy: "in-place" })).toEqual([]);
    expect(templateReplaces(["image"], {})).toEqual([]);
  });

  it("after a refusal recorded in state, a change of a refused input falls back to replacing (all changed template inputs)", () => {
    const refused = { [REFUSED_KEY]: { keys: ["image"], reason: "machine busy" } };
    expect(templateReplaces(["env", "image", "label"], {}, refused)).toEqual(["env", "image"]);
    // Inputs the service did not refuse still change in place.
    expect(templateReplaces(["onstart"], {}, refused)).toEqual([]);
    expect(templateReplaces(["image"], {}, { [REFUSED_KEY]: { keys: "image" } })).toEqual([]);
  });

  it("updatePolicy accepts in-place and replace only, naming field, rule and value", () => {
    const r = checkInstanceInputs({ offerId: 1, image: "x", updatePolicy: "rebuild" });
    expect(r.failures).toEqual([expect.objectContaining({ property: "updatePolicy", reason: expect.stringMatching(/updatePolicy.*"in-place", "replace"/) })]);
    expect(checkInstanceInputs({ offerId: 1, image: "x", updatePolicy: "replace" }).failures).toEqual([]);
  });
});

describe("applying an in-place update", () => {
  it("calls the update endpoint once for changed keys, nothing when none changed", async () => {
    const { client, calls } = clientThat();
    expect(await applyTemplateUpdate(client, 7, olds, { ...olds }, "MK")).toBe(false);
    expect(await applyTemplateUpdate(client, 7, olds, { ...olds, image: "b", onstart: "x" }, "MK")).toBe(true);
    expect(calls).toEqual([[7, { image: "b", onstart: "x" }]]);
  });

  it.each([
    ["success false", new VastOperationError(site, "update_refused", "machine busy"), "machine busy"],
    ["HTTP 400", new VastApiError({ ...site, status: 400, code: "invalid_args", serverMessage: "bad image" }), "bad image"],
  ])("a refusal (%s) says the service refused, why, that the next up replaces, and names updatePolicy replace", async (_what, error, reason) => {
    const { client } = clientThat(error);
    const e = await applyTemplateUpdate(client, 7, olds, { ...olds, image: "b" }, "MK").catch((x: Error) => x);
    expect(e).toBeInstanceOf(InPlaceRefusedError);
    expect(e).toMatchObject({ keys: ["image"], reason });
    expect((e as Error).message).toBe(
      `Instance 7: the service refused the in-place update of image: ${reason}. Nothing was changed. ` +
        `The next pulumi up replaces the instance with a new rental for this change (the GPU it has now may not be rented again); ` +
        `revert the change to keep it, or set updatePolicy: "replace" to replace without trying in place. ` +
        `(${(error as Error).message})`,
    );
    expect((e as Error).message).toContain("PUT /api/v0/instances/update_template/7/");
  });

  it("a failure that is not a refusal (connection, 404, 429) does not suggest replacing", async () => {
    for (const error of [
      new VastConnectionError(site, "connection failed", { requestSent: false }),
      new VastApiError({ ...site, status: 404, code: "no_such_instance" }),
      new VastApiError({ ...site, status: 429 }),
    ]) {
      const e = await applyTemplateUpdate(clientThat(error).client, 7, olds, { ...olds, image: "b" }, "MK").catch((x: Error) => x);
      expect((e as Error).message).toMatch(/^Instance 7: the in-place update of image failed: /);
      expect((e as Error).message).not.toMatch(/updatePolicy/);
    }
  });
});

describe("drift of template inputs", () => {
  const inst = (over: Partial<Instance>): Instance => ({ id: 7, imageUuid: "a:latest", templateHashId: "h1", onstart: "echo", extraEnv: [["A", "1"], ["PULUMI_VASTAI_MARKER", "m1"]], ...over }) as Instance;
  const props = { image: "a", templateHashId: "h1", onstart: "echo", env: { A: "1" } };

  it("shows nothing when the service shows the declared values (image tag latest added by the service)", () => {
    expect(reflectTemplate(props, inst({}))).toEqual({});
  });

  it("shows the service's values where they differ; a declared variable missing is dropped", () => {
    expect(reflectTemplate(props, inst({ imageUuid: "b:2", templateHashId: "h2", onstart: "echo x", extraEnv: [["B", "2"]] }))).toEqual({
      image: "b:2", templateHashId: "h2", onstart: "echo x", env: {},
    });
    expect(reflectTemplate(props, inst({ extraEnv: [["A", "9"]] }))).toEqual({ env: { A: "9" } });
  });

  it("leaves undeclared properties alone", () => {
    expect(reflectTemplate({}, inst({ imageUuid: "z" }))).toEqual({});
  });
});
