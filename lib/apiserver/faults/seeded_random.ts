/**
 * `seededRandom()`: a tiny deterministic pseudo-random number generator.
 *
 * @module
 */

/**
 * A generator of numbers in [0, 1) fully determined by `seed` (mulberry32: 32 bits of
 * state, fast, well distributed for test schedules; not for cryptography).
 *
 * Like `Math.random`, but the same seed always yields the same sequence, so a failing
 * fault schedule can be replayed.
 *
 * @param seed Any number; only its low 32 bits count.
 * @returns The next-number function.
 *
 * @example
 * ```ts
 * import { seededRandom } from "./seeded_random.ts";
 * const a = seededRandom(42), b = seededRandom(42);
 * a() === b(); // true
 * a() < 1; // true
 * ```
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
