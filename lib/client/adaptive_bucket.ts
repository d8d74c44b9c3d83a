/**
 * The adaptive token bucket behind the client's request budget, as pure arithmetic.
 *
 * @module
 */

/** Options of the bucket; defaults are client-go's (20 QPS, burst 30). */
export interface BucketOptions {
  /** Sustained requests per second when the server is happy; default 20. */
  readonly qps?: number;
  /** Requests that may go at once after idling; default 30. */
  readonly burst?: number;
  /** The rate never drops below this when throttled; default 1. */
  readonly minQps?: number;
  /** Time to climb back from `minQps` to `qps` (linearly) without throttling; default 30,000 ms. */
  readonly recoverMs?: number;
}

/** State of the bucket. */
export interface BucketState {
  /** Tokens left; negative when requests are booked ahead. */
  readonly tokens: number;
  /** The time `tokens` and `qps` refer to (ms), `null` before the first use. */
  readonly lastMs: number | null;
  /** The current rate, between `minQps` and `qps`. */
  readonly qps: number;
}

/**
 * Pure adaptive token bucket: `take` books one request and says how long it must wait;
 * `throttle` (the server answered 429 or sent Retry-After) halves the rate and empties the
 * bucket; the rate then recovers linearly to `qps` over `recoverMs`. A `Retry-After` delays
 * only the request it answered ({@link retryAfterDelayMs}), never the whole bucket: one
 * answer must not freeze every request of a process.
 *
 * Like client-go's `flowcontrol.NewTokenBucketRateLimiter`, but shared by every request of
 * a process, adaptive (AIMD), and pure: the clock is an argument. A clock that goes back is
 * treated as standing still.
 *
 * @example
 * ```ts
 * import { adaptiveBucket } from "./adaptive_bucket.ts";
 * const b = adaptiveBucket({ qps: 10, burst: 1 });
 * const [d1, s1] = b.take(b.initial, 0); // 0: the bucket starts full
 * const [d2, s2] = b.take(s1, 0); // 100: the next token comes in 1/10 s
 * const s3 = b.throttle(s2, 0); // rate 5/s, the bucket emptied
 * const [d3] = b.take(s3, 0); // 400: the booked debt at 5/s
 * ```
 */
export function adaptiveBucket(options: BucketOptions = {}): {
  readonly initial: BucketState;
  take(state: BucketState, nowMs: number): [delayMs: number, next: BucketState];
  throttle(state: BucketState, nowMs: number): BucketState;
} {
  const maxQps = options.qps ?? 20;
  const burst = options.burst ?? 30;
  const minQps = Math.min(options.minQps ?? 1, maxQps);
  const recoverMs = options.recoverMs ?? 30_000;
  if (!(maxQps > 0) || !(burst >= 1) || !(minQps > 0)) {
    throw new RangeError(
      `Cannot create adaptiveBucket: need qps > 0, burst >= 1, minQps > 0; got ${maxQps}, ${burst}, ${minQps}`,
    );
  }
  const climbPerMs = recoverMs > 0 ? (maxQps - minQps) / recoverMs : Infinity;

  const advance = (state: BucketState, nowMs: number): BucketState => {
    if (state.lastMs === null) return { tokens: state.tokens, lastMs: nowMs, qps: state.qps };
    if (nowMs <= state.lastMs) return state;
    const elapsed = nowMs - state.lastMs;
    // The rate climbs linearly; tokens refill at the average rate over the interval.
    const qps = Math.min(maxQps, state.qps + elapsed * climbPerMs);
    const average = (state.qps + qps) / 2;
    const tokens = Math.min(burst, state.tokens + (elapsed * average) / 1000);
    return { tokens, lastMs: nowMs, qps };
  };

  return {
    initial: { tokens: burst, lastMs: null, qps: maxQps },
    take(state, nowMs) {
      const s = advance(state, nowMs);
      const tokens = s.tokens - 1;
      const wait = Math.max(0, (s.lastMs ?? nowMs) - nowMs);
      const deficit = tokens >= 0 ? 0 : (-tokens * 1000) / s.qps;
      return [wait + deficit, { ...s, tokens }];
    },
    throttle(state, nowMs) {
      const s = advance(state, nowMs);
      return { tokens: Math.min(s.tokens, 0), lastMs: s.lastMs, qps: Math.max(minQps, s.qps / 2) };
    },
  };
}

/** Longest a single request waits for a `Retry-After` by default: 10 s. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 10_000;

/**
 * How long one request waits before its retry after an answer with `Retry-After`: the
 * server's delay, capped (a hostile or confused server's `Retry-After: 3600` must not park a
 * request for an hour), at least `floorMs` (the caller's backoff).
 *
 * @param retryAfterSeconds the header's seconds (undefined: none sent)
 * @param floorMs the backoff the caller would wait anyway
 * @param maxMs the cap; default {@link DEFAULT_MAX_RETRY_AFTER_MS}
 *
 * @example
 * ```ts
 * import { retryAfterDelayMs } from "./adaptive_bucket.ts";
 * retryAfterDelayMs(30, 200); // 10000: capped
 * retryAfterDelayMs(1, 200); // 1000
 * retryAfterDelayMs(undefined, 200); // 200
 * ```
 */
export function retryAfterDelayMs(
  retryAfterSeconds: number | undefined,
  floorMs: number,
  maxMs = DEFAULT_MAX_RETRY_AFTER_MS,
): number {
  const asked = retryAfterSeconds === undefined || !(retryAfterSeconds >= 0)
    ? 0
    : Math.min(retryAfterSeconds * 1000, maxMs);
  return Math.max(asked, floorMs);
}
