/**
 * `delayUntilDue()`: holds keys that must run again later (retries, `requeueAfterMs`).
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";
import type { MonoTypeOperatorFunction, SchedulerLike, Subscription } from "../deps.ts";
import { TimedHeap } from "./_heap.ts";
import { stage } from "./_stage.ts";
import type { QueueSignal } from "./queue_signal.ts";

/** Options of {@link delayUntilDue}. */
export interface DelayUntilDueOptions {
  /** Clock and timers. */
  readonly scheduler: SchedulerLike;
}

const due: QueueSignal = { type: "due" };

/**
 * Turns `after` signals into `add` signals (live, `sinceMs` = when due) once their delay has
 * passed. An `add` of a waiting key cancels its delay (the key is queued now instead); a second
 * `after` for a waiting key keeps the earlier time; a zero delay adds at once. One timer runs,
 * for the earliest key; when it fires, a `due` signal goes round the loop and the keys due by
 * then are added in order of due time. Keys already due are also added after any other
 * signal handled at or after their time, so same-instant timers cannot reorder them.
 * On `drain` with mode `"ready"`, keys due by then are added and the others (and later delayed
 * ones) come out as `dropped` outcomes; with `"none"` all of them are dropped; with `"all"`
 * they keep waiting, and while any waits it swallows `idle`.
 *
 * Like client-go's delaying queue (`AddAfter`), but an operator on a scheduler.
 *
 * ```
 * signals: -(after a 3)---------
 * output:  -----due-(add a)-----   (due goes round the loop and comes back)
 * ```
 *
 * @param options the scheduler.
 * @returns an operator over queue signals.
 * @example
 * ```ts
 * import { delayUntilDue } from "../../mod.ts";
 * import { TestScheduler } from "../deps.ts";
 * const ts = new TestScheduler(() => {});
 * const delay = delayUntilDue({ scheduler: ts }); // use inside feedbackLoop()
 * ```
 */
export function delayUntilDue(
  options: DelayUntilDueOptions,
): MonoTypeOperatorFunction<QueueSignal> {
  const { scheduler } = options;
  return stage(({ emit }) => {
    const heap = new TimedHeap();
    const waiting = new Map<ObjectKey, { ticket: number; dueMs: number }>();
    let tickets = 0;
    let dropping = false;
    let timer: Subscription | undefined, timerDueMs = Infinity;

    const arm = () => {
      for (let top = heap.peek(); top !== undefined; top = heap.peek()) {
        if (waiting.get(top.key)?.ticket === top.ticket) break;
        heap.pop(); // stale: cancelled or superseded
      }
      const top = heap.peek();
      if (top === undefined || top.dueMs >= timerDueMs) return;
      timer?.unsubscribe();
      timerDueMs = top.dueMs;
      timer = scheduler.schedule(() => {
        timer = undefined;
        timerDueMs = Infinity;
        emit(due);
      }, Math.max(0, top.dueMs - scheduler.now()));
    };
    const release = () => {
      const nowMs = scheduler.now();
      for (let top = heap.peek(); top !== undefined && top.dueMs <= nowMs; top = heap.peek()) {
        heap.pop();
        if (waiting.get(top.key)?.ticket !== top.ticket) continue;
        waiting.delete(top.key);
        emit({ type: "add", key: top.key, priority: "live", sinceMs: top.dueMs });
      }
      arm();
    };
    const dropAll = () => {
      for (const key of waiting.keys()) {
        emit({ type: "outcome", outcome: { type: "dropped", key } });
      }
      waiting.clear();
      heap.clear();
      timer?.unsubscribe();
      timer = undefined;
      timerDueMs = Infinity;
    };

    return {
      next(signal) {
        handle(signal);
        // Keys due by now come next, whether or not their timer has fired yet.
        if (waiting.size > 0 && heap.peek()!.dueMs <= scheduler.now()) release();
      },
      teardown: () => timer?.unsubscribe(),
    };

    function handle(signal: QueueSignal): void {
      switch (signal.type) {
        case "after": {
          const { key, delayMs } = signal;
          if (delayMs <= 0) return emit({ type: "add", key, priority: "live" });
          if (dropping) return emit({ type: "outcome", outcome: { type: "dropped", key } });
          const dueMs = scheduler.now() + delayMs;
          const old = waiting.get(key);
          if (old !== undefined && old.dueMs <= dueMs) return;
          waiting.set(key, { ticket: ++tickets, dueMs });
          heap.push({ dueMs, ticket: tickets, key });
          return arm();
        }
        case "due":
          return release();
        case "add":
          if (waiting.size > 0) waiting.delete(signal.key);
          return emit(signal);
        case "drain":
          if (signal.mode !== "all") {
            if (signal.mode === "ready") release(); // keys due by now are not waiting
            dropping = true;
            dropAll();
          }
          return emit(signal);
        case "idle":
          if (waiting.size > 0) return;
          return emit(signal);
        default:
          return emit(signal);
      }
    }
  });
}
