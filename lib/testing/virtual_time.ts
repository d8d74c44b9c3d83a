/**
 * `virtualTime()`: a clock and scheduler for tests, driven by hand.
 *
 * @module
 */
import { TestScheduler } from "./deps.ts";
import { deepStrictEqual } from "node:assert/strict";
import { settle } from "./settle.ts";

/** Options of {@link virtualTime}. */
export interface VirtualTimeOptions {
  /** The time the clock starts at, e.g. an epoch in ms for realistic timestamps. Default 0. */
  readonly startMs?: number;
}

/** Options of {@link VirtualTime.advanceUntil}. */
export interface AdvanceUntilOptions {
  /** Give up (reject) once this much virtual time has passed. Default 60,000 ms. */
  readonly withinMs?: number;
  /** For the error message: what was awaited. */
  readonly what?: string;
}

/** A virtual clock: its `scheduler` runs actions only when the test advances time. */
export interface VirtualTime {
  /** Pass this wherever code takes a `SchedulerLike`. */
  readonly scheduler: TestScheduler;
  /** Current virtual time in ms (starts at `startMs`, default 0). */
  now(): number;
  /** Runs everything due within the next `ms` ms, then sets the clock to now + `ms`. */
  advanceBy(ms: number): void;
  /** Runs everything due up to `timeMs`, then sets the clock to `timeMs`. */
  advanceTo(timeMs: number): void;
  /** Runs everything scheduled, however far in the future; returns the final time. */
  flush(): number;
  /** Lets pending Promise callbacks run (and those they start), without moving the clock. */
  settle(): Promise<void>;
  /**
   * Like `advanceBy`, for code that awaits Promises: runs the timers due within `ms` one
   * instant at a time, letting Promise callbacks settle before the first and after each.
   */
  advance(ms: number): Promise<void>;
  /**
   * Advances instant by instant (as `advance`) until `done()` holds, and resolves with the
   * virtual time that took; rejects, naming `what`, if it still fails after `withinMs`.
   */
  advanceUntil(done: () => boolean, options?: AdvanceUntilOptions): Promise<number>;
}

/**
 * Creates a virtual clock wrapping RxJS's `TestScheduler`, for step-by-step tests.
 *
 * Like `TestScheduler.run()`, but imperative: time moves only when the test calls
 * `advanceBy`/`advanceTo`/`flush` (synchronous code) or `advance`/`advanceUntil` (code that
 * awaits Promises), so a test can interleave assertions with the passage of time, without
 * marbles and without real sleeps. (Marble tests can still use `scheduler.run(...)`; its
 * deep-equality assertion is `node:assert`'s.)
 *
 * Guarantees of `advance`: before each instant's timers run, every Promise callback queued so
 * far has run (see `settle()`), so a timer scheduled by code that first awaited something is
 * seen at its own instant; timers of one instant run in the order they were scheduled.
 * Assumptions: the code under test schedules every timer on `scheduler` and awaits only
 * Promises that this clock's timers (or other Promises) settle, as the test API's do.
 * Caveats: real I/O and real timers (`setTimeout`, a default `asyncScheduler`) are not
 * waited for; a Promise that only real I/O settles is still pending after `advance`.
 *
 * @param options where the clock starts.
 * @returns a clock at `startMs`.
 * @example
 * ```ts
 * import { virtualTime } from "./mod.ts";
 * import { timer } from "../deps.ts";
 * const clock = virtualTime();
 * let fired = false;
 * timer(100, clock.scheduler).subscribe(() => (fired = true));
 * clock.advanceBy(99); // fired === false
 * clock.advanceBy(1); // fired === true
 * clock.now(); // 100
 * // With Promises in between: a timer set after an await still fires at its instant.
 * let at = -1;
 * Promise.resolve().then(() => timer(50, clock.scheduler).subscribe(() => (at = clock.now())));
 * await clock.advance(50);
 * at; // 150
 * ```
 */
export function virtualTime(options: VirtualTimeOptions = {}): VirtualTime {
  const scheduler = new TestScheduler((actual, expected) => deepStrictEqual(actual, expected));
  scheduler.frame = options.startMs ?? 0;
  const advanceTo = (timeMs: number): void => {
    if (timeMs < scheduler.frame) {
      throw new Error(`Cannot advance virtual time to ${timeMs}: it is already ${scheduler.frame}`);
    }
    scheduler.maxFrames = timeMs;
    scheduler.flush();
    scheduler.frame = timeMs;
  };
  /** Runs the earliest instant with timers due by `limitMs`; false when there is none. */
  const step = (limitMs: number): boolean => {
    const next = scheduler.actions[0]?.delay;
    if (next === undefined || next > limitMs) return false;
    scheduler.maxFrames = next;
    scheduler.flush();
    return true;
  };
  const advance = async (ms: number): Promise<void> => {
    const target = scheduler.frame + ms;
    if (!(ms >= 0)) throw new RangeError(`Cannot advance virtual time by ${ms} ms`);
    await settle();
    while (step(target)) await settle();
    scheduler.frame = target;
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
    settle,
    advance,
    advanceUntil: async (done, options = {}) => {
      const start = scheduler.frame;
      const limit = start + (options.withinMs ?? 60_000);
      await settle();
      while (!done()) {
        if (!step(limit)) {
          scheduler.frame = limit;
          throw new Error(
            `Timed out after ${limit - start} virtual ms waiting for ${
              options.what ?? "the condition"
            }`,
          );
        }
        await settle();
      }
      return scheduler.frame - start;
    },
  };
}
