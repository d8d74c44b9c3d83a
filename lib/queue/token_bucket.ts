/**
 * An overall token bucket shared by all keys.
 *
 * @module
 */
import type { RateLimiter } from "./rate_limiter.ts";

/** Options of {@link tokenBucket}. */
export interface TokenBucketOptions {
  /** Tokens added per second. Default 10. */
  readonly ratePerSecond?: number;
  /** Bucket size: how many retries may go at once. Default 100. */
  readonly burst?: number;
}

/** State of {@link tokenBucket}: tokens left (negative when retries are booked ahead). */
export interface TokenBucketState {
  /** Tokens left. */
  readonly tokens: number;
  /** When `tokens` was computed; `null` before the first step (the bucket starts full). */
  readonly lastMs: number | null;
}

/**
 * Each retry takes one token; tokens refill at `ratePerSecond` up to `burst`; when none is
 * left the retry is booked at the time its token will exist. So at most `burst` retries are due
 * at once and, in the long run, at most `ratePerSecond` per second.
 *
 * Like client-go's `BucketRateLimiter` (golang.org/x/time/rate `Reserve().Delay()`), but pure,
 * with the clock passed in. Ignores the key and its failure count. A clock that goes back is
 * treated as standing still.
 *
 * @param options rate and burst.
 * @returns a limiter whose state is a {@link TokenBucketState}.
 * @example
 * ```ts
 * import { tokenBucket } from "../../mod.ts";
 * const bucket = tokenBucket({ ratePerSecond: 10, burst: 1 });
 * const [first, s1] = bucket.step(bucket.initial, 0, 0); // 0: the bucket starts full
 * const [second] = bucket.step(s1, 0, 0); // 100: the next token comes in 1/10 s
 * ```
 */
export function tokenBucket(options: TokenBucketOptions = {}): RateLimiter<TokenBucketState> {
  const rate = options.ratePerSecond ?? 10;
  const burst = options.burst ?? 100;
  if (!(rate > 0) || !Number.isFinite(rate)) {
    throw new RangeError(`Cannot create tokenBucket: ratePerSecond must be > 0, got ${rate}`);
  }
  if (!(burst >= 1) || !Number.isFinite(burst)) {
    throw new RangeError(`Cannot create tokenBucket: burst must be >= 1, got ${burst}`);
  }
  const perMs = rate / 1000;
  return {
    initial: { tokens: burst, lastMs: null },
    step: (state, _failures, nowMs) => {
      const last = state.lastMs === null ? nowMs : Math.max(state.lastMs, nowMs);
      const refilled = state.lastMs === null
        ? state.tokens
        : Math.min(burst, state.tokens + (last - state.lastMs) * perMs);
      const tokens = refilled - 1;
      const delayMs = tokens >= 0 ? 0 : -tokens / perMs;
      return [delayMs, { tokens, lastMs: last }];
    },
  };
}
