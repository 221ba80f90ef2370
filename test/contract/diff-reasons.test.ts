/**
 * A change found on the service, not in the program, is named in the line the engine prints:
 * a dead instance's replacement shows `[diff: ~actualStatus]`, a Fleet heal `[diff: ~members]`,
 * instead of a bare `replace` / `update`. Through Pulumi's own dynamic-provider plugin, from the
 * package as a user installs it: its diff answer carries the property as a changed key and in
 * the detailed diff, which is what the engine prints from.
 */
import { dynamicUrn } from "pulumi-vastai/testing";
import { useContract } from "./harness";

jest.setTimeout(120_000);

type Props = Record<string, unknown>;

// Each diff reads the service afresh (no cached listing from the diff before).
const fx = useContract("instance", { simulator: { bootMs: 0 }, config: { "vastai:pollIntervalMs": "5", "vastai:liveCacheTtlMs": "0" } });

test("a dead instance's replacement names actualStatus (and an input changed beside it); an input change alone is left to the engine", async () => {
  const urn = dynamicUrn("dev", "proj", "Instance", "gpu");
  const news: Props = { __provider: fx.serialized.instance, offerId: 700004, image: "pytorch/pytorch", label: "a" };
  const { inputs } = await fx.plugin.check(urn, {}, news);
  const created = await fx.plugin.create(urn, inputs);
  const relabelled = (await fx.plugin.check(urn, inputs, { ...news, label: "b" })).inputs;

  // Alive: the engine compares the inputs itself (it prints `[diff: ~label]`).
  expect(await fx.plugin.diffShown(urn, created.id, created.properties, relabelled)).toEqual({
    changes: "some", replaces: [], deleteBeforeReplace: false, diffs: [], detailedDiff: {},
  });

  // Dead: replaced (the same given offer again, so the old one goes first).
  await fx.control("POST", `/instances/${created.id}/status`, { actual_status: "exited" });
  expect(await fx.plugin.diffShown(urn, created.id, created.properties, inputs)).toEqual({
    changes: "some", replaces: ["actualStatus"], deleteBeforeReplace: true, diffs: ["actualStatus"], detailedDiff: { actualStatus: "UPDATE_REPLACE" },
  });
  expect(await fx.plugin.diffShown(urn, created.id, created.properties, relabelled)).toEqual({
    changes: "some", replaces: ["actualStatus"], deleteBeforeReplace: true,
    diffs: ["actualStatus", "label"], detailedDiff: { actualStatus: "UPDATE_REPLACE", label: "UPDATE" },
  });
  await fx.plugin.delete(urn, created.id, created.properties);
});

test("a Fleet heal names members; a healthy fleet shows no change", async () => {
  const urn = dynamicUrn("dev", "proj", "Fleet", "workers");
  const news = { __provider: fx.serialized.fleet, __identity: "proj/dev/Fleet/workers", offer: { numGpus: 1, gpuRamGb: 24 }, image: "pytorch/pytorch", count: 2 };
  const { inputs } = await fx.plugin.check(urn, {}, news);
  const made = await fx.plugin.create(urn, inputs);
  const same = (await fx.plugin.check(urn, made.properties, news)).inputs;
  expect(await fx.plugin.diffShown(urn, made.id, made.properties, same)).toMatchObject({ changes: "none", diffs: [], detailedDiff: {} });

  const dead = (made.properties.members as Array<{ id: number }>)[0];
  await fx.control("POST", `/instances/${dead.id}/status`, { actual_status: "exited" });
  expect(await fx.plugin.diffShown(urn, made.id, made.properties, same)).toEqual({
    changes: "some", replaces: [], deleteBeforeReplace: false, diffs: ["members"], detailedDiff: { members: "UPDATE" },
  });
  await fx.plugin.delete(urn, made.id, made.properties);
});
