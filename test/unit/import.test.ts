/**
 * The importId mechanics of kit/import.ts on a fake kind: check, create that takes over
 * (found, not found, replace-only mismatch, in-place change, inputs never shown, inputs that
 * keep what the service shows), read, diff and update of the import keys, and the refusal of
 * action kinds.
 */
import { diffInputs, importable, numericImport, type ImportableImpl, type Props } from "../../provider/resources/kit";

interface Live {
  name: string;
  size: number;
  color: string;
}

/** A kind whose `name` changes in place, `size` only by replacement, `secret` is never shown and `color` keeps what the service shows. */
function fakeKind(objects: Map<string, Live>) {
  const calls: string[] = [];
  const impl: ImportableImpl = {
    importing: numericImport("Thing", "thing", { keepShown: ["color"], notShown: ["secret"], optionalOnImport: ["size"], secretFields: ["secret"] }),
    async check(_olds, news) {
      const failures = news.size === undefined ? [{ property: "size", reason: "size: is required" }] : [];
      return { inputs: { color: "red", ...news }, failures };
    },
    async diff(_id, olds, news) {
      return diffInputs(olds, news, { replaceOn: ["size"], ignore: ["thingId"] });
    },
    async create() {
      calls.push("create");
      return { id: "99", outs: {} };
    },
    async read(id, props) {
      calls.push(`read ${id}`);
      const live = objects.get(id);
      if (!live) return { id: "" };
      const inputs: Props = { name: live.name, size: live.size, color: live.color, secret: props.secret };
      return { id, props: { ...props, ...inputs, thingId: Number(id) }, inputs };
    },
    async update(id, olds, news) {
      calls.push(`update ${id} ${JSON.stringify({ name: news.name, secret: news.secret === undefined ? undefined : "set" })}`);
      const live = objects.get(id);
      if (live && typeof news.name === "string") live.name = news.name;
      return { outs: { ...news, thingId: olds.thingId } };
    },
    async delete(id) {
      calls.push(`delete ${id}`);
    },
  };
  return { provider: importable(impl), calls };
}

const existing = () => new Map<string, Live>([["7", { name: "a", size: 10, color: "blue" }]]);

