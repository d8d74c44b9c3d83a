/**
 * `ReconcileError`: the expected failures of a reconciler, as values.
 *
 * @module
 */

/**
 * Why a reconcile produced no plan:
 * - `transient`: retry with backoff (or after `requeueAfterMs`), e.g. a dependency missing;
 * - `terminal`: retrying cannot help until the input changes (like controller-runtime's
 *   `TerminalError`): the controller logs it and waits for the next change.
 *
 * Invalid user input is usually *not* an error: report it in status (a `Degraded` condition)
 * and return a plan, so the user sees it and the controller does not spin.
 *
 * @example
 * ```ts
 * import type { ReconcileError } from "../../mod.ts";
 * const e: ReconcileError = { type: "terminal", message: 'PodSet "d/web" has no metadata.uid' };
 * ```
 */
export type ReconcileError =
  | {
    readonly type: "transient";
    readonly message: string;
    readonly requeueAfterMs?: number;
    readonly cause?: unknown;
  }
  | { readonly type: "terminal"; readonly message: string; readonly cause?: unknown };

/**
 * A `terminal` error.
 *
 * @example
 * ```ts
 * import { terminal } from "../../mod.ts";
 * terminal("Cannot name pods: too many collisions").type; // "terminal"
 * ```
 */
export function terminal(message: string, cause?: unknown): ReconcileError {
  return cause === undefined ? { type: "terminal", message } : { type: "terminal", message, cause };
}

/**
 * A `transient` error.
 *
 * @example
 * ```ts
 * import { transient } from "../../mod.ts";
 * transient("Cannot read secret d/s: not in cache yet", { requeueAfterMs: 1000 }).type; // "transient"
 * ```
 */
export function transient(
  message: string,
  options: { readonly requeueAfterMs?: number; readonly cause?: unknown } = {},
): ReconcileError {
  return { type: "transient", message, ...options };
}
