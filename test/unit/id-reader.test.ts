/**
 * The id-filtered shared reader (kit/live/id-reader.ts) against an in-memory list that behaves
 * like the v1 instance list: pages of 25 in id order from a lower bound, listing by ids, and a
 * count of every call. Call counts are what a refresh pays at about one list call a second.
 */
import { IdReader, type IdListSource } from "../../provider/resources/kit";

interface Item {
  id: number;
  label?: string;
}

function account(ids: number[], options: { ttlMs?: number; labelOf?: (id: number) => string } = {}) {
  let items: Item[] = [...ids].sort((a, b) => a - b).map((id) => ({ id, ...(options.labelOf ? { label: options.labelOf(id) } : {}) }));
  const calls = { walk: 0, byIds: 0, one: 0, all: 0, down: 0, label: 0 };
  let clock = 0;
  const source: IdListSource<Item> = {
    walkPage: async (from, token) => {
      calls.walk++;
      const after = token === null ? -Infinity : Number(token);
      const matching = items.filter((i) => i.id >= from);
      const rest = matching.filter((i) => i.id > after);
      const page = rest.slice(0, 25);
      return { items: page, next: rest.length > 25 ? String(page[24].id) : null, total: matching.length };
    },
    walkDownPage: async (below) => {
      calls.down++;
      const matching = items.filter((i) => i.id < below).reverse();
      return { items: matching.slice(0, 25), next: matching.length > 25 ? String(matching[24].id) : null, total: matching.length };
    },
    fetchIds: async (wanted) => {
      calls.byIds++;
      return items.filter((i) => wanted.includes(i.id));
    },
    fetchOne: async (id) => {
      calls.one++;
      return items.find((i) => i.id === id) ?? null;
    },
    fetchAll: async () => {
      calls.all++;
      return [...items];
    },
    ...(options.labelOf
      ? {
          labelOf: (i: Item) => i.label,
          walkLabelPage: async (label: string, from: number, token: string | null) => {
            calls.label++;
            const after = token === null ? -Infinity : Number(token);
            const rest = items.filter((i) => i.label === label && i.id >= from && i.id > after);
            const page = rest.slice(0, 25);
            return { items: page, next: rest.length > 25 ? String(page[24].id) : null, total: rest.length };
          },
        }
      : {}),
    idOf: (i) => i.id,
    ttlMs: () => options.ttlMs ?? 60_000,
    now: () => clock,
  };
  return {
    reader: new IdReader(source),
    calls,
    total: () => calls.walk + calls.byIds + calls.one + calls.all + calls.down + calls.label,
    remove: (id: number) => (items = items.filter((i) => i.id !== id)),
    add: (id: number) => (items = [...items, { id }].sort((a, b) => a.id - b.id)),
    advance: (ms: number) => (clock += ms),
  };
}

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

/** Reads `ids` the way the engine does with `parallel` operations at once. */
async function readAll(reader: IdReader<Item>, ids: number[], parallel: number): Promise<Array<Item | null>> {
  const out: Array<Item | null> = new Array(ids.length);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const i = next++;
      out[i] = await reader.get(String(ids[i]));
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, ids.length) }, worker));
  return out;
}

