/**
 * Status batching: after a key's plan writes children, the primary's status is held back for
 * a short window (`statusBatchMs`) and then written once, from what the cache shows — instead
 * of once beside the creates (a prediction: "3 pods, none ready") and again for every child
 * that turns ready meanwhile.
 *
 * ## Why
 * A reconciler's status describes the world after its plan (that is what makes "apply the plan,
 * reconcile again: the plan is empty" hold). But children just created are not ready yet, so
 * that status is replaced moments later: two or more status writes (and watch events for
 * every reader of the primary) where one would do. Like kube-controller-manager's endpoint
 * batch period, holding it coalesces a burst of child changes into one status write.
 *
 * When the window closes, the status also waits (polling, up to `maxHoldMs` after the window
 * opened) until the caches have caught up with the controller's own latest writes — a cache
 * lagging behind the server would otherwise report a state that is already gone.
 *
 * Staleness is bounded: the window opens at the *first* child write not yet reported in
 * status, so however fast children churn, status is written at most `maxHoldMs` later.
 *
 * @module
 */
import { type ObjectRef, type Op, refOf } from "../reconcile/op.ts";
import type { Plan } from "../reconcile/plan.ts";

/** Where a key stands: when its first unreported child write happened, if any. */
export interface StatusHoldState {
  readonly now: number;
  /** The batch window in ms; 0 never holds (status is written beside the child writes). */
  readonly batchMs: number;
  /** Time of the first child write not yet followed by a status write. */
  readonly pendingSince: number | undefined;
  /** Whether the caches are behind the controller's latest writes (as of the window's end). */
  readonly cacheBehind?: boolean;
  /** The longest a status waits for a lagging cache, from the window's start (>= batchMs). */
  readonly maxHoldMs?: number;
}

/** How often a status held for a lagging cache looks again, in ms. */
export const CACHE_POLL_MS = 20;

/** The plan to apply now, the key's new `pendingSince`, and when to look again if held. */
export interface StatusHoldResult {
  readonly plan: Plan;
  readonly pendingSince: number | undefined;
  /** Set when status ops were held: reconcile the key again after this many ms. */
  readonly retryAfterMs?: number;
}

const refOfOp = (op: Op): ObjectRef =>
  op.type === "create" || op.type === "apply" ? refOf(op.object) : op.ref;

const sameObject = (a: ObjectRef, b: ObjectRef) =>
  a.kind === b.kind && a.name === b.name && (a.namespace ?? "") === (b.namespace ?? "") &&
  a.apiVersion.split("/")[0] === b.apiVersion.split("/")[0];

/**
 * Decides whether a plan's status ops for `primary` wait. Pure.
 *
 * - a plan with child writes opens the window (unless one is open already);
 * - inside the window, the primary's status ops are removed and `retryAfterMs` says when the
 *   window closes; after it, while `cacheBehind` (until `maxHoldMs`), they are removed and
 *   retried every {@link CACHE_POLL_MS};
 * - a status op that goes out closes the window (and a child write beside it opens the next);
 * - a plan with neither has nothing unreported: the window closes.
 *
 * @example
 * ```ts
 * import { holdStatus } from "./hold_status.ts";
 * const primary = { apiVersion: "v1", kind: "Secret", namespace: "d", name: "s" };
 * const r = holdStatus({
 *   ops: [
 *     { type: "create", object: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" } } },
 *     { type: "status", ref: primary, status: { ready: false } },
 *   ],
 * }, primary, { now: 1_000, batchMs: 100, pendingSince: undefined });
 * r.plan.ops.length; // 1 (the create)
 * r.retryAfterMs; // 100
 * ```
 */
export function holdStatus(
  plan: Plan,
  primary: ObjectRef,
  state: StatusHoldState,
): StatusHoldResult {
  const isPrimaryStatus = (op: Op) => op.type === "status" && sameObject(op.ref, primary);
  const child = plan.ops.some((op) => !sameObject(refOfOp(op), primary));
  const status = plan.ops.some(isPrimaryStatus);
  if (!child && !status) return { plan, pendingSince: undefined };
  const since = state.pendingSince ?? (child ? state.now : undefined);
  if (!status) return { plan, pendingSince: since };
  const hold = (retryAfterMs: number) => ({
    plan: { ...plan, ops: plan.ops.filter((op) => !isPrimaryStatus(op)) },
    pendingSince: since,
    retryAfterMs,
  });
  if (since !== undefined && state.batchMs > 0) {
    const { now, batchMs } = state;
    if (now < since + batchMs) return hold(since + batchMs - now);
    const until = since + Math.max(batchMs, state.maxHoldMs ?? batchMs);
    if (state.cacheBehind && now < until) return hold(Math.min(CACHE_POLL_MS, until - now));
  }
  return { plan, pendingSince: child ? state.now : undefined };
}
