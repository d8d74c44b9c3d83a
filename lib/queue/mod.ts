/**
 * The workqueue as an RxJS operator, and the rate limiters it retries with.
 *
 * ```ts
 * import { from, rx } from "../deps.ts";
 * import { createQueueMetrics, defaultRateLimiter, workqueue } from "./mod.ts";
 * const metrics = createQueueMetrics();
 * const outcomes = await rx.lastValueFrom(
 *   from(["default/a", { key: "default/b", priority: "initial" as const }]).pipe(
 *     workqueue(async (_key) => {}, { concurrency: 4, limiter: defaultRateLimiter(), metrics }),
 *     rx.toArray(),
 *   ),
 * );
 * outcomes.map((o) => o.type); // ["done", "done"]
 * metrics.snapshot().addsTotal; // 2
 * ```
 *
 * @module
 */
export { workqueue } from "./workqueue.ts";
export type { Process, WorkqueueOptions } from "./workqueue.ts";
export type { Priority, ProcessResult, QueueInput, RunOutcome } from "./run_outcome.ts";
export type { RateLimiter } from "./rate_limiter.ts";
export { exponentialBackoff } from "./exponential_backoff.ts";
export type { ExponentialBackoffOptions } from "./exponential_backoff.ts";
export { tokenBucket } from "./token_bucket.ts";
export type { TokenBucketOptions, TokenBucketState } from "./token_bucket.ts";
export { fastSlow } from "./fast_slow.ts";
export type { FastSlowOptions } from "./fast_slow.ts";
export { maxOf } from "./max_of.ts";
export { defaultRateLimiter } from "./default_rate_limiter.ts";
export { createRateLimiter } from "./create_rate_limiter.ts";
export type { KeyedRateLimiter } from "./create_rate_limiter.ts";
export { createQueueState } from "./create_queue_state.ts";
export type { Finished, QueueState, QueueStateOptions, RunEnd } from "./create_queue_state.ts";
export type { Histogram, QueueMetrics, QueueMetricsSink } from "./queue_metrics.ts";
export { createQueueMetrics } from "./create_queue_metrics.ts";
export type { QueueMetricsOptions, QueueMetricsRecorder } from "./create_queue_metrics.ts";
