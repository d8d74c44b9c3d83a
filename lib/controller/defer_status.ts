/**
 * Status deferral: a plan that changes children *and* writes the primary's status holds the
 * status back; the next reconcile (triggered by the children's own watch events, after the
 * controller's expectations see them) computes it again from the observed world and writes it.
 *
 * ## Why
 * A reconciler's status describes the world after its plan (that is what makes "apply the plan,
 * reconcile again: the plan is empty" hold). But the children it just created are not ready
 * yet, so that status is a prediction that the very next reconcile replaces: two status writes
 * (and two watch events for every reader of the primary) where one would do. Deferring it
 * writes status once the children settle — usually once per change of the primary.
 *
 * A key never defers twice in a row, so status keeps flowing while children churn (e.g. pods
 * deleted as fast as they are replaced).
 *
 * @module
 */
import { type ObjectRef, type Op, refOf } from "../reconcile/op.ts";
import type { Plan } from "../reconcile/plan.ts";

/** The plan to apply now, and whether a status op was held back. */
export interface DeferredPlan {
  readonly plan: Plan;
  readonly deferred: boolean;
}

const refOfOp = (op: Op): ObjectRef =>
  op.type === "create" || op.type === "apply" ? refOf(op.object) : op.ref;

const sameObject = (a: ObjectRef, b: ObjectRef) =>
  a.kind === b.kind && a.name === b.name && (a.namespace ?? "") === (b.namespace ?? "") &&
  a.apiVersion.split("/")[0] === b.apiVersion.split("/")[0];

/**
 * Splits the primary's status ops off a plan that also writes other objects. Pure.
 * `deferredLast` says whether this key's previous plan was deferred: if so, nothing is held
 * back this time.
 *
 * @example
 * ```ts
 * import { deferStatus } from "./defer_status.ts";
 * const primary = { apiVersion: "v1", kind: "Secret", namespace: "d", name: "s" };
 * const r = deferStatus({
 *   ops: [
 *     { type: "create", object: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" } } },
 *     { type: "status", ref: primary, status: { ready: false } },
 *   ],
 * }, primary, false);
 * r.deferred; // true
 * r.plan.ops.length; // 1
 * ```
 */
export function deferStatus(plan: Plan, primary: ObjectRef, deferredLast: boolean): DeferredPlan {
  if (deferredLast) return { plan, deferred: false };
  const isPrimaryStatus = (op: Op) => op.type === "status" && sameObject(op.ref, primary);
  const touchesChild = plan.ops.some((op) => {
    return !sameObject(refOfOp(op), primary);
  });
  if (!touchesChild || !plan.ops.some(isPrimaryStatus)) return { plan, deferred: false };
  return { plan: { ...plan, ops: plan.ops.filter((op) => !isPrimaryStatus(op)) }, deferred: true };
}