test("check judges importId's form and names the rule and value; other inputs go to the kind's check", async () => {
  const { provider } = fakeKind(existing());
  const bad = await provider.check({}, { name: "a", size: 10, importId: "abc" });
  expect(bad.failures).toEqual([{ property: "importId", reason: expect.stringMatching(/^importId: must be the thing's numeric id .*\(got "abc"\)$/) }]);
  const notString = await provider.check({}, { name: "a", size: 10, importId: 7 });
  expect(notString.failures?.[0].reason).toContain("(got 7)");
  const ok = await provider.check({}, { name: "a", size: 10, importId: "7" });
  expect(ok.failures).toEqual([]);
  expect(ok.inputs).toMatchObject({ importId: "7" });
});

test("check: inputs left out of an import drop their missing-input failure and their default; state's value is kept on later runs", async () => {
  const { provider } = fakeKind(existing());
  const first = await provider.check({}, { name: "a", importId: "7" });
  expect(first.failures).toEqual([]);
  expect(first.inputs).not.toHaveProperty("color");
  const later = await provider.check({ name: "a", color: "blue", importId: "7" }, { name: "a", importId: "7" });
  expect(later.inputs).toMatchObject({ color: "blue" });
  // Without an import the default applies as before.
  expect((await provider.check({}, { name: "a", size: 1 })).inputs).toMatchObject({ color: "red" });
});

test("create with importId sends no create, applies in-place changes and the never-shown input through update, and says imported", async () => {
  const objects = existing();
  const { provider, calls } = fakeKind(objects);
  const checked = await provider.check({}, { name: "b", size: 10, secret: "s3cret", importId: "7" });
  const made = await provider.create(checked.inputs as Props);
  expect(made.id).toBe("7");
  expect(made.outs).toMatchObject({ name: "b", size: 10, color: "blue", thingId: 7, importId: "7", imported: true });
  expect(calls).toEqual(["read 7", 'update 7 {"name":"b","secret":"set"}']);
  expect(objects.get("7")?.name).toBe("b");
});

test("create with importId and nothing to change makes no write", async () => {
  const { provider, calls } = fakeKind(existing());
  const checked = await provider.check({}, { name: "a", size: 10, importId: "7" });
  const made = await provider.create(checked.inputs as Props);
  expect(made.outs).toMatchObject({ name: "a", size: 10, color: "blue", imported: true });
  expect(calls).toEqual(["read 7"]);
});

test("create with an importId the account does not hold fails naming it, and creates nothing", async () => {
  const { provider, calls } = fakeKind(existing());
  await expect(provider.create({ name: "a", size: 10, importId: "8" })).rejects.toThrow('Thing importId "8": no such thing exists on the account (nothing was created or changed)');
  expect(calls).toEqual(["read 8"]);
});

test("a declared replace-only input that differs fails the import with both values, and nothing is written", async () => {
  const objects = existing();
  const { provider, calls } = fakeKind(objects);
  const error = await provider.create({ name: "z", size: 20, importId: "7" }).then(() => undefined, (e: Error) => e);
  expect(error?.message).toContain('Thing importId "7"');
  expect(error?.message).toContain("size: declared 20, the service shows 10");
  expect(error?.message).toContain("nothing was changed");
  expect(calls).toEqual(["read 7"]);
  expect(objects.get("7")).toEqual({ name: "a", size: 10, color: "blue" });
});

test("a spec's secret fields are never shown in the mismatch", async () => {
  const { provider } = fakeKind(existing());
  const impl = provider as ImportableImpl;
  expect(impl.importing).toBeUndefined(); // the wrapper serves the calls; the spec stays with the kind
  const withSecretReplace = importable({
    ...(fakeKind(existing()).provider as ImportableImpl),
    importing: numericImport("Thing", "thing", { secretFields: ["size"] }),
    diff: async (_id, olds, news) => diffInputs(olds, news, { replaceOn: ["size"], ignore: ["thingId"] }),
    read: async (id) => ({ id, props: { size: 1234567 }, inputs: { size: 1234567 } }),
  });
  const message = await withSecretReplace.create({ size: 7654321, importId: "7" }).then(() => "", (e: Error) => e.message);
  expect(message).toContain("size (a secret: values not shown) differs");
  expect(message).not.toMatch(/1234567|7654321/);
});

test("read keeps importId among the rebuilt inputs and imported among the outputs; diff and update record a change of importId only", async () => {
  const { provider, calls } = fakeKind(existing());
  const state = { name: "a", size: 10, color: "blue", thingId: 7, importId: "7", imported: true };
  const read = await provider.read("7", state);
  expect(read.inputs).toEqual({ name: "a", size: 10, color: "blue", importId: "7", __imported: true });
  expect(read.props).toMatchObject({ importId: "7", imported: true });
  expect(await provider.diff("7", state, read.inputs as Props)).toMatchObject({ changes: false, replaces: [] });
  const news = { ...read.inputs, importId: "8" } as Props;
  expect(await provider.diff("7", state, news)).toMatchObject({ changes: true, replaces: [] });
  calls.length = 0;
  const updated = await provider.update("7", state, news);
  expect(calls).toEqual([]);
  expect(updated.outs).toMatchObject({ importId: "8", imported: true, thingId: 7 });
  await provider.delete("7", state);
  expect(calls).toEqual(["delete 7"]);
});

test("kinds that are actions refuse importId with the reason; kinds without a spec are served as they are", async () => {
  const action = importable({
    ...(fakeKind(existing()).provider as ImportableImpl),
    check: async (_o, news) => ({ inputs: news, failures: [] }),
    importing: { type: "Copy", refuse: "a copy is an action" },
  });
  const checked = await action.check({}, { path: "/x", importId: "1" });
  expect(checked.failures).toEqual([{ property: "importId", reason: 'importId: Copy cannot be imported: a copy is an action (got "1")' }]);
  const plain: ImportableImpl = fakeKind(existing()).provider;
  expect(importable(plain)).toBe(plain);
});

test("on the next run, an input left out of an imported resource takes the stored value in diff and update (state's inputs never held it)", async () => {
  const { provider, calls } = fakeKind(existing());
  // What the engine stores after the import's create: the checked inputs (no color) beside the outputs (color).
  const checked = (await provider.check({}, { name: "a", size: 10, importId: "7" })).inputs as Props;
  const created = await provider.create(checked);
  const next = (await provider.check(checked, { name: "a", size: 10, importId: "7" })).inputs as Props;
  expect(next).not.toHaveProperty("color");
  expect(await provider.diff("7", created.outs as Props, next)).toMatchObject({ changes: false });
  const renamed = { ...next, name: "b" };
  expect(await provider.diff("7", created.outs as Props, renamed)).toMatchObject({ changes: true, replaces: [] });
  const updated = await provider.update("7", created.outs as Props, renamed);
  expect(updated.outs).toMatchObject({ name: "b", color: "blue" });
  expect(calls.at(-1)).toBe('update 7 {"name":"b"}');
});

test("importId removed from the program: inputs left out still keep the stored values (no default, no replacement)", async () => {
  const { provider } = fakeKind(existing());
  const checked = (await provider.check({}, { name: "a", size: 10, importId: "7" })).inputs as Props;
  expect(checked).toMatchObject({ __imported: true });
  const created = await provider.create(checked);
  // Run 2 drops importId: recorded, and color keeps the service's value.
  const run2 = (await provider.check(checked, { name: "a", size: 10 })).inputs as Props;
  expect(run2).toMatchObject({ __imported: true });
  expect(run2).not.toHaveProperty("color");
  expect(await provider.diff("7", created.outs as Props, run2)).toMatchObject({ changes: true, replaces: [] });
  const updated = await provider.update("7", created.outs as Props, run2);
  expect(updated.outs).toMatchObject({ color: "blue", imported: true });
  expect(updated.outs).not.toHaveProperty("importId");
  // Run 3: state's inputs hold no importId any more; the mark keeps the rule.
  const run3 = (await provider.check(run2, { name: "a", size: 10 })).inputs as Props;
  expect(await provider.diff("7", updated.outs as Props, run3)).toMatchObject({ changes: false });
});

test("a replacement of an imported resource (a later generation) creates a new object; importId given to a created resource takes nothing over", async () => {
  const { provider, calls } = fakeKind(existing());
  const replacement = await provider.create({ name: "a", size: 20, importId: "7", __identity: "p/s/Thing/t", __generation: 3 });
  expect(replacement.id).toBe("99");
  expect(replacement.outs).toMatchObject({ importId: "7" });
  expect(replacement.outs).not.toHaveProperty("imported");
  expect(calls).toEqual(["create"]);
  const first = await provider.create({ name: "a", size: 10, importId: "7", __identity: "p/s/Thing/t", __generation: 1 });
  expect(first.id).toBe("7");
  const later = (await provider.check({ name: "a", size: 10, color: "red" }, { name: "a", size: 10, importId: "7" })).inputs as Props;
  expect(later).not.toHaveProperty("__imported");
  expect(later).toMatchObject({ color: "red", importId: "7" });
});
