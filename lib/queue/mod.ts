/**
 * The workqueue as RxJS operators, and the rate limiters it retries with.
 *
 * `workqueue()` closes five operators into a loop with `feedbackLoop()`: `delayUntilDue`
 * (requeues and retries wait), `dedupByKey` (never the same key twice at once), `rateLimit`
 * (outcomes and backoff), `prioritize` (live keys before initial ones, with ageing) and
 * `runConcurrently` (bounded workers). They talk through {@link QueueSignal}s.
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
export { feedbackLoop, type FeedbackLoopOptions } from "./feedback_loop.ts";
export { delayUntilDue, type DelayUntilDueOptions } from "./delay_until_due.ts";
export { dedupByKey, type DedupByKeyOptions } from "./dedup_by_key.ts";
export { rateLimit, type RateLimitOptions } from "./rate_limit.ts";
export { prioritize, type PrioritizeOptions } from "./prioritize.ts";
export { runConcurrently, type RunConcurrentlyOptions } from "./run_concurrently.ts";
export type { DrainMode, QueueSignal, RunResult, SignalOf } from "./queue_signal.ts";
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
