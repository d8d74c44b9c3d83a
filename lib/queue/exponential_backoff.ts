/**
 * Per-key exponential backoff.
 *
 * @module
 */
import type { RateLimiter } from "./rate_limiter.ts";

/** Options of {@link exponentialBackoff}. */
export interface ExponentialBackoffOptions {
  /** Delay after the first failure. Default 5 ms. */
  readonly baseMs?: number;
  /** Largest delay. Default 1,000,000 ms (1,000 s). */
  readonly maxMs?: number;
}

/**
 * Waits `baseMs * 2^failures`, capped at `maxMs`: 5 ms, 10 ms, 20 ms, ... 1,000 s by default.
 *
 * Like client-go's `ItemExponentialFailureRateLimiter`, but as a pure {@link RateLimiter} whose
 * per-key failure count is passed in rather than kept inside.
 *
 * @param options base and maximum delay.
 * @returns a stateless limiter (its state is `null`).
 * @example
 * ```ts
 * import { exponentialBackoff } from "../../mod.ts";
 * const backoff = exponentialBackoff({ baseMs: 5, maxMs: 1000 });
 * backoff.step(null, 0, 0)[0]; // 5
 * backoff.step(null, 3, 0)[0]; // 40
 * backoff.step(null, 30, 0)[0]; // 1000
 * ```
 */
export function exponentialBackoff(options: ExponentialBackoffOptions = {}): RateLimiter<null> {
  const baseMs = options.baseMs ?? 5;
  const maxMs = options.maxMs ?? 1_000_000;
  if (!(baseMs >= 0) || !Number.isFinite(baseMs)) {
    throw new RangeError(`Cannot create exponentialBackoff: baseMs must be >= 0, got ${baseMs}`);
  }
  if (!(maxMs >= baseMs)) {
    throw new RangeError(
      `Cannot create exponentialBackoff: maxMs must be >= baseMs (${baseMs}), got ${maxMs}`,
    );
  }
  return {
    initial: null,
    // 0 * 2^1024 would be NaN: a zero base always waits 0.
    step: (state, failures) => [
      baseMs === 0 ? 0 : Math.min(maxMs, baseMs * 2 ** Math.max(0, failures)),
      state,
    ],
  };
}
