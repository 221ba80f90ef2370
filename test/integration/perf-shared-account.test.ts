/**
 * A stack's instances among many others in one account (other stacks, other tools): a refresh
 * or preview costs about ceil(N/25) list calls of the stack's own instances, whatever else the
 * account holds (target: at most min(ceil(N/25)+1, N) + 1 calls), counted in the simulator's
 * request log. The other instances are put on the account through the control API.
 */
import { getClient } from "../../provider/context";
import { Props, checked, instance } from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS });
const target = (n: number) => Math.min(Math.ceil(n / 25) + 1, n) + 1;

async function addInstances(count: number, label: string): Promise<number[]> {
  if (count === 0) return [];
  return ((await h.control("POST", "/instances", { count, label })) as { ids: number[] }).ids;
}

async function stackOf(n: number): Promise<Array<{ id: string; props: Props }>> {
  const inputs = await checked({ offerId: 700001, image: "ubuntu:22.04", label: "ours" });
  return (await addInstances(n, "ours")).map((id) => ({ id: String(id), props: { ...inputs, instanceId: id, actualStatus: "running" } }));
}

async function measured<T>(work: () => Promise<T>): Promise<{ result: T; calls: number }> {
  await getClient().instances.get(1); // load the HTTP stack outside the measured part
  await h.clearRequests();
  const result = await work();
  return { result, calls: (await h.requests()).length };
}

describe.each([0, 100, 500])("a stack of 10 in an account with %i other instances", (others) => {
  it("refreshes with at most min(ceil(N/25)+1, N)+1 calls and finds every instance", async () => {
    await addInstances(Math.floor(others / 2), "theirs");
    const stack = await stackOf(10);
    await addInstances(others - Math.floor(others / 2), "theirs");
    const { result, calls } = await measured(() => Promise.all(stack.map((s) => instance.read(s.id, s.props))));
    expect(result.map((r) => r.id)).toEqual(stack.map((s) => s.id));
    expect(calls).toBeLessThanOrEqual(target(10));
  });

  it("previews with at most min(ceil(N/25)+1, N)+1 calls and no change", async () => {
    await addInstances(others, "theirs");
    const stack = await stackOf(10);
    const news = await checked({ offerId: 700001, image: "ubuntu:22.04", label: "ours" });
    const { result, calls } = await measured(() => Promise.all(stack.map((s) => instance.diff(s.id, s.props, news))));
    expect(result.every((d) => d.changes === false)).toBe(true);
    expect(calls).toBeLessThanOrEqual(target(10));
  });

  it("previews one diff at a time, as the Pulumi CLI does, with at most min(ceil(N/25)+1, N)+1 calls", async () => {
    await addInstances(Math.floor(others / 2), "theirs");
    const stack = await stackOf(10);
    await addInstances(others - Math.floor(others / 2), "theirs");
    const news = await checked({ offerId: 700001, image: "ubuntu:22.04", label: "ours" });
    const { result, calls } = await measured(async () => {
      const out = [];
      for (const s of stack) out.push(await instance.diff(s.id, s.props, news));
      return out;
    });
    expect(result.every((d) => d.changes === false)).toBe(true);
    expect(calls).toBeLessThanOrEqual(target(10));
  });
});

it("refreshes 60 instances asked for 10 at a time among 250 others with ceil(60/25) list calls", async () => {
  await addInstances(250, "theirs");
  const stack = await stackOf(60);
  const { result, calls } = await measured(async () => {
    const out = [];
    for (let i = 0; i < stack.length; i += 10) out.push(...(await Promise.all(stack.slice(i, i + 10).map((s) => instance.read(s.id, s.props)))));
    return out;
  });
  expect(result.map((r) => r.id)).toEqual(stack.map((s) => s.id));
  // And one walk of the charges for the instances' spentUsd (issue 27 item 5), shared by all 60.
  expect(calls).toBe(Math.ceil(60 / 25) + 1);
});

it("reports an instance deleted out of band as gone among many others", async () => {
  await addInstances(300, "theirs");
  const stack = await stackOf(5);
  await h.client.instances.destroy(Number(stack[2].id));
  const reads = await Promise.all(stack.map((s) => instance.read(s.id, s.props)));
  expect(reads.map((r) => r.id)).toEqual([stack[0].id, stack[1].id, "", stack[3].id, stack[4].id]);
});
