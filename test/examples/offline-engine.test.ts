/**
 * The offline engine of `pulumi-vastai/testing`, driven with a small provider defined here (so
 * it needs no build and no simulator) through Pulumi's real dynamic-provider plugin.
 */
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { OfflineEngine, startProviderPlugin, type ProviderPlugin } from "pulumi-vastai/testing";

// Serialized by value into `__provider`; its "service" is a directory of JSON files, so the
// test can see what exists after each step.
function fileProvider(dir: string): pulumi.dynamic.ResourceProvider {
  return {
    async check(_olds, news) {
      const failures = typeof news.size === "number" && news.size < 0 ? [{ property: "size", reason: "size: must be >= 0" }] : [];
      return { inputs: news, failures };
    },
    async diff(_id, olds, news) {
      const changed = ["label", "size", "ref"].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
      return { changes: changed.length > 0, replaces: changed.filter((k) => k !== "label") };
    },
    async create(inputs) {
      const fs = require("fs");
      const id = `${inputs.label}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
      fs.writeFileSync(require("path").join(dir, id), JSON.stringify(inputs));
      return { id, outs: { ...inputs, thingId: id } };
    },
    async update(id, _olds, news) {
      require("fs").writeFileSync(require("path").join(dir, id), JSON.stringify(news));
      return { outs: { ...news, thingId: id } };
    },
    async delete(id) {
      require("fs").rmSync(require("path").join(dir, id), { force: true });
    },
  };
}

class Thing extends pulumi.dynamic.Resource {
  declare readonly thingId: pulumi.Output<string>;
  constructor(name: string, provider: pulumi.dynamic.ResourceProvider, args: { label: string; size: number; ref?: pulumi.Input<string> }, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { ...args, thingId: undefined }, opts, "demo", "Thing");
  }
}

const repo = path.resolve(__dirname, "..", "..");
// Most tests share one plugin process (starting one takes about a second); the last test
// checks that the engine starts a fresh one per operation.
let shared: ProviderPlugin;
const sharedPlugin = async (): Promise<ProviderPlugin> => ({ ...shared, close: async () => {} });
let dir: string;

beforeAll(async () => {
  const fs = await import("fs");
  const os = await import("os");
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "offline-engine-"));
  shared = await startProviderPlugin({ cwd: repo });
}, 30_000);

afterAll(async () => {
  await shared?.close();
});

function program(settings: { label: string; size: number; withChild: boolean }) {
  return () => {
    const provider = fileProvider(dir);
    const parent = new Thing("parent", provider, { label: settings.label, size: settings.size });
    if (settings.withChild) new Thing("child", provider, { label: "child", size: 1, ref: parent.thingId });
    return { parentId: parent.thingId };
  };
}

async function files(): Promise<string[]> {
  const fs = await import("fs");
  return fs.readdirSync(dir).sort();
}

test("creates, updates in place, replaces with dependents following, and destroys in reverse order", async () => {
  const engine = new OfflineEngine(sharedPlugin, { project: "proj", stack: "dev" });

  const first = await engine.up(program({ label: "a", size: 1, withChild: true }), {});
  expect(first.outcomes.map((o) => `${o.name}:${o.outcome}`).sort()).toEqual(["child:created", "parent:created"]);
  const parentId = engine.ids()["Thing::parent"];
  expect(first.outputs.parentId).toBe(parentId);
  expect(await files()).toHaveLength(2);

  const same = await engine.up(program({ label: "a", size: 1, withChild: true }), {});
  expect(same.outcomes.map((o) => o.outcome)).toEqual(["unchanged", "unchanged"]);

  const relabel = await engine.up(program({ label: "b", size: 1, withChild: true }), {});
  expect(relabel.outcomes.find((o) => o.name === "parent")?.outcome).toBe("updated");
  expect(engine.ids()["Thing::parent"]).toBe(parentId);

  // The parent's new id flows into the child's `ref`, so the child is replaced too.
  const resize = await engine.up(program({ label: "b", size: 2, withChild: true }), {});
  expect(resize.outcomes.map((o) => `${o.name}:${o.outcome}`).sort()).toEqual(["child:replaced", "parent:replaced"]);
  expect(engine.ids()["Thing::parent"]).not.toBe(parentId);
  expect(await files()).toHaveLength(2);

  const dropped = await engine.up(program({ label: "b", size: 2, withChild: false }), {});
  expect(dropped.outcomes.find((o) => o.name === "child")?.outcome).toBe("deleted");
  expect(await files()).toHaveLength(1);

  const destroyed = await engine.destroy();
  expect(destroyed.outcomes.map((o) => `${o.name}:${o.outcome}`)).toEqual(["parent:deleted"]);
  expect(await files()).toEqual([]);
}, 60_000);

test("preview reports what up would do and changes nothing", async () => {
  const engine = new OfflineEngine(sharedPlugin, { project: "proj", stack: "dev" });
  const planned = await engine.preview(program({ label: "a", size: 1, withChild: true }));
  expect(planned.outcomes.map((o) => `${o.name}:${o.outcome}`).sort()).toEqual(["child:created", "parent:created"]);
  // The parent's id is not known before it exists.
  expect(planned.outputs).toEqual({});
  expect(await files()).toEqual([]);
  expect(engine.ids()).toEqual({});

  await engine.up(program({ label: "a", size: 1, withChild: true }));
  const before = await files();
  const ids = engine.ids();
  const resize = await engine.preview(program({ label: "b", size: 2, withChild: false }));
  expect(resize.outcomes.map((o) => `${o.name}:${o.outcome}`).sort()).toEqual(["child:deleted", "parent:replaced"]);
  // An output of a resource that would change is unknown until `up`, as in `pulumi preview`.
  const relabel = await engine.preview(program({ label: "b", size: 1, withChild: false }));
  expect(relabel.outcomes.map((o) => `${o.name}:${o.outcome}`).sort()).toEqual(["child:deleted", "parent:updated"]);
  expect(relabel.outputs).toEqual({});
  const same = await engine.preview(program({ label: "a", size: 1, withChild: true }));
  expect(same.outcomes.map((o) => o.outcome)).toEqual(["unchanged", "unchanged"]);
  expect(same.outputs).toEqual({ parentId: ids["Thing::parent"] });
  expect(await files()).toEqual(before);
  expect(engine.ids()).toEqual(ids);
  await engine.destroy();
}, 60_000);

test("secret inputs and additionalSecretOutputs come back secret, and the report names them", async () => {
  class Secretive extends pulumi.dynamic.Resource {
    declare readonly thingId: pulumi.Output<string>;
    declare readonly label: pulumi.Output<string>;
    constructor(name: string, provider: pulumi.dynamic.ResourceProvider, args: { label: pulumi.Input<string>; size: number }) {
      super(provider, name, { ...args, thingId: undefined }, { additionalSecretOutputs: ["thingId"] }, "demo", "Thing");
    }
  }
  const engine = new OfflineEngine(sharedPlugin, { project: "proj", stack: "dev" });
  const seen: boolean[] = [];
  const report = await engine.up(() => {
    const thing = new Secretive("s", fileProvider(dir), { label: pulumi.secret("hidden"), size: 1 });
    pulumi.all([pulumi.isSecret(thing.thingId), pulumi.isSecret(thing.label)]).apply((flags) => seen.push(...flags));
    return { thingId: thing.thingId, label: thing.label, size: pulumi.output(1) };
  });
  expect(report.outcomes).toEqual([{ type: "Thing", name: "s", outcome: "created", secretOutputs: ["label", "thingId"] }]);
  expect(report.secretOutputs.sort()).toEqual(["label", "thingId"]);
  expect(report.outputs).toMatchObject({ label: "hidden", size: 1 });
  expect(seen).toEqual([true, true]);
  await engine.destroy();
}, 30_000);

test("a check failure stops the run with the provider's reason", async () => {
  const engine = new OfflineEngine(sharedPlugin, { project: "proj", stack: "dev" });
  await expect(engine.up(program({ label: "a", size: -1, withChild: false }), {})).rejects.toThrow("Thing parent: size: must be >= 0");
  expect(engine.ids()).toEqual({});
}, 30_000);

test("what a failed run created stays in state, so destroy removes it", async () => {
  const engine = new OfflineEngine(sharedPlugin, { project: "proj", stack: "dev" });
  const failing = () => {
    const provider = fileProvider(dir);
    const parent = new Thing("parent", provider, { label: "kept", size: 1 });
    new Thing("child", provider, { label: "bad", size: -1, ref: parent.thingId });
    return {};
  };
  await expect(engine.up(failing, {})).rejects.toThrow("Thing child: size: must be >= 0");
  expect(Object.keys(engine.ids())).toEqual(["Thing::parent"]);
  expect(await files()).toHaveLength(1);
  await engine.destroy();
  expect(await files()).toEqual([]);
}, 30_000);

test("starts a fresh plugin process for each operation and stops it afterwards", async () => {
  const pids: number[] = [];
  const fresh = async () => {
    const plugin = await startProviderPlugin({ cwd: repo });
    pids.push(plugin.pid);
    return plugin;
  };
  const engine = new OfflineEngine(fresh, { project: "proj", stack: "dev" });
  await engine.up(program({ label: "a", size: 1, withChild: false }), {});
  await engine.destroy();
  expect(pids).toHaveLength(2);
  expect(pids[0]).not.toBe(pids[1]);
  for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
}, 30_000);

describe("issue 24 item 3: the offline engine does what the real engine does", () => {
  // Its inputs record whether check saw old inputs; a size change replaces it. A create with
  // label "half" makes the object and then fails (a partial failure carrying the id).
  function recordingProvider(store: string): pulumi.dynamic.ResourceProvider {
    return {
      async check(olds, news) {
        return { inputs: { ...news, checkedWith: Object.keys(olds).length > 0 ? "olds" : "no olds" } };
      },
      async diff(_id, olds, news) {
        const changed = ["label", "size"].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
        return { changes: changed.length > 0, replaces: changed.filter((k) => k === "size") };
      },
      async create(inputs) {
        const fs = require("fs");
        const id = `${inputs.label}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
        fs.writeFileSync(require("path").join(store, id), JSON.stringify(inputs));
        if (inputs.label === "half") throw Object.assign(new Error("made, but it did not start"), { id, properties: { ...inputs, updates: 0 } });
        return { id, outs: { ...inputs, updates: 0 } };
      },
      async update(id, olds, news) {
        const outs = { ...news, updates: Number(olds.updates ?? 0) + 1 };
        require("fs").writeFileSync(require("path").join(store, id), JSON.stringify(outs));
        return { outs };
      },
      async delete(id) {
        require("fs").rmSync(require("path").join(store, id), { force: true });
      },
    };
  }

  class Recorded extends pulumi.dynamic.Resource {
    declare readonly checkedWith: pulumi.Output<string>;
    declare readonly updates: pulumi.Output<number>;
    constructor(name: string, provider: pulumi.dynamic.ResourceProvider, args: { label: string; size: number }) {
      super(provider, name, { ...args, checkedWith: undefined, updates: undefined }, undefined, "demo", "Recorded");
    }
  }

  const recorded = (label: string, size: number) => () => {
    const r = new Recorded("r", recordingProvider(dir), { label, size });
    return { checkedWith: r.checkedWith, updates: r.updates };
  };

  test("24.3 a replacement is created from a check without old inputs, as the engine re-checks before replacing", async () => {
    const engine = new OfflineEngine(sharedPlugin, { project: "proj", stack: "dev" });
    expect((await engine.up(recorded("a", 1))).outputs.checkedWith).toBe("no olds");
    expect((await engine.up(recorded("b", 1))).outputs.checkedWith).toBe("olds");
    const replaced = await engine.up(recorded("b", 2));
    expect(replaced.outcomes.map((o) => o.outcome)).toEqual(["replaced"]);
    expect(replaced.outputs.checkedWith).toBe("no olds");
    await engine.destroy();
  }, 30_000);

  test("24.3 the import resource option fails as under pulumi up, creating nothing", async () => {
    const engine = new OfflineEngine(sharedPlugin, { project: "proj", stack: "dev" });
    const importing = () => {
      new Thing("adopted", fileProvider(dir), { label: "x", size: 1 }, { import: "x-123" });
      return {};
    };
    await expect(engine.up(importing)).rejects.toThrow('Thing adopted: the import resource option (or get) with id "x-123" cannot reach a dynamic provider');
    expect(await files()).toEqual([]);
    expect(engine.ids()).toEqual({});
  }, 30_000);

  test("24.3 a resource whose create failed part way (initErrors) is updated by the next up even without changes", async () => {
    const engine = new OfflineEngine(sharedPlugin, { project: "proj", stack: "dev" });
    await expect(engine.up(recorded("half", 1))).rejects.toThrow("made, but it did not start");
    expect(Object.keys(engine.ids())).toEqual(["Recorded::r"]);
    const preview = await engine.preview(recorded("half", 1));
    expect(preview.outcomes.map((o) => o.outcome)).toEqual(["updated"]);
    const next = await engine.up(recorded("half", 1));
    expect(next.outcomes.map((o) => o.outcome)).toEqual(["updated"]);
    expect(next.outputs.updates).toBe(1);
    // Once an update went through, the resource is like any other.
    const again = await engine.up(recorded("half", 1));
    expect(again.outcomes.map((o) => o.outcome)).toEqual(["unchanged"]);
    await engine.destroy();
    expect(await files()).toEqual([]);
  }, 30_000);
});
