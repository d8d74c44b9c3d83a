/**
 * A metrics sink that keeps counters and histograms for one workqueue.
 *
 * @module
 */
import { asyncScheduler, type SchedulerLike } from "../deps.ts";
import type { QueueMetrics, QueueMetricsSink } from "./queue_metrics.ts";
import { createHistogram, durationBuckets } from "../core/histogram.ts";

/** Options of {@link createQueueMetrics}. */
export interface QueueMetricsOptions {
  /** Histogram upper bounds in seconds. Default 1e-8, 1e-7, ..., 1e3 (controller-runtime's). */
  readonly bounds?: readonly number[];
  /** Clock for the in-progress gauges; use the workqueue's scheduler. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/** A {@link QueueMetricsSink} that can also be read. */
export interface QueueMetricsRecorder extends QueueMetricsSink {
  /** The metrics now. */
  snapshot(): QueueMetrics;
}

/**
 * Creates a recorder to pass as `workqueue(..., { metrics })` and read with `snapshot()`.
 *
 * Like client-go's `workqueue.MetricsProvider` with controller-runtime's Prometheus metrics, but
 * as plain data: a manager renders snapshots in Prometheus text format with its own labels.
 *
 * @param options histogram bounds and clock.
 * @returns an empty recorder.
 * @example
 * ```ts
 * import { createQueueMetrics } from "../../mod.ts";
 * const metrics = createQueueMetrics();
 * metrics.added();
 * metrics.snapshot().addsTotal; // 1
 * ```
 */
export function createQueueMetrics(options: QueueMetricsOptions = {}): QueueMetricsRecorder {
  const scheduler = options.scheduler ?? asyncScheduler;
  const bounds = options.bounds ?? durationBuckets;
  const queueDuration = createHistogram(bounds);
  const workDuration = createHistogram(bounds);
  // Start times of runs in progress, per key (a key runs at most once at a time).
  const running = new Map<string, number>();
  let adds = 0, retries = 0, depth = 0;
  return {
    added: () => void adds++,
    depth: (n) => void (depth = n),
    retried: () => void retries++,
    started(key, queuedMs, nowMs) {
      queueDuration.observe(queuedMs / 1000);
      running.set(key, nowMs);
    },
    finished(key, workMs) {
      running.delete(key);
      workDuration.observe(workMs / 1000);
    },
    snapshot() {
      const now = scheduler.now();
      let unfinished = 0, longest = 0;
      for (const start of running.values()) {
        const age = Math.max(0, now - start) / 1000;
        unfinished += age;
        if (age > longest) longest = age;
      }
      return {
        depth,
        addsTotal: adds,
        retriesTotal: retries,
        queueDurationSeconds: queueDuration.read(),
        workDurationSeconds: workDuration.read(),
        unfinishedWorkSeconds: unfinished,
        longestRunningProcessorSeconds: longest,
      };
    },
  };
}
