import assert from "node:assert/strict";
import { from, Subject } from "../../lib/deps.ts";
import * as rx from "npm:rxjs@7.8.2";
import { TestScheduler } from "../../lib/testing/deps.ts";
import {
  createQueueMetrics,
  type ObservableInput,
  type ProcessResult,
  type QueueInput,
  type RunOutcome,
  workqueue,
  type WorkqueueOptions,
} from "../../mod.ts";

const testScheduler = () =>
  new TestScheduler((actual, expected) => assert.deepEqual(actual, expected));
const done = (key: string, durationMs: number): RunOutcome => ({ type: "done", key, durationMs });

/** Runs `input` marbles through a workqueue whose process is `run(key, attempt)`. */
function marbles(
  input: string,
  inputValues: Record<string, QueueInput>,
  run: (key: string, attempt: number) => ObservableInput<ProcessResult>,
  expected: string,
  expectedValues: Record<string, RunOutcome>,
  options: WorkqueueOptions = {},
): void {
  const ts = testScheduler();
  ts.run(({ cold, expectObservable }) => {
    const attempts = new Map<string, number>();
    const process = (key: string) => {
      const n = attempts.get(key) ?? 0;
      attempts.set(key, n + 1);
      return run(key, n);
    };
    const out$ = cold(input, inputValues).pipe(workqueue(process, { scheduler: ts, ...options }));
    expectObservable(out$).toBe(expected, expectedValues);
  });
}

const keys = { a: "a", b: "b", c: "c", d: "d" };
const throwError = rx.throwError;

/** Like `marbles`, with a process that takes `frames` virtual ms per key. */
function timed(
  input: string,
  inputValues: Record<string, QueueInput>,
  frames: (key: string) => number,
  expected: string,
  expectedValues: Record<string, RunOutcome>,
  options: WorkqueueOptions = {},
): void {
  const ts = testScheduler();
  ts.run(({ cold, expectObservable }) => {
    const process = (key: string) => rx.timer(frames(key), ts).pipe(rx.map(() => undefined));
    const out$ = cold(input, inputValues).pipe(workqueue(process, { scheduler: ts, ...options }));
    expectObservable(out$).toBe(expected, expectedValues);
  });
}

Deno.test("workqueue() runs a key added while it runs exactly once more, after the run", () => {
  // a runs 1-5; the adds at 2 and 3 give one more run, 5-9.
  timed("-aaa-|", keys, () => 4, "-----a---(a|)", { a: done("a", 4) });
});

Deno.test("workqueue() coalesces adds of a key that is already queued", () => {
  // a runs 1-6; b is queued at 2 and added again at 3 and 4: one run, 6-11.
  timed("-abbb|", keys, () => 5, "------a----(b|)", { a: done("a", 5), b: done("b", 5) });
});

Deno.test("workqueue() runs distinct keys in the order they were added", () => {
  timed("-cab|", keys, () => 2, "---c-a-(b|)", {
    a: done("a", 2),
    b: done("b", 2),
    c: done("c", 2),
  });
});

Deno.test("workqueue() runs at most `concurrency` distinct keys at once", () => {
  timed("-abc|", keys, () => 3, "----ab-(c|)", {
    a: done("a", 3),
    b: done("b", 3),
    c: done("c", 3),
  }, {
    concurrency: 2,
  });
});

Deno.test("workqueue() runs a key again requeueAfterMs after a run asks for it", () => {
  marbles(
    "-a|",
    keys,
    (_, n) => n === 0 ? [{ requeueAfterMs: 5 }] : [undefined],
    "-r----(d|)",
    { r: { type: "requeued", key: "a", durationMs: 0, afterMs: 5 }, d: done("a", 0) },
    { drain: "all" },
  );
});

/** Key `a`'s run outcome after its `failures`-th failure, retried in `retryInMs`. */
const failed = (failures: number, retryInMs: number): RunOutcome => ({
  type: "failed",
  key: "a",
  durationMs: 0,
  error: "boom",
  failures,
  retryInMs,
});

Deno.test("workqueue() retries a failing key after 5, 10, 20 ms by default, then succeeds", () => {
  marbles(
    "-a|",
    keys,
    (_, n) => n < 3 ? throwError(() => "boom") : [undefined],
    "-x 4ms y 9ms z 19ms (d|)",
    { x: failed(1, 5), y: failed(2, 10), z: failed(3, 20), d: done("a", 0) },
    { drain: "all" },
  );
});

