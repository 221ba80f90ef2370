/**
 * Issue 35 item 5: under the real CLI a preview of 200 Instances sometimes made 10 list calls
 * where the target is ceil(N/25)+1 = 9. The list calls the CLI runs made show why: the engine
 * diffs one resource at a time (Pulumi runs diffs in parallel only under PULUMI_PARALLEL_DIFF)
 * in the order the registrations reached it, and `up` gave the ids in the order the creates
 * reached the service, so a few resources have ids far from their place in that order. One of
 * them, asked early, lies pages ahead of the shared walk (or below the page under it), and was
 * listed by id alone: a call of its own, for an instance the walk listed again a few seconds
 * later. A refresh reads 8 at a time (the CLI's parallelism) in the same order.
 *
 * The reader is driven here as the engine drives it, on a fake clock: list calls take one
 * second (the paged list's pacing), each next ask comes a few ms after an answer and no earlier
 * than its registration. Nothing depends on how loaded the machine is.
 */
import { IdReader, type IdListSource } from "../../provider/resources/kit";

interface Item {
  id: number;
}

/** One list call a second, as the service paces the paged list. */
const PAGE_MS = 1000;
/** The engine's time from an answer to its next ask (a diff's own work, gRPC). */
const ENGINE_MS = 5;
/** Registrations reach the engine this far apart: resource i is asked for no earlier than i times this. */
const REGISTER_MS = 20;
const FIRST = 8_000_001;

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

/** The v1 instance list over `ids`, each call answered after PAGE_MS. */
function account(ids: number[]) {
  let items: Item[] = [...ids].sort((a, b) => a - b).map((id) => ({ id }));
  const calls = { walk: 0, down: 0, byIds: 0, one: 0, all: 0, log: [] as string[] };
  const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), PAGE_MS));
  const source: IdListSource<Item> = {
    walkPage: (from, token) => {
      calls.walk++;
      calls.log.push(`walk >=${from}`);
      const after = token === null ? -Infinity : Number(token);
      const matching = items.filter((i) => i.id >= from);
      const rest = matching.filter((i) => i.id > after);
      const page = rest.slice(0, 25);
      return later({ items: page, next: rest.length > 25 ? String(page[24].id) : null, total: matching.length });
    },
    walkDownPage: (below) => {
      calls.down++;
      calls.log.push(`down <${below}`);
      const matching = items.filter((i) => i.id < below).reverse();
      return later({ items: matching.slice(0, 25), next: matching.length > 25 ? String(matching[24].id) : null, total: matching.length });
    },
    fetchIds: (wanted) => {
      calls.byIds++;
      calls.log.push(`in [${wanted.join(",")}]`);
      return later(items.filter((i) => wanted.includes(i.id)));
    },
    fetchOne: (id) => {
      calls.one++;
      calls.log.push(`one ${id}`);
      return later(items.find((i) => i.id === id) ?? null);
    },
    fetchAll: () => {
      calls.all++;
      return later([...items]);
    },
    idOf: (i) => i.id,
    ttlMs: () => 120_000,
    now: () => Date.now(),
  };
  return {
    reader: new IdReader(source),
    calls,
    lists: () => calls.walk + calls.down + calls.byIds + calls.all,
    remove: (id: number) => (items = items.filter((i) => i.id !== id)),
  };
}

/**
 * Asks for `order` as the engine does: `parallel` at once, each next one ENGINE_MS after an
 * answer and not before its registration (`delayMs` more for the asks it names), on the fake
 * clock until every ask is answered.
 */
async function engine(reader: IdReader<Item>, order: number[], parallel: number, delayMs: Record<number, number> = {}, registerMs = REGISTER_MS) {
  const got: Array<Item | null | undefined> = new Array(order.length);
  let next = 0;
  let done = 0;
  const start = Date.now();
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const worker = async () => {
    while (next < order.length) {
      const i = next++;
      await sleep(Math.max(ENGINE_MS, start + i * registerMs - Date.now()) + (delayMs[order[i]] ?? 0));
      got[i] = await reader.get(String(order[i]));
      done++;
    }
  };
  const all = Promise.all(Array.from({ length: parallel }, worker));
  for (let waited = 0; done < order.length && waited < 600_000; waited += 10) await jest.advanceTimersByTimeAsync(10);
  await all;
  return got;
}

/** Program order of a stack `up` created 8 at once: each 8's ids came back in reverse. */
function programOrder(n: number): number[] {
  const ids = range(FIRST, n);
  const order: number[] = [];
  for (let i = 0; i < n; i += 8) order.push(...ids.slice(i, i + 8).reverse());
  return order;
}

