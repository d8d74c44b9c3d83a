/**
 * Internal: the shell shared by the workqueue's operators. A stage sees every signal once per
 * lap of the loop, handles the ones it owns and forwards the others.
 *
 * @module
 */
import {
  type MonoTypeOperatorFunction,
  Observable,
  type Subscriber,
  type TeardownLogic,
} from "../deps.ts";
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

type Setup = (out: StageOutput) => Stage;

/**
 * The Observable of a stage applied to `upstream`. Subscribing it builds every stage of a
 * chain of them at once and links them by plain function calls: a signal goes from one stage
 * to the next in one call, with no `Subscriber` in between (they would cost most of the
 * workqueue's time). Only the first source and the final subscriber are RxJS's.
 */
class StageObservable extends Observable<QueueSignal> {
  constructor(readonly upstream: Observable<QueueSignal>, readonly setup: Setup) {
    super((subscriber) => subscribeChain(this, subscriber));
  }
}

function subscribeChain(last: StageObservable, subscriber: Subscriber<QueueSignal>): TeardownLogic {
  const setups: Setup[] = [];
  let source: Observable<QueueSignal> = last;
  while (source instanceof StageObservable) {
    setups.push(source.setup);
    source = source.upstream;
  }
  // setups runs from the last stage to the first: build each with the next one's input.
  const fail = (error: Error) => subscriber.error(error);
  const stages: Stage[] = [];
  let next = (signal: QueueSignal) => subscriber.next(signal);
  for (const setup of setups) {
    const stage = setup({ emit: next, fail });
    stages.push(stage);
    next = stage.next;
  }
  const input = source.subscribe({
    next,
    error: (e) => subscriber.error(e),
    complete: () => subscriber.complete(),
  });
  for (let i = stages.length - 1; i >= 0; i--) stages[i].started?.();
  return () => {
    input.unsubscribe();
    for (const s of stages) s.teardown?.();
  };
}

/** Builds a cold operator over queue signals from a stage factory (one stage per subscription). */
export function stage(setup: Setup): MonoTypeOperatorFunction<QueueSignal> {
  return (source) => new StageObservable(source, setup);
}
