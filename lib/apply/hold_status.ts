/**
 * Status holding: a plan that writes children does not write the primary's status beside
 * them. The status goes out from a later reconcile — once the children's writes show in the
 * cache (expectations), the caches have reached the controller's own latest writes, and an
 * optional batch window (`statusBatchMs`) has passed — computed from what was observed.
 *
 * ## Why
 * A reconciler's status describes the world after its plan (that is what makes "apply the plan,
 * reconcile again: the plan is empty" hold). But children just created are not ready yet, so
 * that status is a prediction replaced moments later: two status writes (and watch events for
 * every reader of the primary) where one would do. A cache that lags behind the server would
 * likewise report a state that is already gone; waiting until it has seen the controller's
 * own latest writes (a read-your-writes barrier) avoids publishing it. A batch window (the
 * controller's default is 100 ms), like kube-controller-manager's endpoint batch period,
 * further coalesces bursts of child changes.
 *
 * Staleness is bounded: the hold starts at the *first* child write not yet reported in status,
 * so however fast children churn, status goes out at most `maxHoldMs` later (and never held
 * twice in a row for child writes alone).
 *
 * @module
 */
import { apiGroupOf } from "../core/object.ts";
import { type ObjectRef, type Op, refOf } from "../reconcile/op.ts";
import type { Plan } from "../reconcile/plan.ts";

/**
 * Where a key stands.
 *
 * @example
 * ```ts
 * import type { StatusHoldState } from "./hold_status.ts";
 * const state: StatusHoldState = { now: 1_000, batchMs: 100, pendingSince: 950 };
 * ```
 */
export interface StatusHoldState {
  readonly now: number;
  /** Extra time a status waits after the first unreported child write (0: none). */
  readonly batchMs: number;
  /** Time of the first child write not yet followed by a status write. */
  readonly pendingSince: number | undefined;
  /** Whether the caches are behind the controller's latest writes (as of the window's end). */
  readonly cacheBehind?: boolean;
  /** The longest a status waits for a lagging cache, from the hold's start (default 1 s). */
  readonly maxHoldMs?: number;
}

/**
 * The plan to apply now, the key's new `pendingSince`, and when to look again if held.
 *
 * @example
 * ```ts
 * import type { StatusHoldResult } from "./hold_status.ts";
 * const held: StatusHoldResult = { plan: { ops: [] }, pendingSince: 950, retryAfterMs: 50 };
 * ```
 */
export interface StatusHoldResult {
  readonly plan: Plan;
  readonly pendingSince: number | undefined;
  /** Set when status ops were held: reconcile the key again after this many ms at the latest. */
  readonly retryAfterMs?: number;
}

const refOfOp = (op: Exclude<Op, { type: "event" }>): ObjectRef =>
  op.type === "create" || op.type === "apply" ? refOf(op.object) : op.ref;

const sameObject = (a: ObjectRef, b: ObjectRef) =>
  a.kind === b.kind && a.name === b.name && (a.namespace ?? "") === (b.namespace ?? "") &&
  apiGroupOf(a.apiVersion) === apiGroupOf(b.apiVersion);

/**
 * Decides whether a plan's status ops for `primary` wait. Pure.
 *
 * - a plan with child writes and no hold open: status held, the hold opens now;
 * - a hold open: status held while inside `batchMs`, and after it while `cacheBehind` (up to
 *   `maxHoldMs`; the caller wakes the key earlier when its caches catch up);
 * - a status op that goes out ends the hold (a child write beside it opens the next);
 * - a plan with neither status nor child writes has nothing unreported: the hold ends.
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
 * }, primary, { now: 1_000, batchMs: 0, pendingSince: undefined });
 * r.plan.ops.length; // 1 (the create)
 * r.pendingSince; // 1000
 * ```
 */
export function holdStatus(
  plan: Plan,
  primary: ObjectRef,
  state: StatusHoldState,
): StatusHoldResult {
  const isPrimaryStatus = (op: Op) => op.type === "status" && sameObject(op.ref, primary);
  const child = plan.ops.some((op) => op.type !== "event" && !sameObject(refOfOp(op), primary));
  const status = plan.ops.some(isPrimaryStatus);
  if (!child && !status) return { plan, pendingSince: undefined };
  const { now, batchMs } = state;
  const since = state.pendingSince ?? (child ? now : undefined);
  if (!status) return { plan, pendingSince: since };
  const hold = (retryAfterMs: number) => ({
    plan: { ...plan, ops: plan.ops.filter((op) => !isPrimaryStatus(op)) },
    pendingSince: since,
    retryAfterMs,
  });
  if (since !== undefined) {
    const opening = state.pendingSince === undefined;
    if (opening || now < since + batchMs) return hold(Math.max(0, since + batchMs - now));
    const until = since + Math.max(batchMs, state.maxHoldMs ?? 1_000);
    if (state.cacheBehind && now < until) return hold(until - now);
  }
  return { plan, pendingSince: child ? now : undefined };
}
