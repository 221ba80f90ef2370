/**
 * Issue 34 items 1-3 (the resource side): Instance `autostop`, `ttl`/`expiresAt` and `wake`
 * through Pulumi's own dynamic-provider plugin, from the package as a user installs it. The
 * guard's own stop or destroy is made here as the guard makes it (a state change to stopped, a
 * destroy of the instance, through the service's API), and the engine's answer is checked.
 */
import { createClient, onstartScript, type VastClient } from "../../provider/client";
import { GENERATION_KEY, IDENTITY_KEY, stackIdentityOf } from "../../provider/resources/kit/create-once";
import { startPlugin, useInstanceContract } from "./harness";

type Props = Record<string, unknown>;

jest.setTimeout(Number(process.env.AUTOSTOP_TEST_TIMEOUT ?? 120_000));

const { fx, urn, liveIds, writesSinceLast } = useInstanceContract();
let client: VastClient;
beforeAll(() => {
  client = createClient({ apiKey: fx.sim.apiKey, apiUrl: fx.sim.url, runUrl: fx.sim.runUrl, pacing: false });
});

const onstartOf = (id: string) => {
  const raw = fx.sim.state().instances.find((i) => String(i.id) === id)?.onstart;
  return typeof raw === "string" ? onstartScript(raw) : raw;
};

const USER_ONSTART = "echo user-start > /tmp/started; python3 -m http.server 8000 &";