Deno.test("workqueue() cancels a pending delay when the key is added again", () => {
  marbles(
    "-a 8ms a 200ms |",
    keys,
    (_, n) => n === 0 ? [{ requeueAfterMs: 100 }] : [undefined],
    "-r 8ms d 200ms |",
    { r: { type: "requeued", key: "a", durationMs: 0, afterMs: 100 }, d: done("a", 0) },
    { drain: "all" },
  );
});

Deno.test("workqueue() runs a key added while it waits out a failure's backoff at once", () => {
  // As client-go's workqueue: an Add() of a key waiting in AddRateLimited's delay is processed
  // now, and the delayed retry (due at 36) does not run it again.
  marbles(
    "-a 18ms a 30ms |",
    keys,
    (_, n) => n < 3 ? throwError(() => "boom") : [undefined],
    "-x 4ms y 9ms z 3ms d 30ms |",
    { x: failed(1, 5), y: failed(2, 10), z: failed(3, 20), d: done("a", 0) },
    { drain: "all" },
  );
});

Deno.test("workqueue() runs live keys before initial-list keys", () => {
  const values = {
    a: { key: "a", priority: "initial" as const },
    b: { key: "b", priority: "initial" as const },
    c: { key: "c", priority: "initial" as const },
    d: "d",
  };
  // a runs 1-11; b and c wait as initial keys; d (live, added at 6) goes first at 11.
  timed("-(abc)d|", values, () => 10, "-----------a 9ms d 9ms b 9ms (c|)", {
    a: done("a", 10),
    b: done("b", 10),
    c: done("c", 10),
    d: done("d", 10),
  });
});

Deno.test("workqueue() by default drops keys waiting on a delay when the input completes", () => {
  marbles("-a|", keys, () => throwError(() => "boom"), "-f(x|)", {
    f: { type: "failed", key: "a", durationMs: 0, error: "boom", failures: 1, retryInMs: 5 },
    x: { type: "dropped", key: "a" },
  });
});

Deno.test("workqueue() with drain 'none' drops queued keys but lets runs in progress finish", () => {
  timed("-ab|", keys, () => 3, "---x(a|)", { a: done("a", 3), x: { type: "dropped", key: "b" } }, {
    drain: "none",
  });
});

Deno.test("workqueue() does not retry an error isTerminal() recognises", () => {
  marbles("-a|", keys, () => throwError(() => "fatal"), "-f|", {
    f: { type: "failed", key: "a", durationMs: 0, error: "fatal", failures: 1, retryInMs: null },
  }, { drain: "all", isTerminal: (e) => e === "fatal" });
});

Deno.test("workqueue() reports a malformed requeueAfterMs as a failure naming the key", () => {
  const outcomes: RunOutcome[] = [];
  const ts = testScheduler();
  ts.run(({ cold, flush }) => {
    cold("-a|").pipe(workqueue(() => [{ requeueAfterMs: -1 }], { scheduler: ts }))
      .subscribe((o) => outcomes.push(o));
    flush();
  });
  assert.equal(outcomes[0].type, "failed");
  const error = outcomes[0].type === "failed" ? outcomes[0].error : undefined;
  assert.ok(error instanceof TypeError);
  assert.match(
    error.message,
    /Cannot requeue key "a": requeueAfterMs must be a number >= 0, got -1/,
  );
});

Deno.test("workqueue() passes errors of its input through", () => {
  marbles("-#", keys, () => [undefined], "-#", {});
});

