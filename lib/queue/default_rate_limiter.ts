/**
 * The workqueue's default rate limiter.
 *
 * @module
 */
import type { RateLimiter } from "./rate_limiter.ts";
import { exponentialBackoff } from "./exponential_backoff.ts";
import { maxOf } from "./max_of.ts";
import { tokenBucket } from "./token_bucket.ts";

/**
 * Per-key exponential backoff from 5 ms doubling to 1,000 s, combined (max-of) with an overall
 * token bucket of 10 retries per second, burst 100.
 *
 * Like client-go's `DefaultTypedControllerRateLimiter`.
 *
 * @returns a fresh limiter value (limiters are pure, so sharing one is also safe).
 * @example
 * ```ts
 * import { defaultRateLimiter } from "../../mod.ts";
 * const limiter = defaultRateLimiter();
 * limiter.step(limiter.initial, 0, 0)[0]; // 5
 * ```
 */
export function defaultRateLimiter(): RateLimiter<readonly unknown[]> {
  return maxOf(
    exponentialBackoff({ baseMs: 5, maxMs: 1_000_000 }),
    tokenBucket({ ratePerSecond: 10, burst: 100 }),
  );
}
