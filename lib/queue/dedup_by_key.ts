/**
 * `dedupByKey()`: the workqueue's dedup rules — never the same key twice at once.
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";
import type { MonoTypeOperatorFunction, SchedulerLike } from "../deps.ts";
import { stage } from "./_stage.ts";
import type { QueueMetricsSink } from "./queue_metrics.ts";
import type { QueueSignal } from "./queue_signal.ts";
import type { Priority } from "./run_outcome.ts";

/** Options of {@link dedupByKey}. */
export interface DedupByKeyOptions {
  /** Clock of the queue latency of plain adds. */
  readonly scheduler: SchedulerLike;
  /** Told of every add that was not coalesced (`added()`). Default none. */
  readonly metrics?: Pick<QueueMetricsSink, "added">;
}

/**
 * Where a key is: queued live, queued initial, running, or running and added since (then with
 * the lane and time of its next run). Idle keys have no entry.
 */
const queuedLive = 0, queuedInitial = 1, running = 2;
type State = typeof queuedLive | typeof queuedInitial | typeof running | Rerun;
interface Rerun {
  lane: Priority;
  readonly sinceMs: number;
}

/**
 * Applies client-go's workqueue rules to `add` signals, tracking each key through `start` and
 * `end`:
 * - an idle key becomes `ready` (it enters the ready queue);
 * - an add of a queued key is coalesced; a live add of a queued initial key `promote`s it;
 * - an add of a running key marks it for exactly one more run (however many adds follow): at its
 *   `end` the key goes on with `rerun: true` and then becomes `ready` again.
 *
 * So a key is never `ready` while queued or running, and `prioritize()` never starts it twice.
 *
 * Like client-go's `workqueue.Typed` (its dirty and processing sets), but an operator.
 *
 * ```
 * signals: -(add a)-(add a)-(start a)-(add a)-(add a)-(end a)---------
 * output:  -(ready a)-------------------------------(end a rerun, ready a)
 * ```
 *
 * @param options the scheduler, and metrics.
 * @returns an operator over queue signals.
 * @example
 * ```ts
 * import { dedupByKey } from "./mod.ts";
 * import { asyncScheduler } from "../deps.ts";
 * const dedup = dedupByKey({ scheduler: asyncScheduler }); // use inside feedbackLoop()
 * ```
 */
export function dedupByKey(options: DedupByKeyOptions): MonoTypeOperatorFunction<QueueSignal> {
  const { scheduler, metrics } = options;
  return stage(({ emit, fail }) => {
    const states = new Map<ObjectKey, State>();
    return {
      next(signal) {
        switch (signal.type) {
          case "add": {
            const { key, priority } = signal;
            const state = states.get(key);
            if (state === undefined) {
              states.set(key, priority === "live" ? queuedLive : queuedInitial);
              metrics?.added();
              const sinceMs = signal.sinceMs ?? scheduler.now();
              return emit({ type: "ready", key, priority, sinceMs });
            }
            if (state === queuedInitial && priority === "live") {
              states.set(key, queuedLive);
              emit({ type: "promote", key });
            } else if (state === running) {
              states.set(key, { lane: priority, sinceMs: signal.sinceMs ?? scheduler.now() });
              metrics?.added();
            } else if (typeof state === "object" && priority === "live") state.lane = "live";
            return;
          }
          case "start": {
            const state = states.get(signal.key);
            if (state !== queuedLive && state !== queuedInitial) {
              return fail(new Error(`Cannot start key "${signal.key}": it is not queued`));
            }
            states.set(signal.key, running);
            return;
          }
          case "end": {
            const { key } = signal;
            const state = states.get(key);
            if (state === running) {
              states.delete(key);
              return emit(signal);
            }
            if (typeof state !== "object") {
              return fail(new Error(`Cannot end key "${key}": it is not running`));
            }
            states.set(key, state.lane === "live" ? queuedLive : queuedInitial);
            // The outcome of this run comes out before the next run can start.
            emit({ ...signal, rerun: true });
            return emit({ type: "ready", key, priority: state.lane, sinceMs: state.sinceMs });
          }
          default:
            return emit(signal);
        }
      },
    };
  });
}