/** `order` with `id` moved to position `to` (its create reached the service late, or early). */
function moved(order: number[], id: number, to: number): number[] {
  const rest = order.filter((x) => x !== id);
  return [...rest.slice(0, to), id, ...rest.slice(to)];
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const N = 200;
const target = Math.ceil(N / 25) + 1;

/** The preview's one ask at a time, and the refresh's 8. */
const engines = [
  ["a preview (one diff at a time)", 1],
  ["a refresh (8 reads at a time)", 8],
] as const;

describe.each(engines)(`%s of ${N} in the order the CLI asks`, (_, parallel) => {
  it(`an early ask pages ahead of the walk, and a straggler after the last page, cost no list call: at most ceil(N/25)+1 = ${target}`, async () => {
    // As in a CLI run: the 21st resource's id is the 195th, asked when the walk had listed two
    // pages (\`in [8000195]\`, then the walk's 8 pages). The lowest id is asked last, 3 s after its
    // turn: after the walk's last page.
    const order = moved(moved(programOrder(N), FIRST + 194, 20), FIRST, N - 1);
    const a = account(range(FIRST, N));
    const got = await engine(a.reader, order, parallel, { [FIRST]: 3 * PAGE_MS });
    expect(got.map((i) => i?.id)).toEqual(order);
    expect(a.calls.one).toBe(0);
    expect(a.lists()).toBeLessThanOrEqual(target);
  });

  it(`an ask pages ahead in the middle of the walk costs no list call: at most ${target}`, async () => {
    // As in another run: the 154th id asked when the walk had listed up to the 126th.
    const order = moved(programOrder(N), FIRST + 153, 100);
    const a = account(range(FIRST, N));
    const got = await engine(a.reader, order, parallel);
    expect(got.map((i) => i?.id)).toEqual(order);
    expect(a.lists()).toBeLessThanOrEqual(target);
  });

  it(`a first ask far above the lowest id, then asks below the page under the walk, cost no list call of their own: at most ${target}`, async () => {
    // As in another run: the first resource's id is the 48th; the walk starts there, the page
    // under it lists the 23rd to the 47th, and the 1st was listed by id before the next page down.
    const order = moved(programOrder(N), FIRST + 47, 0);
    const a = account(range(FIRST, N));
    const got = await engine(a.reader, order, parallel);
    expect(got.map((i) => i?.id)).toEqual(order);
    expect(a.calls.one).toBe(0);
    expect(a.lists()).toBeLessThanOrEqual(target);
  });

  it("several asks far from their place, ahead and below, cost at most ceil(N/25)+1", async () => {
    let order = moved(programOrder(N), FIRST + 30, 0);
    for (const [id, to] of [[FIRST + 190, 5], [FIRST + 120, 12], [FIRST + 2, 150], [FIRST + 160, 40]]) order = moved(order, id, to);
    const a = account(range(FIRST, N));
    const got = await engine(a.reader, order, parallel);
    expect(got.map((i) => i?.id)).toEqual(order);
    expect(a.lists()).toBeLessThanOrEqual(target);
  });

  it("an instance gone from the page listed ahead is reported gone, with no read of its own", async () => {
    const order = moved(programOrder(N), FIRST + 194, 20);
    const a = account(range(FIRST, N));
    a.remove(FIRST + 194);
    const got = await engine(a.reader, order, parallel);
    expect(got[20]).toBeNull();
    expect(got.filter((i) => i === null)).toHaveLength(1);
    expect(a.calls.one).toBe(0);
    expect(a.lists()).toBeLessThanOrEqual(target);
  });
});

describe("asks far from the walk elsewhere", () => {
  it("10 of a stack among 500 others, asked at once: at most 2 list calls", async () => {
    const ours = [3, 90, 170, 250, 330, 410, 460, 480, 495, 505];
    const a = account([...range(1, 500).filter((id) => !ours.includes(id)), ...ours]);
    expect((await engine(a.reader, ours, 10, {}, 0)).map((i) => i?.id)).toEqual(ours);
    expect(a.lists()).toBeLessThanOrEqual(2);
  });

  it("where the page ahead does not reach the ask (ids denser there than the walk showed), the ask is still answered right", async () => {
    // The walk sees every other id; past the 100th, every id is taken.
    const ids = [...range(0, 50).map((i) => FIRST + 2 * i), ...range(FIRST + 100, 150)];
    const order = moved(ids, FIRST + 220, 5);
    for (const parallel of [1, 8]) {
      const a = account(ids);
      expect((await engine(a.reader, order, parallel)).map((i) => i?.id)).toEqual(order);
      expect(a.lists()).toBeLessThanOrEqual(Math.ceil(ids.length / 25) + 2);
    }
  });

  it("a straggler after a complete walk is answered from it while fresh; one this process wrote meanwhile is read alone", async () => {
    const a = account(range(FIRST, 30));
    await engine(a.reader, range(FIRST, 29), 8);
    const before = a.lists();
    expect((await engine(a.reader, [FIRST + 29], 1))[0]?.id).toBe(FIRST + 29);
    expect(a.lists()).toBe(before);
    a.reader.noteWrite(String(FIRST + 5));
    expect((await engine(a.reader, [FIRST + 5], 1))[0]?.id).toBe(FIRST + 5);
    expect(a.calls.one).toBe(1);
    expect(a.lists()).toBe(before);
  });
});
