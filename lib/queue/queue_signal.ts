/**
 * The signals the workqueue's operators pass to each other around {@link feedbackLoop}: each
 * operator handles the signals it owns and forwards the rest unchanged.
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";
import type { Priority, RunOutcome } from "./run_outcome.ts";

/** How a run ended, as `runConcurrently()` saw it. */
export type RunResult =
  | { readonly type: "done" }
  | { readonly type: "requeue"; readonly afterMs: number }
  | { readonly type: "failed"; readonly error: unknown };

/** What the input completing means for work not done yet (see `WorkqueueOptions.drain`). */
export type DrainMode = "ready" | "all" | "none";

/**
 * One signal of the workqueue loop. Who emits and who consumes each:
 *
 * | signal    | emitted by                                  | consumed by        |
 * |-----------|---------------------------------------------|--------------------|
 * | `add`     | the input, `delayUntilDue` when due         | `dedupByKey`       |
 * | `ready`   | `dedupByKey`: a key enters the ready queue  | `prioritize`       |
 * | `promote` | `dedupByKey`: a queued key was added live   | `prioritize`       |
 * | `start`   | `prioritize`, when a slot is free           | `dedupByKey`       |
 * | `end`     | `runConcurrently`, when a run ends          | `prioritize`       |
 * | `after`   | `rateLimit`: run the key again after a delay | `delayUntilDue`   |
 * | `due`     | `delayUntilDue`'s timer                     | `delayUntilDue`    |
 * | `slots`   | `runConcurrently` on subscribe: free slots  | `prioritize`       |
 * | `drain`   | `feedbackLoop` when the input completes     | `feedbackLoop`     |
 * | `idle`    | `feedbackLoop` probing for completion       | any busy operator  |
 * | `outcome` | `rateLimit`, and droppers on `drain`        | `feedbackLoop` (emitted) |
 *
 * Signals that reach the end of the loop before their consumer go round again, so
 * `start` passes `runConcurrently` before `dedupByKey` sees it, and `end` passes
 * `dedupByKey` (which marks `rerun`) and `rateLimit` before `prioritize` frees the slot.
 *
 * @example
 * ```ts
 * import type { QueueSignal } from "../../mod.ts";
 * const describe = (s: QueueSignal): string => s.type === "outcome" ? s.outcome.type : s.type;
 * describe({ type: "add", key: "default/web", priority: "live" }); // "add"
 * ```
 */
export type QueueSignal =
  | {
    readonly type: "add";
    readonly key: ObjectKey;
    readonly priority: Priority;
    /** When the key became due, for queue latency; default: when `dedupByKey` sees it. */
    readonly sinceMs?: number;
  }
  | {
    readonly type: "ready";
    readonly key: ObjectKey;
    readonly priority: Priority;
    readonly sinceMs: number;
  }
  | { readonly type: "promote"; readonly key: ObjectKey }
  | {
    readonly type: "start";
    readonly key: ObjectKey;
    /** Since when the key waited to run (its queue latency ends now). */
    readonly sinceMs: number;
  }
  | {
    readonly type: "end";
    readonly key: ObjectKey;
    readonly durationMs: number;
    readonly result: RunResult;
    /** Set by `dedupByKey`: the key was added during the run and is queued again. */
    readonly rerun: boolean;
  }
  | { readonly type: "after"; readonly key: ObjectKey; readonly delayMs: number }
  | { readonly type: "due" }
  | { readonly type: "slots"; readonly count: number }
  | { readonly type: "drain"; readonly mode: DrainMode }
  | { readonly type: "idle" }
  | { readonly type: "outcome"; readonly outcome: RunOutcome };

/** The signal of one type. */
export type SignalOf<T extends QueueSignal["type"]> = Extract<QueueSignal, { type: T }>;
