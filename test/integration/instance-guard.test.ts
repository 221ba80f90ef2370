/**
 * Issue 34: how the engine reads what an instance's guard did (guard/state.ts), through the
 * provider against the simulator: who stopped it (`stoppedBy`), the warnings of the diff (a
 * guard change recreates the container; an instance past its deadline that still runs; one its
 * guard destroyed is not rented again).
 */
import { checked, createChecked, instance, type Props } from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";
import { useWarnings } from "../support/warnings";

// No cached listing: each diff and read sees what the test just did.
const h = useSimulator({ providers: true, settings: { ...FAST_INSTANCE_SETTINGS, liveCacheTtlMs: 0 } });
const warnings = useWarnings();

const past = () => new Date(Date.now() - 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");

test("34 stoppedBy: outside (no guard), program (targetState), autostop, ttl (past the deadline, expireAction stop)", async () => {
  const cases: [Props, (outs: Props) => Props, string][] = [
    [{ offerId: 700001, image: "alpine" }, (o) => o, "outside"],
    [{ offerId: 700002, image: "alpine", autostop: { idleMinutes: 10 } }, (o) => o, "autostop"],
    [{ offerId: 700003, image: "alpine", ttl: "1h", expireAction: "stop" }, (o) => ({ ...o, deadline: past() }), "ttl"],
    [{ offerId: 700004, image: "alpine", ttl: "1h", expireAction: "stop" }, (o) => o, "outside"],
  ];
  for (const [args, state, expected] of cases) {
    const { id, outs } = await createChecked(args);
    await h.client.instances.stop(Number(id));
    const read = await instance.read!(id, state(outs));
    expect([args.offerId, read.props?.stoppedBy]).toEqual([args.offerId, expected]);
    await instance.delete!(id, outs);
  }
  const { id, outs } = await createChecked({ offerId: 700005, image: "alpine", autostop: { idleMinutes: 10 }, targetState: "stopped", waitForRunning: false });
  expect((await instance.read!(id, outs)).props?.stoppedBy).toBe("program");
  await instance.delete!(id, outs);
});

test("34 the diff says why a guard change recreates the container, and warns of an instance past its deadline that still runs", async () => {
  const args = { offerId: 700006, image: "alpine", autostop: { idleMinutes: 10 }, ttl: "2h" };
  const { id, outs } = await createChecked(args);
  expect(await instance.diff!(id, outs, await checked({ ...args, autostop: { idleMinutes: 20 } }))).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  expect(warnings).toEqual([expect.stringMatching(/^Instance \d+: autostop changed; .* the update recreates the container on the same machine with the new guard/)]);
  warnings.length = 0;
  // Past the deadline and still running: the guard did not act. No replacement, a warning.
  expect(await instance.diff!(id, { ...outs, deadline: past() }, await checked(args))).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  expect(warnings).toEqual([expect.stringMatching(/is past its deadline .* and still runs: its guard did not act/)]);
  await instance.delete!(id, outs);
});

test("34 an instance its guard destroyed at the deadline: the diff warns it expired and rents nothing; a vanished one without a guard is replaced as before", async () => {
  const args = { offerId: 700007, image: "alpine", ttl: "2h" };
  const { id, outs } = await createChecked(args);
  await h.client.instances.destroy(Number(id));
  expect(await instance.diff!(id, { ...outs, deadline: past() }, await checked(args))).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  expect(warnings).toEqual([expect.stringMatching(/^Instance \d+ expired at .* its guard destroyed it, and it is not re-created/)]);
  // Before its deadline a vanished instance is not the guard's doing: replaced.
  expect((await instance.diff!(id, outs, await checked(args))).replaces).toEqual(["instanceId"]);
});
