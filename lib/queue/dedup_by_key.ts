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

/** A key that is queued or running; idle keys have no record. */
interface Rec {
  running: boolean;
  /** Lane while queued; with `rerun`, the lane of the next run. */
  lane: Priority;
  /** Added during the run: it runs once more, queued since `sinceMs`. */
  rerun: boolean;
  sinceMs: number;
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
 * import { dedupByKey } from "../../mod.ts";
 * import { asyncScheduler } from "../deps.ts";
 * const dedup = dedupByKey({ scheduler: asyncScheduler }); // use inside feedbackLoop()
 * ```
 */
export function dedupByKey(options: DedupByKeyOptions): MonoTypeOperatorFunction<QueueSignal> {
  const { scheduler, metrics } = options;
  return stage(({ emit, fail }) => {
    const recs = new Map<ObjectKey, Rec>();
    return {
      next(signal) {
        switch (signal.type) {
          case "add": {
            const { key, priority } = signal;
            const rec = recs.get(key);
            if (rec === undefined) {
              recs.set(key, { running: false, lane: priority, rerun: false, sinceMs: 0 });
              metrics?.added();
              const sinceMs = signal.sinceMs ?? scheduler.now();
              return emit({ type: "ready", key, priority, sinceMs });
            }
            if (!rec.running) {
              if (priority === "live" && rec.lane === "initial") {
                rec.lane = "live";
                emit({ type: "promote", key });
              }
            } else if (!rec.rerun) {
              rec.rerun = true;
              rec.lane = priority;
              rec.sinceMs = signal.sinceMs ?? scheduler.now();
              metrics?.added();
            } else if (priority === "live") rec.lane = "live";
            return;
          }
          case "start": {
            const rec = recs.get(signal.key);
            if (rec === undefined || rec.running) {
              return fail(new Error(`Cannot start key "${signal.key}": it is not queued`));
            }
            rec.running = true;
            return;
          }
          case "end": {
            const { key } = signal;
            const rec = recs.get(key);
            if (rec === undefined || !rec.running) {
              return fail(new Error(`Cannot end key "${key}": it is not running`));
            }
            if (!rec.rerun) {
              recs.delete(key);
              return emit(signal);
            }
            rec.running = false;
            rec.rerun = false;
            // The outcome of this run comes out before the next run can start.
            emit({ ...signal, rerun: true });
            return emit({ type: "ready", key, priority: rec.lane, sinceMs: rec.sinceMs });
          }
          default:
            return emit(signal);
        }
      },
    };
  });
}
