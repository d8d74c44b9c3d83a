/**
 * A short fast retry phase, then slow retries.
 *
 * @module
 */
import type { RateLimiter } from "./rate_limiter.ts";

/** Options of {@link fastSlow}. */
export interface FastSlowOptions {
  /** Delay of the first `maxFastAttempts` retries. Default 5 ms. */
  readonly fastMs?: number;
  /** Delay of every later retry. Default 10,000 ms. */
  readonly slowMs?: number;
  /** How many retries use `fastMs`. Default 5. */
  readonly maxFastAttempts?: number;
}

/**
 * Waits `fastMs` for the first `maxFastAttempts` retries of a key, then `slowMs`.
 *
 * Like client-go's `ItemFastSlowRateLimiter`, but pure: the key's failure count is passed in.
 *
 * @param options the two delays and the length of the fast phase.
 * @returns a stateless limiter (its state is `null`).
 * @example
 * ```ts
 * import { fastSlow } from "../../mod.ts";
 * const limiter = fastSlow({ fastMs: 10, slowMs: 5000, maxFastAttempts: 2 });
 * limiter.step(null, 0, 0)[0]; // 10
 * limiter.step(null, 1, 0)[0]; // 10
 * limiter.step(null, 2, 0)[0]; // 5000
 * ```
 */
export function fastSlow(options: FastSlowOptions = {}): RateLimiter<null> {
  const fastMs = options.fastMs ?? 5;
  const slowMs = options.slowMs ?? 10_000;
  const maxFast = options.maxFastAttempts ?? 5;
  for (
    const [name, value] of [["fastMs", fastMs], ["slowMs", slowMs], ["maxFastAttempts", maxFast]]
  ) {
    if (!(Number(value) >= 0) || !Number.isFinite(value)) {
      throw new RangeError(`Cannot create fastSlow: ${name} must be >= 0, got ${value}`);
    }
  }
  return {
    initial: null,
    step: (state, failures) => [failures < maxFast ? fastMs : slowMs, state],
  };
}
