/**
 * The shared reader's other sources: lists by key (templates by id, maintenance windows by
 * machine) and lists without a read of one object (SSH keys, secrets, API keys).
 */
import { SharedList } from "../../provider/resources/kit/live/shared-list";

interface Item {
  id: number;
  v: string;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A keyed source that answers at once from `items`, recording the keys of every call. */
function keyedSource(initial: Item[], gatherMs = 2) {
  let items = initial;
  let clock = 1000;
  const calls: string[][] = [];
  const list = new SharedList<Item>({
    fetchKeys: async (keys) => {
      calls.push([...keys].sort());
      return items.filter((i) => keys.includes(String(i.id)));
    },
    keyOf: (i) => String(i.id),
    ttlMs: () => 5000,
    gatherMs,
    now: () => clock,
  });
  return { list, calls, set: (next: Item[]) => (items = next), advance: (ms: number) => (clock += ms) };
}

/** A whole-list source without a read of one object. */
function listOnlySource(initial: Item[]) {
  let items = initial;
  let calls = 0;
  const list = new SharedList<Item>({
    fetchAll: async () => {
      calls++;
      return [...items];
    },
    keyOf: (i) => String(i.id),
    ttlMs: () => 5000,
  });
  return { list, calls: () => calls, set: (next: Item[]) => (items = next) };
}

const three = [{ id: 1, v: "a" }, { id: 2, v: "b" }, { id: 3, v: "c" }];

describe("a reader that lists by key", () => {
  it("reads the keys asked for together with one call naming all of them", async () => {
    const s = keyedSource(three);
    const reads = await Promise.all(["1", "2", "3", "9"].map((k) => s.list.get(k)));
    expect(reads.map((r) => r?.v ?? null)).toEqual(["a", "b", "c", null]);
    expect(s.calls).toEqual([["1", "2", "3", "9"]]);
  });

  it("asks for the same key once when two callers want it", async () => {
    const s = keyedSource(three);
    await Promise.all([s.list.get("2"), s.list.get("2")]);
    expect(s.calls).toEqual([["2"]]);
  });

  it("serves a key again from its listing within the TTL, and only the keys that listing covered", async () => {
    const s = keyedSource(three);
    await Promise.all([s.list.get("1"), s.list.get("2")]);
    expect((await s.list.get("1"))?.v).toBe("a");
    expect(s.calls).toHaveLength(1);
    expect((await s.list.get("3"))?.v).toBe("c");
    expect(s.calls).toEqual([["1", "2"], ["3"]]);
    s.advance(5001);
    await s.list.get("1");
    expect(s.calls).toHaveLength(3);
  });

  it("reads a key this process wrote from a listing that starts after the write", async () => {
    const s = keyedSource(three);
    await s.list.get("2");
    s.set([{ id: 1, v: "a" }, { id: 2, v: "B" }, { id: 3, v: "c" }]);
    s.list.noteWrite("2");
    expect((await s.list.get("2"))?.v).toBe("B");
    expect(s.calls).toEqual([["2"], ["2"]]);
  });

  it("joins keys that arrive while an earlier listing runs into the next listing", async () => {
    let release: () => void = () => undefined;
    const calls: string[][] = [];
    const list = new SharedList<Item>({
      fetchKeys: async (keys) => {
        calls.push([...keys].sort());
        if (calls.length === 1) await new Promise<void>((r) => (release = r));
        return three.filter((i) => keys.includes(String(i.id)));
      },
      keyOf: (i) => String(i.id),
      ttlMs: () => 5000,
      gatherMs: 1,
    });
    const first = list.get("1");
    await wait(10);
    const later = [list.get("2"), list.get("3")];
    await wait(10);
    release();
    expect((await Promise.all([first, ...later])).map((r) => r?.v)).toEqual(["a", "b", "c"]);
    expect(calls).toEqual([["1"], ["2", "3"]]);
  });

  it("passes a failed listing to each caller and does not cache it", async () => {
    let fail = true;
    const list = new SharedList<Item>({
      fetchKeys: async (keys) => {
        if (fail) throw new Error("HTTP 503");
        return three.filter((i) => keys.includes(String(i.id)));
      },
      keyOf: (i) => String(i.id),
      ttlMs: () => 5000,
      gatherMs: 1,
    });
    const reads = [list.get("1"), list.get("2")];
    for (const r of reads) await expect(r).rejects.toThrow("HTTP 503");
    fail = false;
    expect((await list.get("1"))?.v).toBe("a");
  });
});

describe("a reader over a list without a read of one object", () => {
  it("confirms an absence seen in a cached listing with a new listing", async () => {
    const s = listOnlySource(three);
    await s.list.get("1");
    s.set([...three, { id: 4, v: "d" }]);
    expect((await s.list.get("4"))?.v).toBe("d");
    expect(s.calls()).toBe(2);
  });

  it("reads a key this process wrote from a new listing, once for all such keys asked together", async () => {
    const s = listOnlySource(three);
    await s.list.get("1");
    s.set([{ id: 1, v: "A" }, { id: 2, v: "B" }, { id: 3, v: "c" }]);
    s.list.noteWrite("1");
    s.list.noteWrite("2");
    const reads = await Promise.all([s.list.get("1"), s.list.get("2"), s.list.get("3")]);
    expect(reads.map((r) => r?.v)).toEqual(["A", "B", "c"]);
    expect(s.calls()).toBe(2);
  });

  it("refuses to be built with neither or both kinds of listing", () => {
    const base = { keyOf: (i: Item) => String(i.id), ttlMs: () => 1 };
    expect(() => new SharedList<Item>(base)).toThrow("exactly one of fetchAll and fetchKeys");
    expect(() => new SharedList<Item>({ ...base, fetchAll: async () => [], fetchKeys: async () => [] })).toThrow("exactly one");
  });
});
