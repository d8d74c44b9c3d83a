import assert from "node:assert/strict";
import {
  exponentialBackoff,
  maxOf,
  rateLimit,
  type RateLimitOptions,
  type RunOutcome,
  tokenBucket,
} from "../../mod.ts";
import { expectSignals, sig } from "./_signals.ts";

const limit = (options: Omit<RateLimitOptions, "scheduler"> = {}) =>
  expectSignals.bind(null, (ts) => rateLimit({ scheduler: ts, ...options }));
const failed = (
  failures: number,
  retryInMs: number | null,
  error: unknown = "boom",
): RunOutcome => ({
  type: "failed",
  key: "a",
  durationMs: 0,
  error,
  failures,
  retryInMs,
});

Deno.test("rateLimit() turns a successful run into a done outcome and passes the end on", () => {
  limit()("-e", "-(oe)", {
    e: sig.done("a", 3),
    o: sig.outcome({ type: "done", key: "a", durationMs: 3 }),
  });
});

Deno.test("rateLimit() runs a requeued key again after afterMs, unless it is already queued", () => {
  const values = {
    e: sig.requeue("a", 30),
    r: sig.requeue("a", 30, true),
    o: sig.outcome({ type: "requeued", key: "a", durationMs: 0, afterMs: 30 }),
    f: sig.after("a", 30),
  };
  limit()("-e", "-(foe)", values);
  limit()("-r", "-(or)", values);
});

Deno.test("rateLimit() backs a failing key off 5, 10, 20 ms by default and resets on success", () => {
  limit()("-x----x----x----d---x", "-(FAx)(GBx)(HCx)(Dd)(FAx)", {
    x: sig.failed("a", "boom"),
    d: sig.done("a"),
    A: sig.outcome(failed(1, 5)),
    B: sig.outcome(failed(2, 10)),
    C: sig.outcome(failed(3, 20)),
    D: sig.outcome({ type: "done", key: "a", durationMs: 0 }),
    F: sig.after("a", 5),
    G: sig.after("a", 10),
    H: sig.after("a", 20),
  });
});

Deno.test("rateLimit() spends no token and plans no retry for a failed key that is already queued", () => {
  // Burst 1: a retry planned for the rerun would make the next failure of b wait 1,000 ms.
  limit({
    limiter: maxOf(exponentialBackoff({ baseMs: 0 }), tokenBucket({ ratePerSecond: 1, burst: 1 })),
  })(
    "-r---b",
    "-(Or)(FBb)",
    {
      r: sig.failed("a", "boom", true),
      b: sig.failed("b", "boom"),
      O: sig.outcome(failed(1, 0)),
      B: sig.outcome({ ...failed(1, 0), key: "b" }),
      F: sig.after("b", 0),
    },
  );
});

Deno.test("rateLimit() neither retries nor keeps counting an error isTerminal() recognises", () => {
  limit({ isTerminal: (e) => e === "fatal" })("-x----t---x", "-(FAx)(Tt)(FAx)", {
    x: sig.failed("a", "boom"),
    t: sig.failed("a", "fatal"),
    A: sig.outcome(failed(1, 5)),
    T: sig.outcome(failed(2, null, "fatal")),
    F: sig.after("a", 5),
  });
});

Deno.test("rateLimit() reports each retried failure to its metrics", () => {
  let retried = 0;
  expectSignals(
    (ts) =>
      rateLimit({
        scheduler: ts,
        isTerminal: (e) => e === "fatal",
        metrics: { retried: () => void retried++ },
      }),
    "-x----r---t",
    "-(FAx)(Br)(Tt)",
    {
      x: sig.failed("a", "boom"),
      r: sig.failed("a", "boom", true),
      t: sig.failed("a", "fatal"),
      A: sig.outcome(failed(1, 5)),
      B: sig.outcome(failed(2, 0)),
      T: sig.outcome(failed(3, null, "fatal")),
      F: sig.after("a", 5),
    },
  );
  assert.equal(retried, 2);
});

Deno.test("rateLimit() passes on the signals it does not own", () => {
  const values = { a: sig.add("a"), s: sig.start("a"), f: sig.after("a", 1), i: sig.idle };
  limit()("-a-s-f-i", "-a-s-f-i", values);
});
