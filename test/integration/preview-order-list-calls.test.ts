/**
 * Issue 35 item 5 through the Instance provider, over HTTP against the simulator: a preview
 * diffs one Instance at a time (Pulumi diffs in parallel only under PULUMI_PARALLEL_DIFF) in the
 * order the program's registrations reached the engine, which is not quite the order `up` gave
 * the ids in. An early diff whose instance holds an id pages ahead of the shared walk, or below
 * the page under it, was listed by id alone: 10 list calls for 200 Instances where the target is
 * ceil(N/25)+1 = 9. List calls counted in the simulator's request log. The reader's own model
 * of those orders, on a fake clock, is test/unit/id-reader-late.test.ts.
 */
import { getClient } from "../../provider/context";
import { Props, checked, instance } from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS });
const LIST_PATH = /^\/api\/v[01]\/instances\/?$/;
const N = 200;
const target = Math.ceil(N / 25) + 1;

jest.setTimeout(60_000);

interface Entry {
  id: string;
  props: Props;
  news: Props;
}

/** N instances of one stack, in id order, each with a label of its own (as the bench's). */
async function stack(): Promise<Entry[]> {
  const out: Entry[] = [];
  for (let i = 0; i < N; i++) {
    const label = `bench-${i}`;
    const { ids } = (await h.control("POST", "/instances", { count: 1, label })) as { ids: number[] };
    const news = await checked({ offerId: 700001, image: "ubuntu:22.04", label });
    out.push({ id: String(ids[0]), props: { ...news, instanceId: ids[0], actualStatus: "running" }, news });
  }
  return out;
}

/** `entries` with the one at `from` moved to `to`. */
function moved(entries: Entry[], from: number, to: number): Entry[] {
  const rest = entries.filter((_, i) => i !== from);
  return [...rest.slice(0, to), entries[from], ...rest.slice(to)];
}

/** Diffs `order` one at a time, as a preview does; the list calls made. */
async function preview(order: Entry[]): Promise<number> {
  await getClient().instances.get(1); // the HTTP stack loaded outside the measured part
  await h.clearRequests();
  for (const e of order) {
    const diff = await instance.diff(e.id, e.props, e.news);
    expect({ id: e.id, changes: diff.changes }).toEqual({ id: e.id, changes: false });
  }
  return (await h.requests()).filter((r) => r.method === "GET" && LIST_PATH.test(r.path)).length;
}

it(`35.5 a preview of ${N} whose 21st diff is of the 195th id, and whose lowest id is diffed last, makes at most ceil(N/25)+1 = ${target} list calls`, async () => {
  const byId = await stack();
  const order = moved(moved(byId, 194, 20), 0, N - 1);
  expect(await preview(order)).toBeLessThanOrEqual(target);
});

it(`35.5 a preview of ${N} whose first diff is of the 48th id makes at most ${target} list calls`, async () => {
  const byId = await stack();
  expect(await preview(moved(byId, 47, 0))).toBeLessThanOrEqual(target);
});
