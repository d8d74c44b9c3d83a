/**
 * `scaledClock`: the embedded cluster's virtual clock — wall time that starts where you say
 * and runs `speed` times faster, so a CronJob's minutes pass in milliseconds while every part
 * of the cluster (API server timestamps, simulated kubelets, workload reconcilers and their
 * requeues) agrees on the time.
 *
 * @module
 */
import { asyncScheduler, type SchedulerAction, type SchedulerLike } from "../../lib/deps.ts";

/** A clock shared by the cluster: a `SchedulerLike` whose delays are virtual milliseconds. */
export interface ClusterClock extends SchedulerLike {
  /** Virtual epoch milliseconds. */
  now(): number;
  /** How many real milliseconds `virtualMs` take on this clock. */
  realMs(virtualMs: number): number;
}

/** Options of {@link scaledClock}. */
export interface ScaledClockOptions {
  /** Virtual time at start, epoch ms (default: the wall clock's now). */
  readonly startMs?: number;
  /** Virtual milliseconds per real millisecond (default 1: wall time). */
  readonly speed?: number;
  /** The real scheduler underneath (default `asyncScheduler`). */
  readonly scheduler?: SchedulerLike;
}

/**
 * A clock that reads `startMs` now and advances `speed` times faster than real time; its
 * `schedule(work, delay)` runs `work` after `delay` virtual milliseconds.
 *
 * Like RxJS's `VirtualTimeScheduler`, but for a running cluster with real sockets: time is
 * scaled, not stepped, so nothing has to drive it.
 *
 * @example
 * ```ts
 * import { scaledClock } from "./cluster_clock.ts";
 * const clock = scaledClock({ startMs: Date.parse("2025-01-01T00:00:00Z"), speed: 600 });
 * clock.realMs(60_000); // 100: a minute passes in 100 ms
 * clock.now() >= Date.parse("2025-01-01T00:00:00Z"); // true
 * ```
 */
export function scaledClock(options: ScaledClockOptions = {}): ClusterClock {
  const speed = options.speed ?? 1;
  if (!(speed > 0) || !Number.isFinite(speed)) {
    throw new RangeError(`Cannot create a clock: speed must be a positive number, got ${speed}`);
  }
  const real = options.scheduler ?? asyncScheduler;
  const realStart = real.now();
  const startMs = options.startMs ?? realStart;
  const clock: ClusterClock = {
    now: () => startMs + (real.now() - realStart) * speed,
    realMs: (virtualMs) => Math.max(0, virtualMs / speed),
    schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay?: number, state?: T) {
      return real.schedule(work, (delay ?? 0) / speed, state);
    },
  };
  return clock;
}
