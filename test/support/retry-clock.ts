import type { Clock } from "../../provider/client/retry";

/** A clock for the client's retries that sleeps no real time: each sleep is recorded and moves time on at once; `random` is fixed. */
export function retryClock(random = 0.5): { c: Clock; sleeps: number[]; advance: (ms: number) => number } {
  let t = 0;
  const sleeps: number[] = [];
  const c: Clock = {
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
    },
    random: () => random,
  };
  return { c, sleeps, advance: (ms: number) => (t += ms) };
}
