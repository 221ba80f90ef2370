import { RetryHooks, withRetry } from "../../provider/client/retry";
import { retryClock } from "../support/retry-clock";

/** A failure that says itself it may be retried, as the client's errors do. */
class Retryable extends Error {
  readonly retryable = true;
  attempts = 1;
  gaveUpAfter(attempts: number): void {
    this.attempts = attempts;
    this.message = `${this.message} after ${attempts}`;
  }
}

const clock = retryClock;

function hooks(outcomes: Array<"ok" | "retry" | "fatal">, onAttempt?: (n: number, remaining: number) => void): RetryHooks<string> & { calls: number } {
  const h = {
    calls: 0,
    attempt: async (n: number, remaining: number) => {
      h.calls++;
      onAttempt?.(n, remaining);
      const o = outcomes[n - 1] ?? "retry";
      if (o === "ok") return `ok on ${n}`;
      throw o === "retry" ? new Retryable(`fail ${n}`) : new Error(`fatal ${n}`);
    },
    deadlineExceeded: () => new Error("deadline"),
  };
  return h;
}

const policy = { maxAttempts: 4, deadlineMs: 60_000, backoff: { baseMs: 100, capMs: 1000 } };

describe("retry", () => {
  it("retries a retryable failure and returns the later success", async () => {
    const { c, sleeps } = clock();
    const h = hooks(["retry", "retry", "ok"]);
    await expect(withRetry(h, policy, c)).resolves.toBe("ok on 3");
    expect(h.calls).toBe(3);
    expect(sleeps).toEqual([50, 100]); // random 0.5 of ceilings 100, 200
  });

  it("gives up by recording the attempts on the last failure itself, not on a copy", async () => {
    const { c } = clock();
    const h = hooks([]);
    const error = await withRetry(h, policy, c).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Retryable);
    expect(error).toMatchObject({ attempts: 4, message: "fail 4 after 4" });
  });

  it("does not retry a failure whose retryable is false", async () => {
    const { c } = clock();
    const notAgain = Object.assign(new Error("final"), { retryable: false, gaveUpAfter: () => {} });
    let calls = 0;
    const h = { attempt: async () => { calls++; throw notAgain; }, deadlineExceeded: () => new Error("deadline") };
    await expect(withRetry(h, policy, c)).rejects.toBe(notAgain);
    expect(calls).toBe(1);
  });

  it("does not retry other failures", async () => {
    const { c } = clock();
    const h = hooks(["fatal"]);
    await expect(withRetry(h, policy, c)).rejects.toThrow("fatal 1");
    expect(h.calls).toBe(1);
  });

  it("gives up after maxAttempts with the last error and the count", async () => {
    const { c, sleeps } = clock();
    const h = hooks([]);
    await expect(withRetry(h, policy, c)).rejects.toThrow("fail 4 after 4");
    expect(h.calls).toBe(4);
    expect(sleeps).toHaveLength(3);
  });

  it("stops early rather than wait past the total deadline", async () => {
    const { c, sleeps } = clock(0.99);
    const h = hooks([]);
    await expect(withRetry(h, { ...policy, deadlineMs: 250 }, c)).rejects.toThrow("fail 2 after 2");
    expect(sleeps).toEqual([99]);
  });

  it("hands each attempt what is left of the deadline", async () => {
    const { c, advance } = clock(0);
    const remaining: number[] = [];
    const h = hooks(["retry", "ok"], (_n, r) => {
      remaining.push(r);
      advance(400);
    });
    await withRetry(h, { ...policy, deadlineMs: 1000 }, c);
    expect(remaining).toEqual([1000, 600]);
  });

  it("reports the last failure when an attempt used up the deadline", async () => {
    const { c, advance } = clock(0);
    const h = hooks([], () => advance(600));
    await expect(withRetry(h, { ...policy, deadlineMs: 1000 }, c)).rejects.toThrow("fail 2 after 2");
  });
});
