/**
 * The rate limiter type: a pure step function from (state, consecutive failures, now) to a
 * retry delay and the next state.
 *
 * @module
 */

/**
 * A rate limiter as a pure value: `step(state, failures, nowMs)` returns how long to wait before
 * retrying a key that has just failed, and the limiter's next state.
 *
 * Like client-go's `workqueue.TypedRateLimiter`, but pure: the per-key part of the state (the
 * number of consecutive failures of the key, client-go's `NumRequeues`) is kept by the caller and
 * passed in, so `Forget` is simply "reset the key's count to 0"; only global state (such as a
 * token bucket's tokens) lives in `S`, and the clock is an argument.
 *
 * - `failures` is the number of consecutive failures of the key *before* this one (0 on the
 *   first failure).
 * - `nowMs` is milliseconds on any monotonic clock (`scheduler.now()`).
 * - The returned delay is in milliseconds and never negative.
 *
 * @example
 * ```ts
 * import type { RateLimiter } from "../../mod.ts";
 * // A limiter that always waits one second and keeps no state.
 * const oneSecond: RateLimiter<null> = { initial: null, step: (s) => [1000, s] };
 * oneSecond.step(oneSecond.initial, 3, 0); // [1000, null]
 * ```
 */
export interface RateLimiter<S = unknown> {
  /** The state before any failure. */
  readonly initial: S;
  /** The delay before the next retry of a key with `failures` earlier failures, and the next state. */
  step(state: S, failures: number, nowMs: number): readonly [delayMs: number, next: S];
}
