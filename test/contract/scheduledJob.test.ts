/**
 * Issue 27 item 3: ScheduledJob through Pulumi's own dynamic-provider plugin, with the package
 * installed from its packed tarball: check, create, diff, update, read and delete as the engine
 * calls them, and the job carried out by the simulator on its (injected) clock with no engine
 * call at all: an interruptible instance stopped by a scheduled bid drop.
 */
import { createClient, type VastClient } from "../../provider/client";
import { dynamicUrn } from "pulumi-vastai/testing";
import { useContract } from "./harness";

jest.setTimeout(120_000);

type Props = Record<string, unknown>;

let clock = Date.parse("2026-12-07T06:00:00Z");
const fx = useContract("scheduledJob", { simulator: { bootMs: 0, now: () => clock } });
let client: VastClient;

beforeAll(() => {
  client = createClient({ apiKey: fx.sim.apiKey, apiUrl: fx.sim.url, runUrl: fx.sim.runUrl, pacing: false });
});

const urn = (name: string) => dynamicUrn("dev", "proj", "ScheduledJob", name);
const withProvider = (props: Props): Props => ({ __provider: fx.serialized.scheduledJob, ...props });

test("27.3 ScheduledJob: created in UTC fields, updated in place, run by the service with no up, drift read back, delete cancels", async () => {
  const { id: instanceId } = await client.instances.create(700001, { image: "alpine", price: 0.25 });
  const u = urn("evening-stop");
  const declared = { instanceId, action: "changeBid", price: 0.01, frequency: "DAILY", hour: 21, timeZone: "Europe/Berlin", start: "2026-12-07T00:00:00Z", end: "2027-03-01T00:00:00Z" };
  const bad = await fx.plugin.check(u, {}, withProvider({ ...declared, hour: 24 }));
  expect(bad.failures).toEqual([{ property: "hour", reason: "hour: must be an hour 0-23 (got 24)" }]);
  const { inputs, failures } = await fx.plugin.check(u, {}, withProvider(declared));
  expect(failures).toEqual([]);
  const made = await fx.plugin.create(u, inputs);
  expect(made.properties).toMatchObject({ jobId: Number(made.id), hourUtc: 20, dayOfWeekUtc: null, apiEndpoint: `/api/v0/instances/bid_price/${instanceId}/` });

  const edited = { ...inputs, hour: 20 };
  expect(await fx.plugin.diff(u, made.id, made.properties, edited)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const updated = await fx.plugin.update(u, made.id, made.properties, edited);
  expect(updated.properties).toMatchObject({ jobId: Number(made.id), hourUtc: 19 });

  // Nobody calls the plugin: the simulator's clock passes 20:00 Berlin (19:00 UTC).
  clock = Date.parse("2026-12-07T19:00:00Z");
  const row = await client.instances.get(instanceId);
  expect(row).toMatchObject({ actualStatus: "stopped", intendedStatus: "running" });

  await client.scheduledJobs.update(Number(made.id), {
    instanceId,
    apiEndpoint: `/api/v0/instances/bid_price/${instanceId}/`,
    requestMethod: "PUT",
    requestBody: { client_id: "me", price: 0.02, instance_id: instanceId },
    frequency: "DAILY",
    hourUtc: 19,
    start: "2026-12-07T00:00:00Z",
    end: "2027-03-01T00:00:00Z",
  });
  const read = await fx.plugin.read(u, made.id, updated.properties);
  expect(read.properties).toMatchObject({ price: 0.02, hour: 19, timeZone: "UTC" });

  await fx.plugin.delete(u, made.id, read.properties);
  expect(await client.scheduledJobs.list()).toEqual([]);
});
