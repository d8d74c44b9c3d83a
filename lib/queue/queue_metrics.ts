/**
 * Workqueue metrics as plain data, named after client-go / controller-runtime's
 * `workqueue_*` metrics, and the sink the workqueue reports to.
 *
 * @module
 */

import type { Histogram } from "../core/histogram.ts";

/** A cumulative histogram snapshot (shared with controller metrics). */
export type { Histogram };

/**
 * A snapshot of one workqueue's metrics.
 *
 * @example
 * ```ts
 * import type { QueueMetrics } from "../../mod.ts";
 * const render = (m: QueueMetrics) => `workqueue_depth ${m.depth}\nworkqueue_adds_total ${m.addsTotal}`;
 * ```
 */
export interface QueueMetrics {
  /** `workqueue_depth`: keys queued and ready to run. */
  readonly depth: number;
  /** `workqueue_adds_total`: adds that were not coalesced into a pending key. */
  readonly addsTotal: number;
  /** `workqueue_retries_total`: failures that scheduled a retry. */
  readonly retriesTotal: number;
  /** `workqueue_queue_duration_seconds`: time from add to start of run. */
  readonly queueDurationSeconds: Histogram;
  /** `workqueue_work_duration_seconds`: run durations. */
  readonly workDurationSeconds: Histogram;
  /** `workqueue_unfinished_work_seconds`: summed age of the runs in progress. */
  readonly unfinishedWorkSeconds: number;
  /** `workqueue_longest_running_processor_seconds`: age of the oldest run in progress. */
  readonly longestRunningProcessorSeconds: number;
}

/**
 * What the workqueue reports, as it happens. Implement it to feed another metrics system, or
 * use `createQueueMetrics()` which keeps a {@link QueueMetrics} snapshot.
 *
 * @example
 * ```ts
 * import type { QueueMetricsSink } from "../../mod.ts";
 * let adds = 0;
 * const sink: QueueMetricsSink = {
 *   added: () => void adds++,
 *   depth: () => {},
 *   started: () => {},
 *   finished: () => {},
 *   retried: () => {},
 * };
 * ```
 */
export interface QueueMetricsSink {
  /** A key was added and was not coalesced. */
  added(): void;
  /** The number of ready keys changed. */
  depth(depth: number): void;
  /** A run of `key` started at `nowMs` after waiting `queuedMs`. */
  started(key: string, queuedMs: number, nowMs: number): void;
  /** The run of `key` ended after `workMs`. */
  finished(key: string, workMs: number): void;
  /** A failed key was scheduled for a retry. */
  retried(): void;
}
