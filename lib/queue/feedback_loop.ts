/**
 * `feedbackLoop()`: closes the workqueue's operators into a loop, keys in and outcomes out.
 *
 * @module
 */
import {
  type MonoTypeOperatorFunction,
  Observable,
  type OperatorFunction,
  type Subscriber,
} from "../deps.ts";
import type { QueueInput, RunOutcome } from "./run_outcome.ts";
import type { DrainMode, QueueSignal } from "./queue_signal.ts";

/** Options of {@link feedbackLoop}. */
export interface FeedbackLoopOptions {
  /** Sent round the loop as a `drain` signal when the input completes. Default `"ready"`. */
  readonly drain?: DrainMode;
}

const idle: QueueSignal = { type: "idle" };

/**
 * Feeds each key into `body` as an `add` signal, emits the `outcome` signals that come out of
 * it, and sends every other signal that comes out round again, so operators early in `body`
 * hear about what later ones did (a run started, ended, must be retried).
 *
 * Signals are delivered one at a time, in order, however they arise (input, loop, a timer, a
 * settled Promise): a signal emitted while another is being handled waits its turn, so no
 * operator is re-entered and a synchronous loop needs no stack. When the input completes a
 * `drain` signal goes round; after that, whenever the loop falls quiet an `idle` signal goes
 * round, and when no operator holds it back (each busy one swallows it) the output completes.
 * Input errors pass through; unsubscribing tears down every operator in `body`.
 *
 * Like a `Subject` fed back into the head of a `pipe` (cycle.js style), but trampolined and
 * with completion decided by the operators.
 *
 * ```
 * input:   -a-----|
 * body:     add a -> ready a -> start a -> end a -> outcome (done a)
 * output:  ---D---|
 * ```
 *
 * @param body the operators, as one operator from signals to signals.
 * @param options what completion of the input means.
 * @returns an operator from keys to outcomes.
 * @example
 * ```ts
 * import { from, rx } from "../deps.ts";
 * import { feedbackLoop } from "../../mod.ts";
 * // A body that finishes every key at once.
 * const body = rx.map((s: import("./queue_signal.ts").QueueSignal) =>
 *   s.type === "add" ? { type: "outcome" as const, outcome: { type: "done" as const, key: s.key, durationMs: 0 } } : s
 * );
 * const outcomes = await rx.lastValueFrom(from(["a", "b"]).pipe(feedbackLoop(body), rx.toArray()));
 * outcomes.length; // 2
 * ```
 */
export function feedbackLoop(
  body: MonoTypeOperatorFunction<QueueSignal>,
  options: FeedbackLoopOptions = {},
): OperatorFunction<QueueInput, RunOutcome> {
  const mode = options.drain ?? "ready";
  return (input$) =>
    new Observable<RunOutcome>((subscriber) => {
      let queue: QueueSignal[] = [];
      let head = 0;
      let entry: Subscriber<QueueSignal> | undefined;
      let running = false, inputDone = false, closed = false, moved = false;

      const run = (): void => {
        running = true;
        try {
          for (;;) {
            while (head < queue.length && !closed) {
              moved = true;
              entry!.next(queue[head++]);
              // A long synchronous drain keeps feeding the queue: drop what was handled.
              if (head >= 1024 && head * 2 >= queue.length) {
                queue = queue.slice(head);
                head = 0;
              }
            }
            queue.length = 0;
            head = 0;
            if (closed || !inputDone || !moved) return;
            moved = false;
            entry!.next(idle); // completes the output when it comes out
            if (queue.length === 0) return;
          }
        } finally {
          running = false;
        }
      };
      const push = (signal: QueueSignal): void => {
        if (closed) return;
        queue.push(signal);
        if (!running && entry !== undefined) run();
      };

      const entry$ = new Observable<QueueSignal>((s) => {
        entry = s;
        return input$.subscribe({
          next: (item) =>
            push(
              typeof item === "string"
                ? { type: "add", key: item, priority: "live" }
                : { type: "add", key: item.key, priority: item.priority ?? "live" },
            ),
          error: (e) => subscriber.error(e),
          complete: () => {
            inputDone = true;
            push({ type: "drain", mode });
          },
        });
      });
      const loop = body(entry$).subscribe({
        next: (signal) => {
          switch (signal.type) {
            case "outcome":
              return subscriber.next(signal.outcome);
            case "idle":
              closed = true;
              return subscriber.complete();
            case "drain":
              return;
            default:
              return push(signal);
          }
        },
        error: (e) => subscriber.error(e),
        complete: () => subscriber.complete(),
      });
      return () => {
        closed = true;
        loop.unsubscribe();
      };
    });
}
