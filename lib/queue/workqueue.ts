/**
 * The workqueue: its operators closed into one loop, keys in and one outcome per run out.
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";
import { asyncScheduler, type OperatorFunction, type SchedulerLike } from "../deps.ts";
import { dedupByKey } from "./dedup_by_key.ts";
import { delayUntilDue } from "./delay_until_due.ts";
import { feedbackLoop } from "./feedback_loop.ts";
import { prioritize } from "./prioritize.ts";
import type { QueueMetricsSink } from "./queue_metrics.ts";
import { rateLimit } from "./rate_limit.ts";
import type { RateLimiter } from "./rate_limiter.ts";
import { type Process, runConcurrently } from "./run_concurrently.ts";
import type { QueueInput, RunOutcome } from "./run_outcome.ts";

export type { Process } from "./run_concurrently.ts";

/** Options of {@link workqueue}; every one has a default. */
export interface WorkqueueOptions {
  /** Runs at once (distinct keys). Default 1. */
  readonly concurrency?: number;
  /** Delays retries of failed keys. Default `defaultRateLimiter()`: max of 5 ms..1,000 s
   * exponential backoff per key and a 10/s, burst 100 token bucket. */
  readonly limiter?: RateLimiter;
  /** An `"initial"` key queued this long gets every other turn against live keys. Default 10,000 ms. */
  readonly agingMs?: number;
  /** Clock and timers of every operator. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Receives metrics as they happen (see `createQueueMetrics()`). Default none. */
  readonly metrics?: QueueMetricsSink;
  /** When the input completes: `"ready"` (default) runs queued keys and re-runs of keys added
   * during a run, and drops keys waiting on a delay (retries, `requeueAfterMs`); `"all"` also
   * waits for delayed keys (it may never complete while a key keeps failing); `"none"` only
   * lets runs in progress finish. Dropped keys are emitted as `dropped` outcomes. */
  readonly drain?: "ready" | "all" | "none";
  /** Errors for which retrying is pointless: no retry, backoff reset. Default: none. */
  readonly isTerminal?: (error: unknown, key: ObjectKey) => boolean;
}

/**
 * Runs `process` for each key with client-go's workqueue guarantees and emits one
 * {@link RunOutcome} per run (plus `dropped` ones at completion):
 * - a key never runs twice at once, and at most `concurrency` keys run at once;
 * - an add while the key is queued is coalesced; an add while it runs gives exactly one more run
 *   after it; distinct keys run in FIFO order within their priority;
 * - `{ requeueAfterMs }` runs the key again after that delay; a failure retries after the
 *   limiter's delay; success resets the key's backoff; an add cancels a pending delay;
 * - `"initial"` keys (initial list, resync) wait behind live keys, but once queued for
 *   `agingMs` they get every other turn, so neither starves.
 *
 * It is made of five operators closed into a loop by `feedbackLoop()`, each on the same
 * scheduler: `delayUntilDue` (requeues and retries wait here), `dedupByKey` (the rules above),
 * `rateLimit` (outcomes, backoff, terminal errors), `prioritize` (the ready queue and its lanes)
 * and `runConcurrently` (the workers). Compose them yourself for another queue.
 *
 * Completion follows `drain`. Unsubscribing cancels timers and Observable runs and aborts the
 * `signal` given to `process`.
 *
 * Like client-go's rate-limited workqueue plus the controller's worker loop, but as one cold
 * operator on an injected scheduler, with retries and requeues decided by `process`'s result.
 *
 * ```
 * input:   -a-a-b------|
 * process:  a takes 3 frames, b takes 1
 * output:  ----A-B|        (A = done a, B = done b; the second a was coalesced)
 * ```
 *
 * @param process runs one key.
 * @param options concurrency, limiter, scheduler, metrics, drain.
 * @returns an operator from keys to outcomes.
 * @example
 * ```ts
 * import { from, rx } from "../deps.ts";
 * import { workqueue } from "../../mod.ts";
 * const seen: string[] = [];
 * const outcomes = from(["a", "b", "a"]).pipe(
 *   workqueue(async (key) => void seen.push(key), { concurrency: 2 }),
 *   rx.toArray(),
 * );
 * (await rx.lastValueFrom(outcomes)).length; // 2: "a" was coalesced
 * ```
 */
export function workqueue(
  process: Process,
  options: WorkqueueOptions = {},
): OperatorFunction<QueueInput, RunOutcome> {
  const scheduler = options.scheduler ?? asyncScheduler;
  const { metrics, limiter, isTerminal, agingMs, concurrency } = options;
  const delay = delayUntilDue({ scheduler });
  const dedup = dedupByKey({ scheduler, ...(metrics ? { metrics } : {}) });
  const limit = rateLimit({
    scheduler,
    ...(limiter ? { limiter } : {}),
    ...(isTerminal ? { isTerminal } : {}),
    ...(metrics ? { metrics } : {}),
  });
  const lanes = prioritize({
    scheduler,
    ...(agingMs !== undefined ? { agingMs } : {}),
    ...(metrics ? { metrics } : {}),
  });
  const run = runConcurrently(process, {
    scheduler,
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(metrics ? { metrics } : {}),
  });
  return feedbackLoop(
    (signal$) => signal$.pipe(delay, dedup, limit, lanes, run),
    options.drain ? { drain: options.drain } : {},
  );
}
