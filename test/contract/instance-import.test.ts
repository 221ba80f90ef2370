/**
 * Taking over an instance rented outside the program (`importId`) through Pulumi's own
 * dynamic-provider plugin, against the simulator: Pulumi's `import` option does not reach
 * dynamic providers, so the input is the package's own. Import with matching inputs (no
 * rental), empty next diff, an in-place change, refresh then an empty diff, delete; and the
 * mismatch case failing clearly with the instance untouched.
 */
import { PluginCallError, dynamicUrn } from "pulumi-vastai/testing";
import { createClient } from "../../provider/client";
import { useContract } from "./harness";

type Props = Record<string, unknown>;

const fx = useContract("instance", {
  simulator: { bootMs: 30 },
  config: { "vastai:pollIntervalMs": "5" },
});

const urn = (name: string) => dynamicUrn("dev", "proj", "Instance", name);
const writes = async () => (await fx.takeRequests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);

async function rentOutside(): Promise<number> {
  const client = createClient({ apiKey: fx.sim.apiKey, apiUrl: fx.sim.url, runUrl: fx.sim.runUrl, pacing: false });
  const { id } = await client.instances.create(700001, { image: "pytorch/pytorch", env: { A: "1" }, label: "outside", disk: 20 });
  await fx.takeRequests();
  return id;
}

test("import a matching instance: no rental, empty diff, in-place change, refresh without diff, delete", async () => {
  const id = await rentOutside();
  const news: Props = { __provider: fx.provider, importId: String(id), image: "pytorch/pytorch", env: { A: "1" }, label: "outside", diskGb: 20 };
  const checked = await fx.plugin.check(urn("adopted"), {}, news);
  expect(checked.failures).toEqual([]);
  const created = await fx.plugin.create(urn("adopted"), checked.inputs);
  expect(created.id).toBe(String(id));
  expect(created.properties).toMatchObject({ imported: true, instanceId: id, actualStatus: "running" });
  expect(await writes()).toEqual([]);
  expect(await fx.plugin.diff(urn("adopted"), created.id, created.properties, checked.inputs)).toMatchObject({ changes: "none" });

  // an in-place change: a new label and env, same instance
  const changed = await fx.plugin.check(urn("adopted"), checked.inputs, { ...news, label: "mine", env: { A: "2" } });
  expect(await fx.plugin.diff(urn("adopted"), created.id, created.properties, changed.inputs)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const updated = await fx.plugin.update(urn("adopted"), created.id, created.properties, changed.inputs);
  expect(updated.properties).toMatchObject({ imported: true, label: "mine", lastUpdate: "in-place" });
  expect(await writes()).toEqual([`PUT /api/v0/instances/update_template/${id}/`, `PUT /api/v0/instances/${id}/`]);

  // refresh, then the next diff is empty
  const read = await fx.plugin.read(urn("adopted"), created.id, updated.properties, changed.inputs);
  expect(read.inputs).toMatchObject({ importId: String(id), label: "mine", env: { A: "2" }, image: "pytorch/pytorch" });
  expect(await fx.plugin.diff(urn("adopted"), created.id, read.properties, read.inputs)).toMatchObject({ changes: "none" });
  expect(await fx.plugin.diff(urn("adopted"), created.id, read.properties, changed.inputs)).toMatchObject({ changes: "none" });

  await fx.plugin.delete(urn("adopted"), created.id, read.properties);
  expect(fx.sim.state().instances).toEqual([]);
});

test("a mismatch that only a replacement could fix fails the import clearly; the instance is untouched", async () => {
  const id = await rentOutside();
  const news: Props = { __provider: fx.provider, importId: String(id), image: "nginx", diskGb: 80, label: "mine" };
  const { inputs } = await fx.plugin.check(urn("mismatch"), {}, news);
  const error = await fx.plugin.create(urn("mismatch"), inputs).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PluginCallError);
  expect((error as Error).message).toMatch(new RegExp(`cannot import instance ${id}: .*diskGb: declared 80, the service shows 20\\. Nothing on the service was changed`));
  expect(await writes()).toEqual([]);
  expect(fx.sim.state().instances).toEqual([expect.objectContaining({ id, label: "outside", image_uuid: "pytorch/pytorch:latest" })]);
});
