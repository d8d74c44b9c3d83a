/**
 * The `ReconcileFailed` condition: what a controller reports on its primary when the server
 * rejects a plan for good (422 Invalid and other permanent 4xx answers), instead of retrying
 * in a hot loop. A later fully applied plan clears it.
 *
 * The condition has one writer: it is folded into the status the plan writes for the primary
 * (or, when the plan writes none, into a status write of the conditions alone), after the
 * plan's other writes ran — never a second patch racing the plan's own status.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { isPlainObject } from "../core/object.ts";
import { deepEqual } from "../core/deep_equal.ts";
import type { ApiError } from "../client/api_error.ts";
import { type Condition, setCondition } from "../reconcile/set_condition.ts";
import { type Op, statusOp } from "../reconcile/op.ts";

/** The condition type the controller runtime owns on primaries. */
export const reconcileFailedCondition = "ReconcileFailed";

/**
 * Whether an API error is permanent for the same request: retrying without a change cannot
 * succeed (400, 404 on a write, 405, 413, 415, 422). 403 Forbidden is not: RBAC can grant the
 * permission without the object changing (a Role applied after the operator), so it is
 * retried with back-off, as controller-runtime retries every error.
 *
 * @example
 * ```ts
 * import { isPermanent } from "./report_failure.ts";
 * isPermanent({ type: "status", code: 422 } as never); // true
 * ```
 */
export function isPermanent(error: ApiError): boolean {
  if (error.type !== "status") return false;
  return [400, 404, 405, 413, 415, 422].includes(error.code);
}

function conditionsIn(status: unknown): Condition[] | undefined {
  return isPlainObject(status) && Array.isArray(status.conditions)
    ? status.conditions as Condition[]
    : undefined;
}

/**
 * `conditions` with `ReconcileFailed` set (a message) or cleared (undefined), or undefined when
 * they would not change. Clearing only writes `False` over a `True`; a first success writes
 * nothing.
 *
 * @example
 * ```ts
 * import { failureConditions } from "./report_failure.ts";
 * failureConditions([], { message: "bad", now: 0, generation: 1 })?.[0].type; // "ReconcileFailed"
 * ```
 */
export function failureConditions(
  conditions: readonly Condition[],
  o: { readonly message: string | undefined; readonly now: number; readonly generation?: number },
): Condition[] | undefined {
  const had = conditions.find((c) => c.type === reconcileFailedCondition);
  if (o.message === undefined && had?.status !== "True") return undefined;
  const next = setCondition([...conditions], {
    type: reconcileFailedCondition,
    status: o.message === undefined ? "False" : "True",
    reason: o.message === undefined ? "Applied" : "ApplyRejected",
    message: o.message === undefined ? "" : o.message.slice(0, 1024),
    ...(o.generation !== undefined ? { observedGeneration: o.generation } : {}),
  }, o.now);
  return deepEqual(next, conditions) ? undefined : next;
}

/**
 * The primary's status ops with `ReconcileFailed` folded in: `message` sets it, undefined
 * clears it. A status op without `conditions` starts from the primary's observed conditions.
 * When there is no status op and the condition changes, one is made with the conditions alone
 * (`extra: true`: a merge patch of `status.conditions`).
 *
 * @example
 * ```ts
 * import { withFailureCondition } from "./report_failure.ts";
 * const primary = { apiVersion: "v1", kind: "X", metadata: { name: "x", generation: 2 } };
 * withFailureCondition([], primary, { message: "rejected", now: 0 }).ops.length; // 1
 * ```
 */
export function withFailureCondition(
  statusOps: readonly Extract<Op, { type: "status" }>[],
  primary: KubeObject,
  o: { readonly message: string | undefined; readonly now: number },
): { readonly ops: Extract<Op, { type: "status" }>[]; readonly extra: boolean } {
  const observed = conditionsIn(primary.status) ?? [];
  const generation = primary.metadata?.generation;
  const fold = (base: readonly Condition[]) =>
    failureConditions(base, { ...o, ...(generation !== undefined ? { generation } : {}) });
  if (statusOps.length === 0) {
    const conditions = fold(observed);
    return conditions
      ? { ops: [statusOp(primary, { conditions })], extra: true }
      : { ops: [], extra: false };
  }
  return {
    ops: statusOps.map((op) => {
      const own = conditionsIn(op.status);
      const conditions = fold(own ?? observed);
      return conditions
        ? { ...op, status: statusOp(primary, { ...op.status, conditions }).status }
        : op;
    }),
    extra: false,
  };
}

/** Whether a written primary dropped the conditions it was sent (a schema without them). */
export function droppedConditions(written: KubeObject | undefined): boolean {
  return written !== undefined && conditionsIn(written.status) === undefined;
}
