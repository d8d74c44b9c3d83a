/**
 * `prioritize()`: the ready queue — live keys before initial-list keys, with ageing — and
 * the point where keys start, as free slots allow.
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";
import type { MonoTypeOperatorFunction, SchedulerLike } from "../deps.ts";
import { type Entry, Lane } from "./_lane.ts";
import { stage } from "./_stage.ts";
import type { QueueMetricsSink } from "./queue_metrics.ts";
import type { QueueSignal } from "./queue_signal.ts";

/** Options of {@link prioritize}. */
export interface PrioritizeOptions {
  /** Clock of the queue latency and ageing. */
  readonly scheduler: SchedulerLike;
  /** An `"initial"` key queued this long gets every other turn against live keys. Default 10,000 ms. */
  readonly agingMs?: number;
  /** Told the number of queued keys when it changes (`depth()`). Default none. */
  readonly metrics?: Pick<QueueMetricsSink, "depth">;
}

/**
 * Holds `ready` keys in two FIFO lanes and emits a `start` signal (with the time the key
 * began to wait) for each free slot a `slots` signal grants: live keys first, but an initial key
 * queued for `agingMs` or more gets every other turn, so neither lane starves. `promote` moves
 * a queued key to the live lane (keeping its latency); a key it does not hold is ignored.
 * On `drain` with mode `"none"` it drops its keys (and later ones) as `dropped` outcomes;
 * while it holds keys it swallows `idle`.
 *
 * Like client-go's FIFO ready queue with the priority lanes of controller-runtime's priority
 * queue, but demand-driven: it starts keys only as `runConcurrently()` grants slots.
 *
 * ```
 * signals: -(ready i initial)-(ready l live)-(slots 1)---------
 * output:  --------------------------------(start l)----------
 * ```
 *
 * @param options the scheduler, ageing bound and metrics.
 * @returns an operator over queue signals.
 * @example
 * ```ts
 * import { prioritize } from "../../mod.ts";
 * import { asyncScheduler } from "../deps.ts";
 * const lanes = prioritize({ scheduler: asyncScheduler, agingMs: 5_000 });
 * ```
 */
export function prioritize(options: PrioritizeOptions): MonoTypeOperatorFunction<QueueSignal> {
  const { scheduler, metrics } = options;
  const agingMs = options.agingMs ?? 10_000;
  return stage(({ emit }) => {
    const live = new Lane(), initial = new Lane();
    // Initial keys by key, to promote them; live ones need no lookup.
    const initialByKey = new Map<ObjectKey, Entry>();
    let size = 0, slots = 0, agedLast = false, dropping = false;

    const dispatch = () => {
      while (slots > 0 && size > 0) {
        const l = live.peek(), i = initial.peek();
        let e = l!;
        if (
          i !== undefined &&
          (l === undefined || (!agedLast && scheduler.now() - i.enteredMs >= agingMs))
        ) {
          agedLast = l !== undefined;
          e = i;
          initial.shift();
          initialByKey.delete(i.key);
        } else {
          agedLast = false;
          live.shift();
        }
        size--;
        slots--;
        metrics?.depth(size);
        emit({ type: "start", key: e.key, sinceMs: e.sinceMs });
      }
    };
    const dropAll = () => {
      for (const lane of [live, initial]) {
        for (let e = lane.peek(); e !== undefined; e = lane.peek()) {
          lane.shift();
          emit({ type: "outcome", outcome: { type: "dropped", key: e.key } });
        }
      }
      initialByKey.clear();
      size = 0;
      metrics?.depth(0);
    };

    return {
      next(signal) {
        switch (signal.type) {
          case "ready": {
            const { key } = signal;
            if (dropping) return emit({ type: "outcome", outcome: { type: "dropped", key } });
            const e: Entry = {
              key,
              sinceMs: signal.sinceMs,
              enteredMs: scheduler.now(),
              moved: false,
            };
            if (signal.priority === "live") live.push(e);
            else {
              initial.push(e);
              initialByKey.set(key, e);
            }
            size++;
            metrics?.depth(size);
            return dispatch();
          }
          case "promote": {
            const e = initialByKey.get(signal.key);
            if (e === undefined) return;
            e.moved = true;
            initialByKey.delete(signal.key);
            live.push({ key: e.key, sinceMs: e.sinceMs, enteredMs: 0, moved: false });
            return dispatch();
          }
          case "slots":
            slots += signal.count;
            return dispatch();
          case "drain":
            if (signal.mode === "none") {
              dropping = true;
              dropAll();
            }
            return emit(signal);
          case "idle":
            if (size > 0) return;
            return emit(signal);
          default:
            return emit(signal);
        }
      },
    };
  });
}
