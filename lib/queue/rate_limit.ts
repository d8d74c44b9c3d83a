/**
 * `rateLimit()`: decides what follows each run — an outcome, and maybe a delayed run.
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";
import type { MonoTypeOperatorFunction, SchedulerLike } from "../deps.ts";
import { stage } from "./_stage.ts";
import { defaultRateLimiter } from "./default_rate_limiter.ts";
import type { QueueMetricsSink } from "./queue_metrics.ts";
import type { QueueSignal, SignalOf } from "./queue_signal.ts";
import type { RateLimiter } from "./rate_limiter.ts";
import type { RunOutcome } from "./run_outcome.ts";

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /** Clock passed to the limiter. */
  readonly scheduler: SchedulerLike;
  /** Delays retries of failed keys. Default `defaultRateLimiter()`. */
  readonly limiter?: RateLimiter;
  /** Errors for which retrying is pointless: no retry, backoff reset. Default: none. */
  readonly isTerminal?: (error: unknown, key: ObjectKey) => boolean;
  /** Told of every failure that will be retried (`retried()`). Default none. */
  readonly metrics?: Pick<QueueMetricsSink, "retried">;
}

/**
 * Turns each `end` signal into a {@link RunOutcome} and plans the key's next run:
 * - done: the key's failure count is reset;
 * - requeue: reset too, and the key runs again after `afterMs` (an `after` signal);
 * - failed: the count goes up and the key runs again after the limiter's delay — stepped with
 *   the count before this failure, so per-key backoff and an overall token bucket compose
 *   (`maxOf`); a terminal error (`isTerminal`) resets the count and is not retried.
 *
 * A key added during its run (`rerun`) is already queued: no `after`, the limiter is not
 * stepped, and a failure reports `retryInMs: 0`. The `end` is passed on.
 *
 * Like client-go's rate-limiting queue (`AddRateLimited`, `Forget`, `NumRequeues`) plus the
 * controller's `handleErr`, but the limiter is a pure value and the clock the scheduler's.
 *
 * ```
 * signals: -(end a failed)-----------------
 * output:  -(outcome failed a 1, after a 5, end a)
 * ```
 *
 * @param options the scheduler, limiter, terminal errors and metrics.
 * @returns an operator over queue signals.
 * @example
 * ```ts
 * import { exponentialBackoff, rateLimit } from "../../mod.ts";
 * import { asyncScheduler } from "../deps.ts";
 * const limit = rateLimit({ scheduler: asyncScheduler, limiter: exponentialBackoff() });
 * ```
 */
export function rateLimit(options: RateLimitOptions): MonoTypeOperatorFunction<QueueSignal> {
  const { scheduler, isTerminal, metrics } = options;
  const limiter = options.limiter ?? defaultRateLimiter();
  return stage(({ emit }) => {
    let state = limiter.initial;
    const failures = new Map<ObjectKey, number>();

    const outcomeOf = (end: SignalOf<"end">): RunOutcome => {
      const { key, durationMs, result, rerun } = end;
      switch (result.type) {
        case "done":
          if (failures.size > 0) failures.delete(key);
          return { type: "done", key, durationMs };
        case "requeue":
          if (failures.size > 0) failures.delete(key);
          if (!rerun) emit({ type: "after", key, delayMs: result.afterMs });
          return { type: "requeued", key, durationMs, afterMs: result.afterMs };
        case "failed": {
          const { error } = result;
          const before = failures.get(key) ?? 0;
          let retryInMs: number | null = rerun ? 0 : null;
          if (isTerminal !== undefined && isTerminal(error, key)) failures.delete(key);
          else {
            metrics?.retried();
            failures.set(key, before + 1);
            if (!rerun) {
              const [delayMs, next] = limiter.step(state, before, scheduler.now());
              state = next;
              retryInMs = Math.max(0, delayMs);
              emit({ type: "after", key, delayMs: retryInMs });
            }
          }
          return { type: "failed", key, durationMs, error, failures: before + 1, retryInMs };
        }
      }
    };

    return {
      next(signal) {
        if (signal.type === "end") emit({ type: "outcome", outcome: outcomeOf(signal) });
        emit(signal);
      },
    };
  });
}
