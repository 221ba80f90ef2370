/**
 * Interruptible rentals, triggers and prepayment through Pulumi's own dynamic-provider plugin,
 * from the package as a user installs it, against the simulator: create a bid (with a
 * prepayment), change the bid and reboot in place, get outbid (the simulator's control API
 * raises the machine's price), replace it, delete.
 */
import * as http from "node:http";
import * as net from "node:net";
import { PluginCallError } from "pulumi-vastai/testing";
import { useInstanceContract } from "./harness";

type Props = Record<string, unknown>;

const { fx, urn, liveIds, writesSinceLast } = useInstanceContract();

test("a bid: create with a prepayment, change the bid and reboot in place, outbid -> replace, delete", async () => {
  const news: Props = { __provider: fx.provider, offer: { gpuName: "RTX 4090" }, image: "pytorch/pytorch", bidPricePerHour: 0.5, prepayAmount: 40, rebootTrigger: "1" };
  const checked = await fx.plugin.check(urn("spot"), {}, news);
  expect(checked.failures).toEqual([]);

  const created = await fx.plugin.create(urn("spot"), checked.inputs);
  expect(created.properties).toMatchObject({ offerId: 700001, isBid: true, outbid: false, pricePerHour: 0.5, actualStatus: "running" });
  expect(await writesSinceLast()).toEqual([`PUT /api/v0/asks/700001/`, `PUT /api/v0/instances/prepay/${created.id}/`]);
  expect(fx.sim.state().instances[0]).toMatchObject({ bid_price: 0.5, prepaid: 40 });

  // in place: a new bid and a new reboot trigger
  const changed = await fx.plugin.check(urn("spot"), checked.inputs, { ...news, bidPricePerHour: 0.55, rebootTrigger: "2" });
  expect(await fx.plugin.diff(urn("spot"), created.id, created.properties, changed.inputs)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const updated = await fx.plugin.update(urn("spot"), created.id, created.properties, changed.inputs);
  expect(updated.properties).toMatchObject({ pricePerHour: 0.55, actualStatus: "running", instanceId: Number(created.id) });
  expect(await writesSinceLast()).toEqual([`PUT /api/v0/instances/bid_price/${created.id}/`, `PUT /api/v0/instances/reboot/${created.id}/`]);
  expect(fx.sim.state().instances[0]).toMatchObject({ bid_price: 0.55, reboots: 1 });

  // outbid: a refresh shows it, the next diff replaces it (onOutbid replace by default)
  await fx.control("POST", "/machines/30001/market", { price: 0.6 });
  const read = await fx.plugin.read(urn("spot"), created.id, updated.properties, changed.inputs);
  expect(read.properties).toMatchObject({ outbid: true, actualStatus: "stopped", intendedStatus: "running", prepaidBalance: 40 });
  expect(await fx.plugin.diff(urn("spot"), created.id, read.properties, changed.inputs)).toEqual({ changes: "some", replaces: ["outbid"], deleteBeforeReplace: false });

  // the replacement: machine 30001 now asks more than the bid, so the next offer is rented
  const replacement = await fx.plugin.create(urn("spot"), changed.inputs);
  expect(replacement.properties).toMatchObject({ offerId: 700002, isBid: true, outbid: false, actualStatus: "running" });
  await fx.plugin.delete(urn("spot"), created.id, read.properties);
  expect(liveIds()).toEqual([replacement.id]);
  await fx.plugin.delete(urn("spot"), replacement.id, replacement.properties);
  expect(liveIds()).toEqual([]);
});

test("onOutbid rebid through the plugin: the diff updates in place and the update raises the bid", async () => {
  await fx.control("POST", "/reset");
  const news: Props = { __provider: fx.provider, offerId: 700001, image: "x", bidPricePerHour: 0.25, onOutbid: "rebid", maxBidPricePerHour: 1 };
  const { inputs } = await fx.plugin.check(urn("rebid"), {}, news);
  const created = await fx.plugin.create(urn("rebid"), inputs);
  await fx.control("POST", "/machines/30001/market", { price: 0.42 });
  expect(await fx.plugin.diff(urn("rebid"), created.id, created.properties, inputs)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  await writesSinceLast();
  const updated = await fx.plugin.update(urn("rebid"), created.id, created.properties, inputs);
  expect(updated.properties).toMatchObject({ outbid: false, actualStatus: "running", pricePerHour: 0.42 });
  expect(await writesSinceLast()).toEqual([`PUT /api/v0/instances/bid_price/${created.id}/`]);
  await fx.plugin.delete(urn("rebid"), created.id, updated.properties);
});

test("a bid the service rents on-demand fails the create with a clear error and leaves nothing", async () => {
  await fx.control("POST", "/reset");
  await fx.control("POST", "/bids", { ignore: 1 });
  const { inputs } = await fx.plugin.check(urn("trap"), {}, { __provider: fx.provider, offerId: 700001, image: "x", bidPricePerHour: 0.25 });
  const error = await fx.plugin.create(urn("trap"), inputs).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PluginCallError);
  expect((error as Error).message).toMatch(/rented it on-demand \(is_bid false\) although bidPricePerHour 0.25 was sent.*it was destroyed/s);
  expect(liveIds()).toEqual([]);
});

test("check failures of the spot inputs name the property and the rule", async () => {
  const { failures } = await fx.plugin.check(urn("bad"), {}, { __provider: fx.provider, offerId: 700001, image: "x", onOutbid: "rebid", prepayAmount: -1 });
  expect(failures.map((f) => f.property).sort()).toEqual(["maxBidPricePerHour", "onOutbid", "prepayAmount"]);
});

test("readiness through the plugin: an instance whose port never answers is destroyed and rented on another machine", async () => {
  await fx.control("POST", "/reset");
  const server = http.createServer((req, res) => {
    res.statusCode = req.url === "/ready" ? 200 : 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  try {
    // Machine 30001 publishes port 8000 where nothing listens, 30002 where the server answers.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const dead = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await fx.control("POST", "/machines/30001/ports", { ports: { "8000/tcp": dead } });
    await fx.control("POST", "/machines/30002/ports", { ports: { "8000/tcp": port } });
    // 0.002 minutes: the failing probe gives up after about 120 ms of real time.
    const news: Props = { __provider: fx.provider, offer: { gpuName: "RTX 4090" }, image: "x", ports: ["8000:8000"], readiness: { httpPath: "/ready", timeoutMinutes: 0.002 } };
    const { inputs, failures } = await fx.plugin.check(urn("ready"), {}, news);
    expect(failures).toEqual([]);
    await writesSinceLast();
    const created = await fx.plugin.create(urn("ready"), inputs);
    expect(created.properties).toMatchObject({ offerId: 700002, machineId: 30002, portMappings: { "8000/tcp": port }, publicIp: "127.0.0.1" });
    const writes = await writesSinceLast();
    expect(writes.filter((w) => w.startsWith("PUT /api/v0/asks/"))).toEqual(["PUT /api/v0/asks/700001/", "PUT /api/v0/asks/700002/"]);
    expect(writes.filter((w) => w.startsWith("DELETE "))).toHaveLength(1);
    expect(liveIds()).toEqual([created.id]);
    // A changed timeout is recorded only.
    const changed = await fx.plugin.check(urn("ready"), inputs, { ...news, readiness: { httpPath: "/ready", timeoutMinutes: 1 } });
    expect(await fx.plugin.diff(urn("ready"), created.id, created.properties, changed.inputs)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
    await fx.plugin.delete(urn("ready"), created.id, created.properties);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