describe("id-filtered shared reader", () => {
  it("reads 10 instances among 500 others with one list call, wherever they sit", async () => {
    for (const ours of [range(501, 10), range(1, 10), [3, 90, 170, 250, 330, 410, 460, 480, 495, 505]]) {
      const a = account([...range(1, 500).filter((id) => !ours.includes(id)), ...ours]);
      const got = await readAll(a.reader, ours, 10);
      expect(got.map((i) => i?.id)).toEqual(ours);
      expect(a.total()).toBeLessThanOrEqual(2);
    }
  });

  it("reads 200 instances asked for 10 at a time with ceil(200/25) list calls", async () => {
    const a = account(range(1, 200));
    const got = await readAll(a.reader, range(1, 200), 10);
    expect(got.every((i) => i !== null)).toBe(true);
    expect(a.total()).toBe(8);
  });

  it("costs at most min(ceil(N/25)+1, N)+1 calls for N of the stack in any account", async () => {
    for (const [n, others] of [[10, 0], [10, 100], [10, 500], [60, 250], [200, 500]]) {
      const ours = range(others + 1, n);
      const a = account([...range(1, others), ...ours]);
      await readAll(a.reader, ours, 10);
      expect({ n, others, calls: a.total() }).toEqual({ n, others, calls: expect.any(Number) });
      expect(a.total()).toBeLessThanOrEqual(Math.min(Math.ceil(n / 25) + 1, n) + 1);
    }
  });

  it("serves asks one at a time, in an order a little off the ids', with ceil(N/25)+1 list calls", async () => {
    // A preview: the engine diffs in program order, one at a time; instances created 8 at once
    // got their ids in a slightly different order, so some come just below the first one asked.
    for (const n of [50, 200, 500]) {
      const ids = range(1001, n);
      const order: number[] = [];
      for (let i = 0; i < n; i += 8) order.push(...ids.slice(i, i + 8).reverse());
      const a = account([...range(1, 1000), ...ids]);
      const got = await readAll(a.reader, order, 1);
      expect(got.map((i) => i?.id)).toEqual(order);
      expect(a.total()).toBeLessThanOrEqual(Math.ceil(n / 25) + 1);
    }
  });

  it("serves asks one at a time in an order unrelated to the ids' with at most ceil(N/25)+2 list calls", async () => {
    // A preview: the engine diffs in the order the program's registrations reached it, which
    // under the CLI can be far from the order the creates got their ids.
    for (const n of [50, 200]) {
      const ids = range(1001, n);
      let seed = n;
      const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
      const order = [...ids].sort(() => random() - 0.5);
      const a = account(ids);
      const got = await readAll(a.reader, order, 1);
      expect(got.map((i) => i?.id)).toEqual(order);
      expect(a.total()).toBeLessThanOrEqual(Math.ceil(n / 25) + 2);
    }
  });

  it("an object asked for twice does not make its label look shared: no label walk for labels of one object each", async () => {
    // A refresh under the CLI: each resource's read asks for its instance, and asks again.
    const ids = range(1001, 50);
    const a = account(ids, { labelOf: (id) => `bench-${id}` });
    await readAll(a.reader, ids.flatMap((id) => [id, id]), 8);
    expect(a.calls.label).toBe(0);
    expect(a.total()).toBeLessThanOrEqual(Math.ceil(50 / 25) + 1);
  });

  it("asks that arrive while a round runs go together in the next round", async () => {
    const a = account(range(1000, 60).map((i) => i * 7));
    const first = a.reader.get(String(7000));
    await new Promise((r) => setTimeout(r, 10));
    const later = Promise.all(range(1001, 40).map((i) => a.reader.get(String(i * 7))));
    await Promise.all([first, later]);
    expect(a.calls.walk + a.calls.byIds).toBeLessThanOrEqual(3);
  });

  it("reports an instance gone when a listing that began after the ask does not have it", async () => {
    const a = account(range(1, 30));
    a.remove(12);
    expect(await a.reader.get("12")).toBeNull();
    expect(a.calls.one).toBe(0);
  });

  it("confirms an absence seen by an older listing with a read of its own", async () => {
    const a = account(range(1, 30));
    await a.reader.get("1");
    a.add(40);
    expect(await a.reader.get("40")).toEqual({ id: 40 });
    a.remove(5);
    expect((await a.reader.get("5"))?.id).toBe(5); // cached, still fresh
    a.advance(60_001);
    expect(await a.reader.get("5")).toBeNull();
  });

  it("reads an instance this process wrote on its own until a later listing saw it", async () => {
    const a = account(range(1, 30));
    await a.reader.get("1");
    a.reader.noteWrite("2");
    await a.reader.get("2");
    expect(a.calls.one).toBe(1);
  });

  it("terminates and answers with a TTL of 0", async () => {
    const a = account(range(1, 60), { ttlMs: 0 });
    const got = await readAll(a.reader, range(1, 60), 60);
    expect(got.map((i) => i?.id)).toEqual(range(1, 60));
  });

  it("passes a failed listing to every read that waited for it", async () => {
    const a = account(range(1, 5));
    const failing = new IdReader<Item>({
      walkPage: async () => {
        throw new Error("HTTP 503");
      },
      fetchIds: async () => [],
      fetchOne: async () => null,
      fetchAll: async () => [],
      idOf: (i) => i.id,
      ttlMs: () => 1000,
    });
    const reads = range(1, 5).map((id) => failing.get(String(id)));
    for (const r of reads) await expect(r).rejects.toThrow("HTTP 503");
    expect(a.total()).toBe(0);
  });
});
