/**
 * Issue 35 item 4: under the real CLI, a refresh made more list calls than the offline bench.
 * The plugin configures each kind of resource when it first serves one, and that dropped the
 * client, and with it the shared reader a refresh had already filled: the Instances read after
 * another kind's first read were listed again. Through Pulumi's own plugin, list calls counted
 * at the simulator.
 */
import { useInstanceContract } from "./harness";

type Props = Record<string, unknown>;

jest.setTimeout(120_000);

const { fx, urn } = useInstanceContract();

const isList = (r: { method: string; path: string }) => r.method === "GET" && /^\/api\/v[01]\/instances\/?$/.test(r.path);

test("35 a refresh reads its Instances from the listing it made, also after the plugin configured another kind", async () => {
  const made: Array<{ id: string; properties: Props; inputs: Props; name: string }> = [];
  for (let i = 0; i < 6; i++) {
    const name = `listed-${i}`;
    const { inputs, failures } = await fx.plugin.check(urn(name), {}, { __provider: fx.provider, offerId: 700001 + i, image: "pytorch/pytorch", label: name });
    expect(failures).toEqual([]);
    const created = await fx.plugin.create(urn(name), inputs);
    made.push({ ...created, inputs, name });
  }
  await fx.takeRequests();
  const readAll = () => Promise.all(made.map((m) => fx.plugin.read(urn(m.name), m.id, m.properties, m.inputs)));

  const first = await readAll();
  expect(first.map((r) => r.id)).toEqual(made.map((m) => m.id));
  const firstLists = (await fx.takeRequests()).filter(isList).length;
  expect(firstLists).toBeGreaterThan(0);

  // Another kind's first call: the plugin configures its provider (same stack configuration).
  await fx.plugin.read(`urn:pulumi:dev::proj::pulumi-nodejs:dynamic:SshKey::other`, "999999", { __provider: fx.serialized.sshKey }).catch(() => undefined);
  await fx.takeRequests();

  const again = await readAll();
  expect(again.map((r) => r.id)).toEqual(made.map((m) => m.id));
  expect((await fx.takeRequests()).filter(isList)).toEqual([]);
});

test("35 a read right after create gives back the outputs create wrote: a refresh after up rewrites no state entry", async () => {
  const name = "same-outputs";
  const { inputs } = await fx.plugin.check(urn(name), {}, { __provider: fx.provider, offerId: 700011, image: "pytorch/pytorch", label: name });
  const made = await fx.plugin.create(urn(name), inputs);
  const read = await fx.plugin.read(urn(name), made.id, made.properties, inputs);
  // spentUsd accrues with time (a real change); every other field is as create wrote it.
  const without = (p: Props) => Object.fromEntries(Object.entries(p).filter(([k]) => k !== "spentUsd"));
  expect(Object.keys(read.properties).sort()).toEqual(Object.keys(made.properties).sort());
  expect(without(read.properties)).toStrictEqual(without(made.properties));
  expect(read.inputs).toStrictEqual(inputs);
});
