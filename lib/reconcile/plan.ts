/**
 * `Plan`: what a reconciler returns — the writes that take the world to its desired state.
 *
 * @module
 */
import type { Op } from "./op.ts";

/**
 * The writes of one reconcile, in the order the applier should issue them, and when to look
 * again even if nothing changes (e.g. a certificate that expires).
 *
 * An empty `ops` means converged: a reconciler at its fixpoint returns `{ ops: [] }`.
 *
 * @example
 * ```ts
 * import type { Plan } from "../../mod.ts";
 * const plan: Plan = { ops: [], requeueAfterMs: 60_000 };
 * ```
 */
export interface Plan {
  /** The writes, applied deletes first, then creates, applies and patches, then status. */
  readonly ops: readonly Op[];
  /** Reconcile again after this many milliseconds (default: only on the next change). */
  readonly requeueAfterMs?: number;
}

/**
 * Whether a plan asks for nothing: no op and no requeue.
 *
 * @example
 * ```ts
 * import { isEmptyPlan } from "../../mod.ts";
 * isEmptyPlan({ ops: [] }); // true
 * isEmptyPlan({ ops: [], requeueAfterMs: 5 }); // false
 * ```
 */
export function isEmptyPlan(plan: Plan): boolean {
  return plan.ops.length === 0 && plan.requeueAfterMs === undefined;
}
