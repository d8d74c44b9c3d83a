/**
 * Small statistics for the benchmarks: median, bootstrap interval, rotated run order.
 *
 * @module
 */

/** `xs` rotated left by `r`: round r of the benchmark starts with the r-th variant. */
export const rotated = <T>(xs: readonly T[], r: number): T[] =>
  xs.map((_, i) => xs[(i + r) % xs.length]);

/** The median (the upper one of an even count). */
export const median = (xs: readonly number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * A 95% interval for the median of `xs`: the 2.5th and 97.5th percentiles of the medians of 2,000
 * resamples (with replacement; a fixed seed, so a table prints the same for the same runs).
 */
export function bootstrapMedian(xs: readonly number[]): [number, number] {
  let seed = 0x9e3779b9;
  const random = () => { // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const medians = Array.from(
    { length: 2_000 },
    () => median(xs.map(() => xs[Math.floor(random() * xs.length)])),
  ).sort((a, b) => a - b);
  return [medians[49], medians[1_949]];
}
