/**
 * The workqueue as it was before it became composed operators: one operator pumping the
 * timer-free state machine `createQueueState()`. Kept as the reference the operators are
 * compared against (tests/queue/workqueue_reference_test.ts).
 *
 * @module
 */
import {
  type ObjectKey,
  Observable,
  type ObservableInput,
  type OperatorFunction,
  type ProcessResult,
  type QueueInput,
  type QueueMetricsSink,
  type RateLimiter,
  type RunOutcome,
  type SchedulerLike,
} from "../../../mod.ts";
import { asyncScheduler, from, type Subscription } from "../../../lib/deps.ts";
import { createQueueState, type RunEnd } from "./create_queue_state.ts";

/**
 * Processes one key: resolve (or emit / complete) with a {@link ProcessResult}, reject (or error)
 * on failure. Only the first value counts. `signal` aborts when the workqueue is unsubscribed.
 */
export type ReferenceProcess = (
  key: ObjectKey,
  context: { readonly signal: AbortSignal },
) => ObservableInput<ProcessResult>;

/** Options of {@link workqueue}; every one has a default. */
export interface ReferenceOptions {
  /** Runs at once (distinct keys). Default 1. */
  readonly concurrency?: number;
  /** Delays retries of failed keys. Default `defaultRateLimiter()`: max of 5 ms..1,000 s
   * exponential backoff per key and a 10/s, burst 100 token bucket. */
  readonly limiter?: RateLimiter;
  /** An `"initial"` key queued this long gets every other turn against live keys. Default 10,000 ms. */
  readonly agingMs?: number;
  /** Clock and timers. Default `asyncScheduler`. */
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

const isThenable = (x: unknown): x is PromiseLike<unknown> =>
  typeof (x as PromiseLike<unknown> | null)?.then === "function";

type Done = Exclude<RunEnd, { type: "failed" }>;

/** Turns a successful result into a run end, or an error message when it is malformed. */
function endOf(key: ObjectKey, value: unknown): Done | string {
  if (value === undefined || value === null) return { type: "done" };
  const after = (value as { requeueAfterMs?: unknown }).requeueAfterMs;
  if (after === undefined) return { type: "done" };
  if (typeof after !== "number" || !(after >= 0)) {
    return `Cannot requeue key "${key}": requeueAfterMs must be a number >= 0, got ${after}`;
  }
  return { type: "requeue", afterMs: after };
}

/** The old `workqueue()`, unchanged but for its names. */
export function referenceWorkqueue(
  process: ReferenceProcess,
  options: ReferenceOptions = {},
): OperatorFunction<QueueInput, RunOutcome> {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(
      `Cannot create workqueue: concurrency must be an integer >= 1, got ${concurrency}`,
    );
  }
  const scheduler = options.scheduler ?? asyncScheduler;
  const { metrics, isTerminal } = options;
  const drain = options.drain ?? "ready";
  return (source) =>
    new Observable<RunOutcome>((subscriber) => {
      const state = createQueueState({ limiter: options.limiter, agingMs: options.agingMs });
      const abort = new AbortController();
      const context = { signal: abort.signal };
      const inflight = new Set<Subscription>();
      let running = 0, inputDone = false, closed = false, pumping = false, again = false;
      let timer: Subscription | undefined, timerDueMs = Infinity;

      const finish = (key: ObjectKey, startMs: number, ok: boolean, value: unknown) => {
        running--;
        const nowMs = scheduler.now();
        const durationMs = nowMs - startMs;
        metrics?.finished(key, durationMs);
        const checked = ok ? endOf(key, value) : value;
        const end = ok && typeof checked !== "string" ? checked as Done : undefined;
        const error = end === undefined && ok ? new TypeError(checked as string) : value;
        const terminal = end === undefined && isTerminal !== undefined && isTerminal(error, key);
        const next = state.finish(key, end ?? { type: "failed", terminal }, nowMs);
        if (end === undefined && !terminal) metrics?.retried();
        subscriber.next(
          end === undefined
            ? {
              type: "failed",
              key,
              durationMs,
              error,
              failures: next.failures,
              retryInMs: next.delayMs,
            }
            : end.type === "done"
            ? { type: "done", key, durationMs }
            : { type: "requeued", key, durationMs, afterMs: end.afterMs },
        );
        pump();
      };

      const start = (key: ObjectKey, startMs: number) => {
        running++;
        let settled = false;
        let sub: Subscription | undefined;
        const settle = (ok: boolean, value: unknown) => {
          if (settled || closed) return;
          settled = true;
          if (sub !== undefined) {
            inflight.delete(sub);
            sub.unsubscribe();
          }
          finish(key, startMs, ok, value);
        };
        let result: ObservableInput<ProcessResult>;
        let run$;
        try {
          result = process(key, context);
          if (isThenable(result)) {
            result.then((v) => settle(true, v), (e) => settle(false, e));
            return;
          }
          run$ = from(result); // throws when process returned no ObservableInput
        } catch (e) {
          return settle(false, e);
        }
        const s = run$.subscribe({
          next: (v) => settle(true, v),
          error: (e) => settle(false, e),
          complete: () => settle(true, undefined),
        });
        if (settled) s.unsubscribe();
        else inflight.add(sub = s);
      };

      const armTimer = (nowMs: number) => {
        if (state.waiting === 0) return;
        const due = state.nextDueMs();
        if (due === undefined || due >= timerDueMs) return;
        timer?.unsubscribe();
        timerDueMs = due;
        timer = scheduler.schedule(() => {
          timer = undefined;
          timerDueMs = Infinity;
          pump();
        }, Math.max(0, due - nowMs));
      };

      const emitDropped = (keys: ObjectKey[]) => {
        for (const key of keys) subscriber.next({ type: "dropped", key });
      };

      function pump(): void {
        if (pumping) {
          again = true;
          return;
        }
        pumping = true;
        try {
          do {
            again = false;
            const nowMs = scheduler.now();
            if (state.waiting > 0) state.tick(nowMs);
            if (inputDone) {
              if (drain !== "all" && state.waiting > 0) emitDropped(state.dropWaiting());
              if (drain === "none" && state.depth > 0) emitDropped(state.dropQueued());
            }
            while (running < concurrency && !closed) {
              const taken = state.take(nowMs);
              if (taken === undefined) break;
              metrics?.started(taken.key, taken.queuedMs, nowMs);
              start(taken.key, nowMs);
            }
            metrics?.depth(state.depth);
            if (closed) return;
            if (inputDone && running === 0 && state.depth === 0 && state.waiting === 0) {
              timer?.unsubscribe();
              subscriber.complete();
              return;
            }
            armTimer(nowMs);
          } while (again);
        } finally {
          pumping = false;
        }
      }

      const input = source.subscribe({
        next: (item) => {
          const key = typeof item === "string" ? item : item.key;
          const priority = typeof item === "string" ? "live" : item.priority ?? "live";
          if (state.add(key, priority, scheduler.now())) metrics?.added();
          // With every worker busy, a run's end will pick the key up; skip the pump.
          if (running < concurrency) pump();
          else metrics?.depth(state.depth);
        },
        error: (e) => subscriber.error(e),
        complete: () => {
          inputDone = true;
          pump();
        },
      });

      return () => {
        closed = true;
        abort.abort();
        timer?.unsubscribe();
        for (const s of inflight) s.unsubscribe();
        inflight.clear();
        input.unsubscribe();
      };
    });
}
