/**
 * Combines rate limiters: the longest delay wins.
 *
 * @module
 */
import type { RateLimiter } from "./rate_limiter.ts";

/**
 * Steps every limiter and waits the longest of their delays (0 when given none). Every limiter
 * is stepped on every failure, so a token bucket spends a token even when a backoff is longer.
 *
 * Like client-go's `MaxOfRateLimiter`, but pure: the state is the tuple of the parts' states.
 *
 * @param limiters the limiters to combine.
 * @returns a limiter whose state is the array of the parts' states.
 * @example
 * ```ts
 * import { exponentialBackoff, maxOf, tokenBucket } from "../../mod.ts";
 * const limiter = maxOf(exponentialBackoff(), tokenBucket());
 * limiter.step(limiter.initial, 2, 0)[0]; // 20
 * ```
 */
export function maxOf(...limiters: readonly RateLimiter[]): RateLimiter<readonly unknown[]> {
  return {
    initial: limiters.map((l) => l.initial),
    step: (state, failures, nowMs) => {
      let delayMs = 0;
      const next = limiters.map((l, i) => {
        const [d, s] = l.step(state[i], failures, nowMs);
        if (d > delayMs) delayMs = d;
        return s;
      });
      return [delayMs, next];
    },
  };
}
