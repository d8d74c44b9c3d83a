import assert from "node:assert/strict";
import { rx, Subject } from "../../lib/deps.ts";
import { Observable, type Process, type QueueSignal, runConcurrently } from "../../mod.ts";
import { expectSignals, looped, sig } from "./_signals.ts";

/** A process that takes `frames` virtual ms and then yields `value`. */
const takes =
  (frames: number, value: unknown = undefined) => (ts: rx.SchedulerLike): Process => () =>
    rx.timer(frames, ts).pipe(rx.map(() => value as undefined));

Deno.test("runConcurrently() grants its slots, passes a start on and ends the run when it settles", () => {
  expectSignals(
    (ts) => runConcurrently(takes(3)(ts), { scheduler: ts, concurrency: 2 }),
    "-a",
    "ga--e",
    { g: sig.slots(2), a: sig.start("a"), e: sig.done("a", 3) },
  );
});

Deno.test("runConcurrently() grants a slot again when the end has come back round", () => {
  expectSignals(
    (ts) => looped(runConcurrently(takes(3)(ts), { scheduler: ts }), ["end"]),
    "-a",
    "ga--f",
    { g: sig.slots(1), a: sig.start("a"), f: sig.slots(1) },
  );
});

Deno.test("runConcurrently() fails the loop when a key starts with no slot free", () => {
  expectSignals(
    (ts) => runConcurrently(takes(3)(ts), { scheduler: ts }),
    "-ab",
    "ga#",
    { g: sig.slots(1), a: sig.start("a"), b: sig.start("b") },
    new Error('Cannot start key "b": no slot is free'),
  );
});

Deno.test("runConcurrently() turns results into done, requeue and failed ends", () => {
  const values: Record<string, QueueSignal> = {
    g: sig.slots(1),
    a: sig.start("a"),
    r: sig.requeue("a", 30),
    x: sig.failed("a", "boom"),
    t: sig.failed("a", "sync"),
    m: sig.failed(
      "a",
      new TypeError('Cannot requeue key "a": requeueAfterMs must be a number >= 0, got -1'),
    ),
  };
  const run = (process: Process, expected: string) =>
    expectSignals((ts) => runConcurrently(process, { scheduler: ts }), "-a", expected, values);
  run(() => [{ requeueAfterMs: 30 }], "g(ar)");
  run(() => rx.throwError(() => "boom"), "g(ax)");
  run(() => {
    throw "sync";
  }, "g(at)");
  run(() => [{ requeueAfterMs: -1 }], "g(am)");
});

Deno.test("runConcurrently() holds the idle signal back while runs are in progress", () => {
  expectSignals(
    (ts) => looped(runConcurrently(takes(3)(ts), { scheduler: ts }), ["end"]),
    "-ai---i",
    "ga--f-i",
    { g: sig.slots(1), a: sig.start("a"), f: sig.slots(1), i: sig.idle },
  );
});

Deno.test("runConcurrently() reports starts with their latency and ends with their duration", () => {
  const seen: string[] = [];
  expectSignals(
    (ts) =>
      runConcurrently(takes(3)(ts), {
        scheduler: ts,
        metrics: {
          started: (key, queuedMs, nowMs) => void seen.push(`start ${key} ${queuedMs} ${nowMs}`),
          finished: (key, workMs) => void seen.push(`end ${key} ${workMs}`),
        },
      }),
    "-a",
    "ga--e",
    { g: sig.slots(1), a: sig.start("a", -6), e: sig.done("a", 3) },
  );
  assert.deepEqual(seen, ["start a 7 1", "end a 3"]);
});

Deno.test("runConcurrently() aborts the runs' signal and unsubscribes their Observables on unsubscribe", () => {
  const input = new Subject<QueueSignal>();
  let signal: AbortSignal | undefined;
  let unsubscribed = false;
  const sub = input.pipe(
    runConcurrently((key, context) => {
      signal = context.signal;
      return key === "a"
        ? new Observable<undefined>(() => () => void (unsubscribed = true))
        : rx.NEVER;
    }, { scheduler: rx.asyncScheduler, concurrency: 2 }),
  ).subscribe();
  input.next(sig.start("a"));
  input.next(sig.start("b"));
  sub.unsubscribe();
  assert.equal(signal?.aborted, true);
  assert.ok(unsubscribed);
});

Deno.test("runConcurrently() rejects a concurrency that is not a positive integer", () => {
  const process = () => [undefined];
  assert.throws(
    () => runConcurrently(process, { scheduler: rx.asyncScheduler, concurrency: 0 }),
    /concurrency must be an integer >= 1, got 0/,
  );
});
