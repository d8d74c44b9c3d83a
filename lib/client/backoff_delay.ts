/**
 * `backoffDelay()`: capped exponential backoff with jitter, as a pure function.
 *
 * @module
 */

/** Options of {@link backoffDelay}; the defaults are client-go's reflector backoff. */
export interface BackoffOptions {
  /** Delay of the first retry before jitter; default 800 ms. */
  readonly initialMs?: number;
  /** Growth per attempt; default 2. */
  readonly factor?: number;
  /** Cap of the delay before jitter; default 30,000 ms. */
  readonly maxMs?: number;
  /** Jitter as a fraction of the delay added on top (0..1 × jitter); default 1.0. */
  readonly jitter?: number;
}

/**
 * The delay before retry number `attempt` (0-based): `d = min(maxMs, initialMs × factor^attempt)`,
 * then `d + d × jitter × random`.
 *
 * Like apimachinery's `wait.Backoff` with `Cap` and `Jitter`, but pure: the random number in
 * [0, 1) comes in, so tests choose it.
 *
 * @param attempt How many failures preceded this retry, minus one (0 for the first retry).
 * @param random A number in [0, 1), e.g. `Math.random()`.
 * @param options Initial delay, factor, cap, jitter.
 * @returns The delay in milliseconds, in `[d, d × (1 + jitter))`.
 *
 * @example
 * ```ts
 * import { backoffDelay } from "./backoff_delay.ts";
 * backoffDelay(0, 0); // 800
 * backoffDelay(2, 0.5, { jitter: 0.2 }); // 3200 * 1.1 = 3520
 * backoffDelay(99, 0); // 30000
 * ```
 */
export function backoffDelay(
  attempt: number,
  random: number,
  options: BackoffOptions = {},
): number {
  const initial = options.initialMs ?? 800;
  const factor = options.factor ?? 2;
  const max = options.maxMs ?? 30_000;
  const jitter = options.jitter ?? 1;
  const exponent = Math.max(0, Math.min(attempt, 64));
  const base = Math.min(max, initial * Math.pow(factor, exponent));
  return base + base * jitter * Math.min(Math.max(random, 0), 1);
}