Deno.test("workqueue() records adds, retries, durations and runs in progress as metrics", () => {
  const ts = testScheduler();
  const metrics = createQueueMetrics({ scheduler: ts });
  const during: number[] = [];
  ts.run(({ cold, flush }) => {
    const process = (key: string) =>
      key === "bad" ? throwError(() => "boom") : rx.timer(1000, ts).pipe(rx.map(() => undefined));
    cold("-a-a-b-x|", { a: "a", b: "b", x: "bad" }).pipe(
      workqueue(process, { scheduler: ts, concurrency: 1, metrics }),
    )
      .subscribe();
    ts.schedule(() => {
      const m = metrics.snapshot();
      during.push(m.depth, m.unfinishedWorkSeconds, m.longestRunningProcessorSeconds);
    }, 501);
    flush();
  });
  // At 501: a running since 1 (the add at 3 waits for it to end), b and bad queued.
  assert.deepEqual(during, [2, 0.5, 0.5]);
  const m = metrics.snapshot();
  assert.equal(m.addsTotal, 4);
  assert.equal(m.retriesTotal, 1);
  assert.equal(m.depth, 0);
  assert.equal(m.workDurationSeconds.count, 4);
  assert.equal(m.workDurationSeconds.sum, 3);
  assert.equal(m.queueDurationSeconds.count, 4);
  assert.equal(m.unfinishedWorkSeconds, 0);
  // Cumulative buckets: the three 1 s runs and the 0 s one are <= 1 s; only the 0 s one <= 1e-8.
  const at = (h: typeof m.workDurationSeconds, bound: number) => h.counts[h.bounds.indexOf(bound)];
  assert.equal(at(m.workDurationSeconds, 1e-8), 1);
  assert.equal(at(m.workDurationSeconds, 1), 4);
});

Deno.test("workqueue() works with Promises on the real clock", async () => {
  const seen: string[] = [];
  const outcomes = await rx.lastValueFrom(
    from(["a", "b", "b", "c"]).pipe(
      workqueue(async (key) => {
        await Promise.resolve();
        seen.push(key);
        if (key === "c") throw new Error("c is broken");
      }),
      rx.toArray(),
    ),
  );
  assert.deepEqual(seen, ["a", "b", "c"]);
  assert.deepEqual(outcomes.map((o) => `${o.type} ${o.key}`), [
    "done a",
    "done b",
    "failed c",
    "dropped c",
  ]);
});

Deno.test("workqueue() cancels timers and aborts runs when unsubscribed", async () => {
  const input = new Subject<string>();
  let signal: AbortSignal | undefined;
  const failed = Promise.withResolvers<void>();
  const sub = input.pipe(
    workqueue((key, context) => {
      if (key === "a") return Promise.reject(new Error("a fails"));
      signal = context.signal;
      return new Promise<void>(() => {});
    }, { concurrency: 2, limiter: { initial: null, step: (s) => [60_000, s] } }),
  ).subscribe((o) => o.type === "failed" && failed.resolve());
  input.next("a");
  input.next("b");
  await failed.promise; // a now waits on a 60 s retry timer; b never finishes.
  sub.unsubscribe();
  assert.equal(signal?.aborted, true);
  // Deno's sanitizers fail this test if the 60 s timer is still pending.
});

Deno.test("workqueue() rejects a concurrency that is not a positive integer", () => {
  assert.throws(
    () => workqueue(() => [undefined], { concurrency: 0 }),
    /concurrency must be an integer >= 1, got 0/,
  );
  assert.throws(() => workqueue(() => [undefined], { concurrency: 1.5 }), /got 1.5/);
});

Deno.test("workqueue() copes with a process that throws synchronously", () => {
  marbles(
    "-a|",
    keys,
    () => {
      throw "sync";
    },
    "-f(x|)",
    {
      f: { type: "failed", key: "a", durationMs: 0, error: "sync", failures: 1, retryInMs: 5 },
      x: { type: "dropped", key: "a" },
    },
  );
});

Deno.test("workqueue() reports a process that returns no Promise or Observable as a failure", () => {
  const outcomes: RunOutcome[] = [];
  from(["a"]).pipe(
    workqueue(() => undefined as unknown as Promise<void>, { scheduler: rx.queueScheduler }),
  ).subscribe((o) => outcomes.push(o));
  assert.deepEqual(outcomes.map((o) => o.type), ["failed", "dropped"]);
  assert.ok(outcomes[0].type === "failed" && outcomes[0].error instanceof TypeError);
});

Deno.test("workqueue() is cold: each subscription has its own queue", () => {
  const runs: string[] = [];
  const q$ = from(["a"]).pipe(
    workqueue((k) => [void runs.push(k)], { scheduler: rx.queueScheduler }),
  );
  q$.subscribe();
  q$.subscribe();
  assert.deepEqual(runs, ["a", "a"]);
});
