/**
 * `runConcurrently()`: runs started keys, at most `concurrency` at once.
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";
import {
  from,
  type MonoTypeOperatorFunction,
  type ObservableInput,
  type SchedulerLike,
  type Subscription,
} from "../deps.ts";
import { isThenable, resultOf } from "./_run_result.ts";
import { stage } from "./_stage.ts";
import type { QueueMetricsSink } from "./queue_metrics.ts";
import type { QueueSignal } from "./queue_signal.ts";
import type { Process, ProcessResult } from "./run_outcome.ts";

export type { Process } from "./run_outcome.ts";

/** Options of {@link runConcurrently}. */
export interface RunConcurrentlyOptions {
  /** Clock of run durations. */
  readonly scheduler: SchedulerLike;
  /** Runs at once. Default 1. */
  readonly concurrency?: number;
  /** Told when runs start and end (`started()`, `finished()`). Default none. */
  readonly metrics?: Pick<QueueMetricsSink, "started" | "finished">;
}

const oneSlot: QueueSignal = { type: "slots", count: 1 };

/**
 * Bounded concurrency with demand: on subscribe it grants `concurrency` slots (a `slots`
 * signal); for each `start` it passes the signal on, then calls `process` and, when that
 * settles, emits an `end` signal. When the `end` comes back round the loop — after every other
 * operator has acted on it — the slot is granted again. While runs are in progress it swallows
 * `idle`. Unsubscribing aborts the `signal` given to `process` and unsubscribes Observable runs.
 *
 * Like client-go's worker goroutines (`for processNextWorkItem()`) or `mergeMap(fn, n)`, but
 * it asks for work instead of buffering it, so the ready queue keeps its order until a slot
 * is free.
 *
 * ```
 * signals: (start a)--(end a, after it went round)
 * process:  a takes 3 frames
 * output:  (slots 1)(start a)---(end a)--(slots 1)
 * ```
 *
 * @param process runs one key.
 * @param options the scheduler, concurrency and metrics.
 * @returns an operator over queue signals.
 * @example
 * ```ts
 * import { runConcurrently } from "../../mod.ts";
 * import { asyncScheduler } from "../deps.ts";
 * const run = runConcurrently(async (_key) => {}, { scheduler: asyncScheduler, concurrency: 4 });
 * ```
 */
export function runConcurrently(
  process: Process,
  options: RunConcurrentlyOptions,
): MonoTypeOperatorFunction<QueueSignal> {
  const { scheduler, metrics } = options;
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(
      `Cannot create workqueue: concurrency must be an integer >= 1, got ${concurrency}`,
    );
  }
  return stage(({ emit, fail }) => {
    const abort = new AbortController();
    const context = { signal: abort.signal };
    const inflight = new Set<Subscription>();
    let running = 0, closed = false;

    const run = (key: ObjectKey, startMs: number) => {
      let settled = false;
      let sub: Subscription | undefined;
      const settle = (ok: boolean, value: unknown) => {
        if (settled || closed) return;
        settled = true;
        if (sub !== undefined) {
          inflight.delete(sub);
          sub.unsubscribe();
        }
        const durationMs = scheduler.now() - startMs;
        metrics?.finished(key, durationMs);
        const result = ok ? resultOf(key, value) : { type: "failed" as const, error: value };
        emit({ type: "end", key, durationMs, result, rerun: false });
      };
      let result: ObservableInput<ProcessResult>;
      try {
        result = process(key, context);
        if (isThenable(result)) {
          result.then((v) => settle(true, v), (e) => settle(false, e));
          return;
        }
        const s = from(result).subscribe({ // from() throws when it is no ObservableInput
          next: (v) => settle(true, v),
          error: (e) => settle(false, e),
          complete: () => settle(true, undefined),
        });
        if (settled) s.unsubscribe();
        else inflight.add(sub = s);
      } catch (e) {
        settle(false, e);
      }
    };

    return {
      next(signal) {
        switch (signal.type) {
          case "start": {
            if (running === concurrency) {
              return fail(new Error(`Cannot start key "${signal.key}": no slot is free`));
            }
            running++;
            const startMs = scheduler.now();
            metrics?.started(signal.key, startMs - signal.sinceMs, startMs);
            emit(signal); // before the run, so the loop hears of the start before of any add
            return run(signal.key, startMs);
          }
          case "end":
            running--;
            return emit(oneSlot);
          case "idle":
            if (running > 0) return;
            return emit(signal);
          default:
            return emit(signal);
        }
      },
      started: () => emit({ type: "slots", count: concurrency }),
      teardown: () => {
        closed = true;
        abort.abort();
        for (const s of inflight) s.unsubscribe();
        inflight.clear();
      },
    };
  });
}