test("34 create with autostop sends the guard in onstart beside the user's own; a refresh shows no drift; preview writes nothing", async () => {
  const news: Props = { __provider: fx.provider, offerId: 700001, image: "pytorch/pytorch", onstart: USER_ONSTART, autostop: { idleMinutes: 30 } };
  const { inputs, failures } = await fx.plugin.check(urn("box"), {}, news);
  expect(failures).toEqual([]);
  await writesSinceLast();
  const made = await fx.plugin.create(urn("box"), inputs);
  const sent = onstartOf(made.id) as string;
  // The guard is in the start command, the user's script is there whole, and no key is in it.
  expect(sent).not.toBe(USER_ONSTART);
  expect(sent).toContain(USER_ONSTART);
  expect(sent).toContain("CONTAINER_API_KEY");
  expect(sent).toMatch(/ I=30 /);
  expect(typeof made.properties.instanceApiKey).toBe("string");
  expect(sent).not.toContain(made.properties.instanceApiKey as string);
  // State keeps the user's own onstart; the guard's outputs say it runs.
  expect(made.properties).toMatchObject({ onstart: USER_ONSTART, actualStatus: "running", stoppedBy: null, expired: false });
  expect(made.properties.deadline).toBeUndefined();

  const read = await fx.plugin.read(urn("box"), made.id, made.properties, inputs);
  expect((read.inputs as Props).onstart).toBe(USER_ONSTART);
  await writesSinceLast();
  const again = await fx.plugin.check(urn("box"), read.properties, news);
  expect(await fx.plugin.diff(urn("box"), made.id, read.properties, again.inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
  // A changed idle time: the container is recreated on the same machine with the new guard (in place).
  const longer = await fx.plugin.check(urn("box"), read.properties, { ...news, autostop: { idleMinutes: 60 } });
  expect(await fx.plugin.diff(urn("box"), made.id, read.properties, longer.inputs)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  // Under updatePolicy "replace" the same change replaces, naming autostop.
  const replacing = await fx.plugin.check(urn("box"), read.properties, { ...news, autostop: { idleMinutes: 60 }, updatePolicy: "replace" });
  expect((await fx.plugin.diff(urn("box"), made.id, read.properties, replacing.inputs)).replaces).toEqual(expect.arrayContaining(["autostop"]));
  // Check and diff (a preview) made no write.
  expect(await writesSinceLast()).toEqual([]);
  const updated = await fx.plugin.update(urn("box"), made.id, read.properties, longer.inputs);
  expect(await writesSinceLast()).toEqual([`PUT /api/v0/instances/update_template/${made.id}/`]);
  expect(onstartOf(made.id)).toMatch(/ I=60 /);
  expect(onstartOf(made.id)).toContain(USER_ONSTART);
  expect(updated.properties).toMatchObject({ actualStatus: "running", lastUpdate: "in-place" });
  await fx.plugin.delete(urn("box"), made.id, updated.properties);
});

test("34 runtype args carries the guard in the container's command, keeping the user's", async () => {
  const news: Props = { __provider: fx.provider, offerId: 700002, image: "vllm/vllm-openai", runtype: "args", argsStr: "--model facebook/opt-125m", ttl: "2h" };
  const { inputs, failures } = await fx.plugin.check(urn("args"), {}, news);
  expect(failures).toEqual([]);
  const made = await fx.plugin.create(urn("args"), inputs);
  const row = fx.sim.state().instances.find((i) => String(i.id) === made.id) as Props;
  expect(String(row.args_str ?? row.argsStr)).toContain("--model facebook/opt-125m");
  expect(String(row.args_str ?? row.argsStr)).toContain(String(made.properties.deadline));
  expect(made.properties.argsStr).toBe("--model facebook/opt-125m");
  await fx.plugin.delete(urn("args"), made.id, made.properties);
});

test("34 an instance stopped by its autostop is neither restarted nor replaced by the next up, shows stoppedBy autostop; wake starts it", async () => {
  const news: Props = { __provider: fx.provider, offerId: 700003, image: "alpine", autostop: { idleMinutes: 15, action: "stop" } };
  const { inputs } = await fx.plugin.check(urn("idle"), {}, news);
  const made = await fx.plugin.create(urn("idle"), inputs);
  const id = Number(made.id);
  // The guard's call: the instance's state set to stopped (intended_status stopped).
  await client.instances.stop(id);
  await writesSinceLast();
  // The diff of the next up, from state as create left it (no refresh): nothing to do.
  expect(await fx.plugin.diff(urn("idle"), made.id, made.properties, inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
  const read = await fx.plugin.read(urn("idle"), made.id, made.properties, inputs);
  expect(read.properties).toMatchObject({ intendedStatus: "stopped", stoppedBy: "autostop", targetState: "running" });
  expect((read.inputs as Props).targetState).toBe("running");
  expect(await fx.plugin.diff(urn("idle"), made.id, read.properties, inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
  expect(await writesSinceLast()).toEqual([]);
  // Another change (the label) is applied without starting it or waiting for it to run.
  const labelled = await fx.plugin.check(urn("idle"), read.properties, { ...news, label: "idle-box" });
  const relabelled = await fx.plugin.update(urn("idle"), made.id, read.properties, labelled.inputs);
  expect(await writesSinceLast()).toEqual([`PUT /api/v0/instances/${id}/`]);
  expect(relabelled.properties).toMatchObject({ stoppedBy: "autostop", intendedStatus: "stopped" });
  // wake: the program asks: the update starts it and waits for running.
  const woken = await fx.plugin.check(urn("idle"), relabelled.properties, { ...news, label: "idle-box", wake: "monday" });
  expect(await fx.plugin.diff(urn("idle"), made.id, relabelled.properties, woken.inputs)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const started = await fx.plugin.update(urn("idle"), made.id, relabelled.properties, woken.inputs);
  expect(started.properties).toMatchObject({ actualStatus: "running", intendedStatus: "running", stoppedBy: null });
  expect(await writesSinceLast()).toEqual([`PUT /api/v0/instances/${id}/`]);
  // Stopped by its guard again, the machine showing it exited (as a stopped container often
  // is): still not dead, so not replaced (the replace rule's exited is a container that died).
  await client.instances.stop(id);
  await fx.control("POST", `/instances/${id}/status`, { actual_status: "exited" });
  expect(await fx.plugin.diff(urn("idle"), made.id, started.properties, woken.inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
  const exited = await fx.plugin.read(urn("idle"), made.id, started.properties, woken.inputs);
  expect(exited.properties).toMatchObject({ actualStatus: "exited", stoppedBy: "autostop" });
  await fx.plugin.delete(urn("idle"), made.id, exited.properties);
});

test("34 a ttl becomes a fixed deadline at create, kept by later updates; an instance destroyed at it is not re-created and shows expired", async () => {
  const news: Props = { __provider: fx.provider, offerId: 700004, image: "alpine", ttl: "8h" };
  const before = Date.now();
  const { inputs } = await fx.plugin.check(urn("ttl"), {}, news);
  const made = await fx.plugin.create(urn("ttl"), inputs);
  const deadline = Date.parse(made.properties.deadline as string);
  expect(deadline).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 8 * 3600_000);
  expect(deadline).toBeLessThanOrEqual(Date.now() + 8 * 3600_000);
  expect(onstartOf(made.id)).toContain(made.properties.deadline as string);
  // A later up with the same ttl keeps the deadline (no diff, and an update of the label keeps it).
  const relabel = await fx.plugin.check(urn("ttl"), made.properties, { ...news, label: "later" });
  const updated = await fx.plugin.update(urn("ttl"), made.id, made.properties, relabel.inputs);
  expect(updated.properties.deadline).toBe(made.properties.deadline);

  // The deadline passes (state as it stands then: its deadline is behind) and the guard destroys it.
  const passed = { ...updated.properties, deadline: new Date(Date.now() - 60_000).toISOString().replace(/\.\d{3}Z$/, "Z") };
  await client.instances.destroy(Number(made.id));
  expect(liveIds()).not.toContain(made.id);
  await writesSinceLast();
  expect(await fx.plugin.diff(urn("ttl"), made.id, passed, relabel.inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
  const read = await fx.plugin.read(urn("ttl"), made.id, passed, relabel.inputs);
  expect(read.id).toBe(made.id);
  expect(read.properties).toMatchObject({ expired: true, stoppedBy: "ttl", actualStatus: null, hourlyCost: 0 });
  expect(await fx.plugin.diff(urn("ttl"), made.id, read.properties, relabel.inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
  expect(await writesSinceLast()).toEqual([]);
  expect(liveIds()).not.toContain(made.id);
  // A new deadline rents it again (a replacement, naming ttl; the same offerId: the old goes first).
  const longer = await fx.plugin.check(urn("ttl"), read.properties, { ...news, label: "later", ttl: "10h" });
  expect(await fx.plugin.diff(urn("ttl"), made.id, read.properties, longer.inputs)).toEqual({ changes: "some", replaces: ["ttl"], deleteBeforeReplace: true });
  // Deleting the expired resource is fine (the instance is already gone).
  await fx.plugin.delete(urn("ttl"), made.id, read.properties);
});

test("34 an instance from a template keeps the template's onstart beside the guard, also after it moves to another template", async () => {
  const one = (await client.templates.create({ name: "guard-one", image: "pytorch/pytorch", onstart: "echo from-template-one", runtype: "ssh" })).template;
  const two = (await client.templates.create({ name: "guard-two", image: "pytorch/pytorch", onstart: "echo from-template-two", runtype: "ssh" })).template;
  const news: Props = { __provider: fx.provider, offerId: 700005, templateHashId: one.hashId, autostop: { idleMinutes: 30 } };
  const { inputs } = await fx.plugin.check(urn("tpl"), {}, news);
  const made = await fx.plugin.create(urn("tpl"), inputs);
  expect(onstartOf(made.id)).toContain("echo from-template-one");
  expect(onstartOf(made.id)).toMatch(/ I=30 /);
  // No drift: the program declares no onstart of its own.
  const read = await fx.plugin.read(urn("tpl"), made.id, made.properties, inputs);
  expect(await fx.plugin.diff(urn("tpl"), made.id, read.properties, inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
  // Another template: the service would run its start command instead of the guarded one, so the guarded one is sent again.
  const moved = await fx.plugin.check(urn("tpl"), read.properties, { ...news, templateHashId: two.hashId });
  const updated = await fx.plugin.update(urn("tpl"), made.id, read.properties, moved.inputs);
  expect(onstartOf(made.id)).toContain("echo from-template-two");
  expect(onstartOf(made.id)).toMatch(/ I=30 /);
  // The guard removed: the template's own start command comes back, without the guard.
  const plain = await fx.plugin.check(urn("tpl"), updated.properties, { __provider: fx.provider, offerId: 700005, templateHashId: two.hashId });
  const unguarded = await fx.plugin.update(urn("tpl"), made.id, updated.properties, plain.inputs);
  expect(onstartOf(made.id)).toBe("echo from-template-two");
  await fx.plugin.delete(urn("tpl"), made.id, unguarded.properties);
});

test("34 an expiresAt that has passed since it was set is not an error: the instance has expired", async () => {
  const olds: Props = { offerId: 700001, image: "alpine", expiresAt: "2026-01-01T00:00:00Z" };
  const { failures } = await fx.plugin.check(urn("old"), olds, { __provider: fx.provider, ...olds });
  expect(failures).toEqual([]);
});

test("34 wake starts an instance its guard stopped only within the stack's budget (vastai:maxHourlyCost)", async () => {
  const budgeted = (budget: string) =>
    startPlugin({ "vastai:apiKey": fx.sim.apiKey, "vastai:apiUrl": fx.sim.url, "vastai:runUrl": fx.sim.runUrl, "vastai:pollIntervalMs": "5", "vastai:maxHourlyCost": budget });
  const roomy = await budgeted("100");
  const tight = await budgeted("0.0001");
  try {
    const news: Props = {
      __provider: fx.provider, [IDENTITY_KEY]: stackIdentityOf("0123456789abcdef0123456789abcdef", "Instance", "wakey"), [GENERATION_KEY]: 1,
      offerId: 700006, image: "alpine", autostop: { idleMinutes: 10 },
    };
    const { inputs } = await roomy.check(urn("wakey"), {}, news);
    const made = await roomy.create(urn("wakey"), inputs);
    await client.instances.stop(Number(made.id));
    const woken = await tight.check(urn("wakey"), made.properties, { ...news, wake: "now" });
    await writesSinceLast();
    // The stack already runs above the tight budget (the stopped instance's disk): the start is refused, nothing sent.
    await expect(tight.update(urn("wakey"), made.id, made.properties, woken.inputs)).rejects.toThrow(/vastai:maxHourlyCost 0\.0001/);
    expect(await writesSinceLast()).toEqual([]);
    expect(fx.sim.state().instances.find((i) => String(i.id) === made.id)).toMatchObject({ intended_status: "stopped" });
    const started = await roomy.update(urn("wakey"), made.id, made.properties, woken.inputs);
    expect(started.properties).toMatchObject({ actualStatus: "running", stoppedBy: null });
    await roomy.delete(urn("wakey"), made.id, started.properties);
  } finally {
    await roomy.close();
    await tight.close();
  }
});
