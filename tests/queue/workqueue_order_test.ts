import assert from "node:assert/strict";
import { rx, Subject } from "../../lib/deps.ts";
import { type QueueInput, type RunOutcome, workqueue } from "../../mod.ts";
import { testScheduler } from "./_signals.ts";

const done = (key: string, durationMs: number): RunOutcome => ({ type: "done", key, durationMs });

Deno.test("workqueue() runs a key requeued with no delay before initial keys, as a live add", () => {
  const ts = testScheduler();
  ts.run(({ cold, expectObservable }) => {
    const runs = new Map<string, number>();
    const process = (key: string) => {
      const n = runs.get(key) ?? 0;
      runs.set(key, n + 1);
      return rx.timer(2, ts).pipe(
        rx.map(() => (key === "a" && n === 0 ? { requeueAfterMs: 0 } : undefined)),
      );
    };
    const values = { a: "a", i: { key: "i", priority: "initial" as const } };
    // a runs 1-3 and asks to run again at once: it goes before i, which was queued at 2.
    expectObservable(cold("-ai|", values).pipe(workqueue(process, { scheduler: ts }))).toBe(
      "---r-d-(x|)",
      {
        r: { type: "requeued", key: "a", durationMs: 2, afterMs: 0 },
        d: done("a", 2),
        x: done("i", 2),
      },
    );
  });
});

Deno.test("workqueue() runs once more a key that process adds to the input while it runs", () => {
  const input = new Subject<QueueInput>();
  const runs: string[] = [];
  const outcomes: string[] = [];
  input.pipe(
    workqueue((key) => {
      runs.push(key);
      if (runs.length === 1) input.next(key); // synchronously, during its own run
      return [undefined];
    }, { scheduler: rx.queueScheduler }),
  ).subscribe((o) => outcomes.push(`${o.type} ${o.key}`));
  input.next("a");
  assert.deepEqual(runs, ["a", "a"]);
  assert.deepEqual(outcomes, ["done a", "done a"]);
});

Deno.test("workqueue() runs the outcome of a run out before the key runs again", () => {
  const input = new Subject<QueueInput>();
  const log: string[] = [];
  input.pipe(
    workqueue((key) => {
      log.push(`start ${key}`);
      if (log.length === 1) input.next(key);
      return [undefined];
    }, { scheduler: rx.queueScheduler, concurrency: 2 }),
  ).subscribe((o) => log.push(`${o.type} ${o.key}`));
  input.next("a");
  assert.deepEqual(log, ["start a", "done a", "start a", "done a"]);
});
