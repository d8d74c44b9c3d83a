/**
 * A cumulative histogram of observations (seconds), as Prometheus histograms expose them.
 *
 * @module
 */

/** A histogram snapshot: cumulative counts per upper bound. */
export interface Histogram {
  /** Upper bounds of the buckets (the last, `+Inf`, implied). */
  readonly bounds: readonly number[];
  /** Cumulative counts per bucket (one more than `bounds`: the `+Inf` bucket). */
  readonly counts: readonly number[];
  /** Number of observations. */
  readonly count: number;
  /** Sum of the observations. */
  readonly sum: number;
}

/** A histogram being recorded. */
export interface HistogramRecorder {
  observe(value: number): void;
  read(): Histogram;
}

/**
 * controller-runtime's buckets for durations: 1e-8 s to 1,000 s, by decades.
 *
 * @example
 * ```ts
 * import { durationBuckets } from "./histogram.ts";
 * durationBuckets.length; // 12
 * ```
 */
export const durationBuckets: readonly number[] = Array.from(
  { length: 12 },
  (_, i) => Number((1e-8 * 10 ** i).toPrecision(1)),
);

/**
 * Prometheus' default buckets (5 ms to 10 s), used for reconcile times.
 *
 * @example
 * ```ts
 * import { defaultBuckets, createHistogram } from "./histogram.ts";
 * createHistogram(defaultBuckets).read().bounds[0]; // 0.005
 * ```
 */
export const defaultBuckets: readonly number[] = [
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10,
];

/**
 * Creates a histogram recorder.
 *
 * @example
 * ```ts
 * import { createHistogram } from "./histogram.ts";
 * const h = createHistogram([0.1, 1]);
 * h.observe(0.05); h.observe(0.5); h.observe(5);
 * h.read().counts; // [1, 2]
 * ```
 */
export function createHistogram(bounds: readonly number[] = defaultBuckets): HistogramRecorder {
  const counts = bounds.map(() => 0);
  let count = 0, sum = 0;
  return {
    observe(value) {
      count++;
      sum += value;
      for (let i = 0; i < bounds.length; i++) {
        if (value <= bounds[i]) {
          counts[i]++;
          break;
        }
      }
    },
    read() {
      let running = 0;
      return { bounds, counts: counts.map((c) => (running += c)), count, sum };
    },
  };
}
