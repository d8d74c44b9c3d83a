/**
 * Internal: how `runConcurrently()` reads what `process` returned.
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";
import type { RunResult } from "./queue_signal.ts";

/** Whether a value is a Promise (or any thenable). */
export const isThenable = (x: unknown): x is PromiseLike<unknown> =>
  typeof (x as PromiseLike<unknown> | null)?.then === "function";

/** What a run's value means; a malformed `requeueAfterMs` is a failure naming the key. */
export function resultOf(key: ObjectKey, value: unknown): RunResult {
  if (value === undefined || value === null) return { type: "done" };
  const after = (value as { requeueAfterMs?: unknown }).requeueAfterMs;
  if (after === undefined) return { type: "done" };
  if (typeof after !== "number" || !(after >= 0)) {
    const message =
      `Cannot requeue key "${key}": requeueAfterMs must be a number >= 0, got ${after}`;
    return { type: "failed", error: new TypeError(message) };
  }
  return { type: "requeue", afterMs: after };
}
