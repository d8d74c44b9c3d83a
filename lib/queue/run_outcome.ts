/**
 * What goes into and comes out of the workqueue: keys (optionally with a priority), the
 * result of processing a key, and one outcome per run.
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";
import type { ObservableInput } from "../deps.ts";

/**
 * How urgent an add is. `"live"`: a change seen on a watch. `"initial"`: a key from an initial
 * list or a resync, served after live keys (with ageing, see `WorkqueueOptions.agingMs`).
 */
export type Priority = "live" | "initial";

/**
 * One add: a plain key (meaning `"live"`) or a key with a priority.
 *
 * @example
 * ```ts
 * import type { QueueInput } from "../../mod.ts";
 * const inputs: QueueInput[] = ["default/web", { key: "default/db", priority: "initial" }];
 * ```
 */
export type QueueInput = ObjectKey | { readonly key: ObjectKey; readonly priority?: Priority };

/**
 * What processing a key resolves to: nothing (done), or a request to run the key again after
 * `requeueAfterMs` (which also resets its backoff). A failure is a rejection / error.
 *
 * @example
 * ```ts
 * import type { ProcessResult } from "../../mod.ts";
 * const later: ProcessResult = { requeueAfterMs: 30_000 };
 * ```
 */
export type ProcessResult = void | undefined | { readonly requeueAfterMs: number };

/**
 * The outcome of one run of a key, or of a key dropped at shutdown.
 *
 * - `done`: succeeded; the key's backoff is reset.
 * - `requeued`: succeeded and asked to run again in `afterMs`; the backoff is reset.
 * - `failed`: rejected with `error`; `failures` counts consecutive failures including this one;
 *   the key runs again in `retryInMs` (0 when it was added during the run, so it runs at once),
 *   or never when `retryInMs` is `null` (a terminal error, see `WorkqueueOptions.isTerminal`).
 * - `dropped`: the input completed and the key was waiting on a delay (or, with
 *   `drain: "none"`, was queued), so it will not run.
 *
 * @example
 * ```ts
 * import type { RunOutcome } from "../../mod.ts";
 * function describe(o: RunOutcome): string {
 *   switch (o.type) {
 *     case "done": return `${o.key} done in ${o.durationMs} ms`;
 *     case "requeued": return `${o.key} again in ${o.afterMs} ms`;
 *     case "failed": return `${o.key} failed ${o.failures} times`;
 *     case "dropped": return `${o.key} dropped`;
 *   }
 * }
 * ```
 */
export type RunOutcome =
  | { readonly type: "done"; readonly key: ObjectKey; readonly durationMs: number }
  | {
    readonly type: "requeued";
    readonly key: ObjectKey;
    readonly durationMs: number;
    readonly afterMs: number;
  }
  | {
    readonly type: "failed";
    readonly key: ObjectKey;
    readonly durationMs: number;
    readonly error: unknown;
    readonly failures: number;
    readonly retryInMs: number | null;
  }
  | { readonly type: "dropped"; readonly key: ObjectKey };

/**
 * Processes one key: resolve (or emit / complete) with a {@link ProcessResult}, reject (or error)
 * on failure. Only the first value counts. `signal` aborts when the workqueue is unsubscribed.
 */
export type Process = (
  key: ObjectKey,
  context: { readonly signal: AbortSignal },
) => ObservableInput<ProcessResult>;
