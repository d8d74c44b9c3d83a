/**
 * Internal: the shell shared by the workqueue's operators. A stage sees every signal once per
 * lap of the loop, handles the ones it owns and forwards the others.
 *
 * @module
 */
import { type MonoTypeOperatorFunction, Observable, Subscriber } from "../deps.ts";
import type { QueueSignal } from "./queue_signal.ts";

/** What a stage does with the signals it receives. */
export interface Stage {
  /** Handles one signal; call `emit` to pass signals on (the same one to forward it). */
  readonly next: (signal: QueueSignal) => void;
  /** Called once the stage is subscribed upstream (it may emit now). */
  readonly started?: () => void;
  /** Called on unsubscribe: cancel timers, abort work. */
  readonly teardown?: () => void;
}

/** Emits downstream, or errors the loop (for broken protocol invariants). */
export interface StageOutput {
  readonly emit: (signal: QueueSignal) => void;
  readonly fail: (error: Error) => void;
}

/**
 * Receives a stage's input and hands each signal straight to the stage (a `Subscriber`, so
 * RxJS does not wrap it: a hop between stages is two calls). Errors and completion go
 * downstream; unsubscribing downstream unsubscribes it.
 */
class StageSubscriber extends Subscriber<QueueSignal> {
  readonly #handle: (signal: QueueSignal) => void;

  constructor(destination: Subscriber<QueueSignal>, handle: (signal: QueueSignal) => void) {
    super(destination);
    this.#handle = handle;
  }

  protected override _next(signal: QueueSignal): void {
    this.#handle(signal);
  }
}

/** Builds a cold operator over queue signals from a stage factory (one stage per subscription). */
export function stage(setup: (out: StageOutput) => Stage): MonoTypeOperatorFunction<QueueSignal> {
  return (source) =>
    new Observable<QueueSignal>((subscriber) => {
      const s = setup({
        emit: (signal) => subscriber.next(signal),
        fail: (error) => subscriber.error(error),
      });
      const input = source.subscribe(new StageSubscriber(subscriber, s.next));
      s.started?.();
      return () => {
        input.unsubscribe();
        s.teardown?.();
      };
    });
}
