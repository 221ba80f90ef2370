import { SharedList } from "../../provider/resources/kit/live/shared-list";

interface Item {
  id: number;
  v: string;
}

/** A source whose listings finish only when the test says so, counting every call. */
function controlledSource(initial: Item[]) {
  let items = initial;
  let clock = 1000;
  const pending: Array<{ resolve: (v: Item[]) => void; reject: (e: Error) => void }> = [];
  const calls = { all: 0, one: [] as string[] };
  const list = new SharedList<Item>({
    fetchAll: () => {
      calls.all++;
      return new Promise<Item[]>((resolve, reject) => pending.push({ resolve, reject }));
    },
    fetchOne: async (key) => {
      calls.one.push(key);
      return items.find((i) => String(i.id) === key) ?? null;
    },
    keyOf: (i) => String(i.id),
    ttlMs: () => 5000,
    now: () => clock,
  });
  return {
    list,
    calls,
    set: (next: Item[]) => (items = next),
    advance: (ms: number) => (clock += ms),
    finish: () => pending.shift()!.resolve([...items]),
    fail: (message: string) => pending.shift()!.reject(new Error(message)),
    pending: () => pending.length,
  };
}

const flush = () => new Promise((r) => setImmediate(r));
const three = [{ id: 1, v: "a" }, { id: 2, v: "b" }, { id: 3, v: "c" }];

describe("shared reads of live objects", () => {
  it("serves concurrent reads from one listing", async () => {
    const s = controlledSource(three);
    const reads = [s.list.get("1"), s.list.get("2"), s.list.get("3")];
    await flush();
    expect(s.calls.all).toBe(1);
    s.finish();
    expect((await Promise.all(reads)).map((i) => i?.v)).toEqual(["a", "b", "c"]);
    expect(s.calls.one).toEqual([]);
  });

  it("serves later reads from the finished listing until the TTL passes", async () => {
    const s = controlledSource(three);
    const first = s.list.get("1");
    await flush();
    s.finish();
    await first;
    s.advance(4999);
    expect((await s.list.get("2"))?.v).toBe("b");
    expect(s.calls.all).toBe(1);
    s.advance(2);
    const late = s.list.get("2");
    await flush();
    expect(s.calls.all).toBe(2);
    s.finish();
    await late;
  });

  it("reads an object this process wrote on its own, not from the older listing", async () => {
    const s = controlledSource(three);
    const first = s.list.get("1");
    await flush();
    s.finish();
    await first;
    s.set([{ id: 1, v: "a" }, { id: 2, v: "B" }, { id: 3, v: "c" }]);
    s.list.noteWrite("2");
    expect((await s.list.get("2"))?.v).toBe("B");
    expect((await s.list.get("3"))?.v).toBe("c");
    expect(s.calls).toEqual({ all: 1, one: ["2"] });
  });

  it("does not wait for a listing that started before this process's write", async () => {
    const s = controlledSource(three);
    const first = s.list.get("1");
    await flush();
    s.list.noteWrite("2");
    expect((await s.list.get("2"))?.v).toBe("b");
    expect(s.calls.one).toEqual(["2"]);
    s.finish();
    await first;
  });

  it("confirms an absence seen in a cached listing with a direct read", async () => {
    const s = controlledSource(three);
    const first = s.list.get("1");
    await flush();
    s.finish();
    await first;
    s.set([...three, { id: 4, v: "d" }]);
    expect((await s.list.get("4"))?.v).toBe("d");
    expect(s.calls.one).toEqual(["4"]);
  });

  it("trusts an absence in a listing that started after the read", async () => {
    const s = controlledSource(three);
    const read = s.list.get("9");
    await flush();
    s.finish();
    expect(await read).toBeNull();
    expect(s.calls.one).toEqual([]);
  });

  it("gives a fresh list only from a listing that started after the call", async () => {
    const s = controlledSource(three);
    const stale = s.list.list();
    await flush();
    const fresh = s.list.list({ fresh: true });
    s.finish();
    expect(await stale).toHaveLength(3);
    s.set([...three, { id: 4, v: "d" }]);
    await flush();
    expect(s.calls.all).toBe(2);
    s.finish();
    expect(await fresh).toHaveLength(4);
  });

  it("passes a failed listing to every caller that shared it and does not cache it", async () => {
    const s = controlledSource(three);
    const reads = [s.list.get("1"), s.list.get("2")];
    await flush();
    s.fail("HTTP 503");
    for (const r of reads) await expect(r).rejects.toThrow("HTTP 503");
    const again = s.list.get("1");
    await flush();
    expect(s.calls.all).toBe(2);
    s.finish();
    expect((await again)?.v).toBe("a");
  });
});
