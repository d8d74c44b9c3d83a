/**
 * Test helpers for the workqueue's operators: marble tests over queue signals, with some
 * signal types sent back round (as `feedbackLoop()` would) instead of being emitted.
 */
import assert from "node:assert/strict";
import { defer, filter, merge, Subject, tap, TestScheduler } from "../../lib/deps.ts";
import type { MonoTypeOperatorFunction, QueueSignal, RunOutcome } from "../../mod.ts";

/** A fresh TestScheduler asserting with node's deepEqual. */
export const testScheduler = (): TestScheduler =>
  new TestScheduler((actual, expected) => assert.deepEqual(actual, expected));

/** Wraps `op` so the signals of `types` it emits go back into its input. */
export function looped(
  op: MonoTypeOperatorFunction<QueueSignal>,
  types: readonly QueueSignal["type"][],
): MonoTypeOperatorFunction<QueueSignal> {
  return (source) =>
    defer(() => {
      const back = new Subject<QueueSignal>();
      const loops = (s: QueueSignal) => types.includes(s.type);
      return merge(source, back).pipe(
        op,
        tap((s) => loops(s) && back.next(s)),
        filter((s) => !loops(s)),
      );
    });
}

/**
 * Runs `input` marbles through the operator `make(ts)` and expects `expected` marbles.
 * Values are looked up in `values` for both.
 */
export function expectSignals(
  make: (ts: TestScheduler) => MonoTypeOperatorFunction<QueueSignal>,
  input: string,
  expected: string,
  values: Record<string, QueueSignal>,
  error?: unknown,
): void {
  const ts = testScheduler();
  ts.run(({ cold, expectObservable }) => {
    expectObservable(cold(input, values).pipe(make(ts))).toBe(expected, values, error);
  });
}

/** Signal constructors, to keep the value tables short. */
export const sig = {
  add: (key: string, priority: "live" | "initial" = "live", sinceMs?: number): QueueSignal => ({
    type: "add",
    key,
    priority,
    ...(sinceMs !== undefined ? { sinceMs } : {}),
  }),
  ready: (key: string, sinceMs: number, priority: "live" | "initial" = "live"): QueueSignal => ({
    type: "ready",
    key,
    priority,
    sinceMs,
  }),
  promote: (key: string): QueueSignal => ({ type: "promote", key }),
  start: (key: string, sinceMs = 0): QueueSignal => ({ type: "start", key, sinceMs }),
  done: (key: string, durationMs = 0, rerun = false): QueueSignal => ({
    type: "end",
    key,
    durationMs,
    result: { type: "done" },
    rerun,
  }),
  requeue: (key: string, afterMs: number, rerun = false): QueueSignal => ({
    type: "end",
    key,
    durationMs: 0,
    result: { type: "requeue", afterMs },
    rerun,
  }),
  failed: (key: string, error: unknown, rerun = false, durationMs = 0): QueueSignal => ({
    type: "end",
    key,
    durationMs,
    result: { type: "failed", error },
    rerun,
  }),
  after: (key: string, delayMs: number): QueueSignal => ({ type: "after", key, delayMs }),
  slots: (count: number): QueueSignal => ({ type: "slots", count }),
  drain: (mode: "ready" | "all" | "none"): QueueSignal => ({ type: "drain", mode }),
  idle: { type: "idle" } as QueueSignal,
  due: { type: "due" } as QueueSignal,
  outcome: (outcome: RunOutcome): QueueSignal => ({ type: "outcome", outcome }),
  dropped: (key: string): QueueSignal => ({ type: "outcome", outcome: { type: "dropped", key } }),
};
