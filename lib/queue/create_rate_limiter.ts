/**
 * A stateful, client-go-style wrapper around a pure rate limiter.
 *
 * @module
 */
import type { RateLimiter } from "./rate_limiter.ts";

/** The client-go shape: `when` on each failure, `forget` on success, `retries` to inspect. */
export interface KeyedRateLimiter {
  /** Records a failure of `key` at `nowMs` and returns how long to wait before retrying it. */
  when(key: string, nowMs: number): number;
  /** Resets the failure count of `key` (call on success). */
  forget(key: string): void;
  /** Consecutive failures of `key` since it was last forgotten. */
  retries(key: string): number;
}

/**
 * Wraps a pure {@link RateLimiter} with per-key failure counts and the current limiter state.
 *
 * Like client-go's `TypedRateLimiter` interface (`When`, `Forget`, `NumRequeues`), but the clock
 * is an argument. The workqueue does this bookkeeping itself; use this to rate limit something
 * else (for example retries of a watch or of an HTTP call).
 *
 * @param limiter the pure limiter to drive.
 * @returns a mutable keyed limiter.
 * @example
 * ```ts
 * import { createRateLimiter, exponentialBackoff } from "../../mod.ts";
 * const limiter = createRateLimiter(exponentialBackoff());
 * limiter.when("default/web", 0); // 5
 * limiter.when("default/web", 5); // 10
 * limiter.retries("default/web"); // 2
 * limiter.forget("default/web");
 * limiter.when("default/web", 20); // 5
 * ```
 */
export function createRateLimiter<S>(limiter: RateLimiter<S>): KeyedRateLimiter {
  let state = limiter.initial;
  const failures = new Map<string, number>();
  return {
    when(key, nowMs) {
      const n = failures.get(key) ?? 0;
      const [delayMs, next] = limiter.step(state, n, nowMs);
      state = next;
      failures.set(key, n + 1);
      return delayMs;
    },
    forget(key) {
      failures.delete(key);
    },
    retries(key) {
      return failures.get(key) ?? 0;
    },
  };
}
