/**
 * `settle()`: lets every queued Promise callback run.
 *
 * @module
 */
import { setImmediate } from "node:timers";

/**
 * Resolves once every Promise callback queued so far has run, and every callback those
 * queued, however long the chain: it waits for the next turn of the event loop, which starts
 * only when the microtask queue is empty.
 *
 * Like `await new Promise((r) => setTimeout(r, 0))`, but without the 1-4 ms a nested
 * `setTimeout` may wait: `setImmediate` runs right after pending I/O callbacks.
 *
 * @returns a Promise resolved on the next turn of the event loop.
 * @example
 * ```ts
 * import { settle } from "./mod.ts";
 * let done = false;
 * (async () => {
 *   for (let i = 0; i < 1_000; i++) await null;
 *   done = true;
 * })();
 * await settle();
 * done; // true
 * ```
 */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
