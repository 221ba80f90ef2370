/**
 * The paged instance list `GET /api/v1/instances/` as the vendor documents it: filters on
 * stored columns (computed ones refused), sorting with id as tiebreaker, `limit` <= 0 meaning 5,
 * column selection, and `total_instances` counting what matches.
 */
import { useSimulator } from "../support/simulator";

const h = useSimulator();

async function page(query: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${h.sim.url}/api/v1/instances/?${new URLSearchParams(query)}`, { headers: { authorization: `Bearer ${h.sim.apiKey}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const idsOf = (body: Record<string, unknown>) => (body.instances as Array<{ id: number }>).map((i) => i.id);

beforeEach(async () => {
  await h.control("POST", "/instances", { count: 30, label: "a" });
  await h.control("POST", "/instances", { count: 10, label: "b" });
});

it("filters by id with in and gte, and counts the matches in total_instances", async () => {
  const all = idsOf((await page({ limit: "25" })).body);
  const wanted = [all[3], all[7], all[20]];
  const byIn = await page({ select_filters: JSON.stringify({ id: { in: wanted } }) });
  expect(idsOf(byIn.body)).toEqual(wanted);
  expect(byIn.body.total_instances).toBe(3);
  const fromTen = await page({ select_filters: JSON.stringify({ id: { gte: all[10] } }) });
  expect(idsOf(fromTen.body)[0]).toBe(all[10]);
  expect(fromTen.body.total_instances).toBe(40 - 10);
});

it("filters by label and walks the matches with next_token", async () => {
  const first = await page({ limit: "25", select_filters: JSON.stringify({ label: { eq: "a" } }) });
  expect(first.body.total_instances).toBe(30);
  expect(idsOf(first.body)).toHaveLength(25);
  const second = await page({ limit: "25", select_filters: JSON.stringify({ label: { eq: "a" } }), after_token: String(first.body.next_token) });
  expect(idsOf(second.body)).toHaveLength(5);
  expect(second.body.next_token).toBeNull();
});

it("sorts by order_by with id as the tiebreaker", async () => {
  const desc = await page({ limit: "5", order_by: JSON.stringify([{ col: "id", dir: "desc" }]) });
  const ids = idsOf(desc.body);
  expect(ids).toEqual([...ids].sort((a, b) => b - a));
  const byLabel = await page({ limit: "25", order_by: JSON.stringify([{ col: "label", dir: "desc" }]) });
  expect((byLabel.body.instances as Array<{ label: string }>).slice(0, 10).every((i) => i.label === "b")).toBe(true);
});

it("treats limit <= 0 as 5 and returns only the selected columns", async () => {
  const small = await page({ limit: "0", select_cols: JSON.stringify(["id", "label", "nope"]) });
  expect(idsOf(small.body)).toHaveLength(5);
  expect(Object.keys((small.body.instances as object[])[0]).sort()).toEqual(["id", "label", "nope"]);
  expect((small.body.instances as Array<{ nope: unknown }>)[0].nope).toBeNull();
});

it("refuses filters on computed columns, unknown columns and text that is not JSON (400)", async () => {
  const queries: Array<Record<string, string>> = [{ select_filters: JSON.stringify({ dph_total: { lt: 1 } }) }, { select_filters: JSON.stringify({ nope: { eq: 1 } }) }, { select_filters: "{" }, { order_by: JSON.stringify([{ col: "nope" }]) }];
  for (const query of queries) {
    const { status, body } = await page(query);
    expect({ query, status, error: body.error }).toEqual({ query, status: 400, error: "invalid_args" });
  }
});
