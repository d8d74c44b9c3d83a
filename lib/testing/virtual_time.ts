/**
 * `virtualTime()`: a clock and scheduler for tests, driven by hand.
 *
 * @module
 */
import { TestScheduler } from "../deps.ts";
import { deepStrictEqual } from "node:assert/strict";

/** A virtual clock: its `scheduler` runs actions only when the test advances time. */
export interface VirtualTime {
  /** Pass this wherever code takes a `SchedulerLike`. */
  readonly scheduler: TestScheduler;
  /** Current virtual time in ms (starts at 0). */
  now(): number;
  /** Runs everything due within the next `ms` ms, then sets the clock to now + `ms`. */
  advanceBy(ms: number): void;
  /** Runs everything due up to `timeMs`, then sets the clock to `timeMs`. */
  advanceTo(timeMs: number): void;
  /** Runs everything scheduled, however far in the future; returns the final time. */
  flush(): number;
}

/**
 * Creates a virtual clock wrapping RxJS's `TestScheduler`, for step-by-step tests.
 *
 * Like `TestScheduler.run()`, but imperative: time moves only when the test calls
 * `advanceBy`/`advanceTo`/`flush`, so a test can interleave assertions on a store or a
 * subscriber with the passage of time, without marbles and without real sleeps. (Marble tests
 * can still use `scheduler.run(...)`; its deep-equality assertion is `node:assert`'s.)
 *
 * @example
 * ```ts
 * import { virtualTime } from "./virtual_time.ts";
 * import { timer } from "../deps.ts";
 * const clock = virtualTime();
 * let fired = false;
 * timer(100, clock.scheduler).subscribe(() => (fired = true));
 * clock.advanceBy(99); // fired === false
 * clock.advanceBy(1); // fired === true
 * clock.now(); // 100
 * ```
 */
export function virtualTime(): VirtualTime {
  const scheduler = new TestScheduler((actual, expected) => deepStrictEqual(actual, expected));
  const advanceTo = (timeMs: number): void => {
    if (timeMs < scheduler.frame) {
      throw new Error(`Cannot advance virtual time to ${timeMs}: it is already ${scheduler.frame}`);
    }
    scheduler.maxFrames = timeMs;
    scheduler.flush();
    scheduler.frame = timeMs;
  };
  return {
    scheduler,
    now: () => scheduler.now(),
    advanceBy: (ms) => advanceTo(scheduler.frame + ms),
    advanceTo,
    flush: () => {
      scheduler.maxFrames = Number.POSITIVE_INFINITY;
      scheduler.flush();
      return scheduler.frame;
    },
  };
}
