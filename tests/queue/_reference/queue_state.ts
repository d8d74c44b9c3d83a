/**
 * The types of the workqueue's timer-free state machine: its options, how a run ended, what
 * finishing a run decided, and the `QueueState` interface that {@link createQueueState}
 * implements.
 *
 * @module
 */
import type { ObjectKey, Priority, RateLimiter } from "../../../mod.ts";

/**
 * Options of {@link createQueueState}.
 *
 * @example
 * ```ts
 * import type { QueueStateOptions } from "./queue_state.ts";
 * import { exponentialBackoff } from "../../../mod.ts";
 * const options: QueueStateOptions = { limiter: exponentialBackoff(), agingMs: 5_000 };
 * ```
 */
export interface QueueStateOptions {
  /** Delays retries of failed keys. Default {@link defaultRateLimiter}. */
  readonly limiter?: RateLimiter;
  /** After waiting this long an `"initial"` key gets every other turn. Default 10,000 ms. */
  readonly agingMs?: number;
}

/**
 * How a run ended, as told to {@link QueueState.finish}.
 *
 * @example
 * ```ts
 * import type { RunEnd } from "./queue_state.ts";
 * const ends: RunEnd[] = [
 *   { type: "done" },
 *   { type: "requeue", afterMs: 1_000 },
 *   { type: "failed", terminal: false },
 * ];
 * ```
 */
export type RunEnd =
  | { readonly type: "done" }
  | { readonly type: "requeue"; readonly afterMs: number }
  | { readonly type: "failed"; readonly terminal: boolean };

/**
 * What {@link QueueState.finish} decided.
 *
 * @example
 * ```ts
 * import type { Finished } from "./queue_state.ts";
 * const retryIn = (f: Finished) => f.delayMs === null ? "no retry" : `retry in ${f.delayMs} ms`;
 * retryIn({ delayMs: 5, failures: 1 }); // "retry in 5 ms"
 * ```
 */
export interface Finished {
  /** Delay before the key's next run; 0 = queued now; `null` = no next run planned. */
  readonly delayMs: number | null;
  /** Consecutive failures including this run (0 after a success). */
  readonly failures: number;
}

/**
 * The queue's state; every method takes the current time, none schedules anything.
 *
 * @example
 * ```ts
 * import type { QueueState } from "./queue_state.ts";
 * import { createQueueState } from "./create_queue_state.ts";
 * const q: QueueState = createQueueState();
 * q.add("default/a", "live", 0); // true
 * q.depth; // 1
 * ```
 */
export interface QueueState {
  /** Adds a key; returns false when it was coalesced into a pending one. */
  add(key: ObjectKey, priority: Priority, nowMs: number): boolean;
  /** Takes the next key to run (and marks it processing), with how long it was queued. */
  take(nowMs: number): { readonly key: ObjectKey; readonly queuedMs: number } | undefined;
  /** Ends the run of a processing key and plans its next run. */
  finish(key: ObjectKey, end: RunEnd, nowMs: number): Finished;
  /** Queues (as live) every delayed key due at `nowMs`; returns how many. */
  tick(nowMs: number): number;
  /** When the earliest delayed key is due, if any. */
  nextDueMs(): number | undefined;
  /** Removes every delayed key and returns them. */
  dropWaiting(): ObjectKey[];
  /** Removes every queued key and returns them. */
  dropQueued(): ObjectKey[];
  /** Consecutive failures of a key. */
  failures(key: ObjectKey): number;
  /** Keys queued and ready to run (client-go's queue depth). */
  readonly depth: number;
  /** Keys being processed. */
  readonly processing: number;
  /** Keys waiting on a delay. */
  readonly waiting: number;
}
