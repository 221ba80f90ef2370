/**
 * Webhook through Pulumi's own dynamic-provider plugin, with the package installed from its
 * packed tarball: check, create, read, diff, update (fields and secret rotation) and delete as
 * the engine calls them, a killed run's webhook adopted, against the simulator.
 */
import { createClient, type VastClient } from "../../provider/client";
import { dynamicUrn, UNKNOWN_VALUE } from "pulumi-vastai/testing";
import { useContract } from "./harness";

jest.setTimeout(120_000);

type Props = Record<string, unknown>;

const fx = useContract("webhook", { simulator: { bootMs: 0 } });
let client: VastClient;

beforeAll(() => {
  client = createClient({ apiKey: fx.sim.apiKey, apiUrl: fx.sim.url, runUrl: fx.sim.runUrl, pacing: false });
});

const urn = (name: string) => dynamicUrn("dev", "proj", "Webhook", name);
const withProvider = (props: Props): Props => ({ __provider: fx.serialized.webhook, ...props });

async function up(name: string, props: Props) {
  const { inputs, failures } = await fx.plugin.check(urn(name), {}, withProvider(props));
  expect(failures).toEqual([]);
  return { inputs, ...(await fx.plugin.create(urn(name), inputs)) };
}

test("Webhook: created with its secret, fields edited in place, secret rotated by trigger, drift read back, deleted", async () => {
  const u = urn("ops");
  const made = await up("ops", { name: "ops", url: "https://ops.example.com/vast", eventTypes: ["client:low_credit"], rotateSecretTrigger: 1 });
  const secret = made.properties.secret as string;
  expect(secret).toMatch(/^whsec_/);
  expect(made.properties).toMatchObject({ webhookId: Number(made.id), adopted: false, name: "ops", eventTypes: ["client:low_credit"] });
  expect((await client.webhooks.list()).map((w) => [w.id, w.url])).toEqual([[Number(made.id), "https://ops.example.com/vast"]]);

  const preview = await fx.plugin.check(u, made.properties, withProvider({ url: UNKNOWN_VALUE, eventTypes: ["client:low_credit"] }));
  expect(preview.failures).toEqual([]);
  const bad = await fx.plugin.check(u, made.properties, withProvider({ url: "ftp://x.example.com", eventTypes: ["client:low_credit"] }));
  expect(bad.failures).toEqual([{ property: "url", reason: 'url: must use http or https (got the scheme ftp) (got "ftp://x.example.com")' }]);

  const edited = { ...made.inputs, eventTypes: ["client:low_credit", "host:machine_offline"], url: "https://ops.example.com/v2" };
  expect(await fx.plugin.diff(u, made.id, made.properties, edited)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const updated = await fx.plugin.update(u, made.id, made.properties, edited);
  expect(updated.properties).toMatchObject({ secret, url: "https://ops.example.com/v2", eventTypes: ["client:low_credit", "host:machine_offline"] });

  const rotated = await fx.plugin.update(u, made.id, updated.properties, { ...edited, rotateSecretTrigger: 2 });
  expect(rotated.properties.secret).toMatch(/^whsec_/);
  expect(rotated.properties.secret).not.toBe(secret);
  expect(rotated.properties.webhookId).toBe(Number(made.id));

  await client.webhooks.update(Number(made.id), { eventTypes: ["client:outbid"] });
  const read = await fx.plugin.read(u, made.id, rotated.properties);
  expect(read.properties).toMatchObject({ eventTypes: ["client:outbid"], secret: rotated.properties.secret, name: "ops" });

  await fx.plugin.delete(u, made.id, rotated.properties);
  expect(await client.webhooks.list()).toEqual([]);
  expect((await fx.plugin.read(u, made.id, rotated.properties)).id).toBe("");
});

test("Webhook: an unknown event type fails the create with the nearest real one, and nothing is made", async () => {
  const { inputs } = await fx.plugin.check(urn("typo"), {}, withProvider({ url: "https://ops.example.com/vast", eventTypes: ["client:lowcredit"] }));
  await expect(fx.plugin.create(urn("typo"), inputs)).rejects.toThrow(/eventTypes: "client:lowcredit" is not a notification type; did you mean client:low_credit\?/);
  expect(await client.webhooks.list()).toEqual([]);
});

test("Webhook: a create repeated after a run that never recorded it adopts the webhook and rotates its secret", async () => {
  const props = { url: "https://ops.example.com/vast", eventTypes: ["client:low_credit"], __identity: "proj/dev/Webhook/again" };
  const first = await up("again", props);
  const second = await up("again", props);
  expect(second.id).toBe(first.id);
  expect(second.properties.adopted).toBe(true);
  expect(second.properties.secret).not.toBe(first.properties.secret);
  expect((await client.webhooks.list()).map((w) => String(w.id))).toEqual([first.id]);
  await fx.plugin.delete(urn("again"), second.id, second.properties);
});
