/**
 * `failureEvent()`: the Warning event that tells a user why a reconcile or one of its writes
 * failed.
 *
 * @module
 */
import type { ApiError } from "../client/api_error.ts";
import type { Op } from "../reconcile/op.ts";
import type { ReconcileError } from "../reconcile/reconcile_error.ts";
import type { EventInput } from "./_event_body.ts";

/**
 * A failure worth an event: a plan op the API server rejected (the shape of a failed
 * `OpOutcome` from `applyPlan`), or a reconciler's error.
 */
export type ReconcileFailure =
  | { readonly type: "failed"; readonly op: Op; readonly error: ApiError }
  | { readonly type: "reconcileError"; readonly error: ReconcileError };

const actions: Record<Op["type"], string> = {
  create: "Create",
  apply: "Apply",
  patch: "Patch",
  delete: "Delete",
  status: "UpdateStatus",
};

/** The op's object as `Kind` and `"ns/name"`. */
function opTarget(op: Op): { readonly kind: string; readonly quoted: string } {
  const ref = op.type === "create" || op.type === "apply"
    ? {
      kind: op.object.kind ?? "",
      namespace: op.object.metadata?.namespace,
      name: op.object.metadata?.name ?? "",
    }
    : op.ref;
  return { kind: ref.kind, quoted: `"${ref.namespace ? `${ref.namespace}/` : ""}${ref.name}"` };
}

/** The error's message plus the field causes a 422 carries (`field: message`). */
function describe(error: ApiError): string {
  if (error.type !== "status" || error.causes.length === 0) return error.message;
  const causes = error.causes
    .map((c) => (c.field ? `${c.field}: ${c.message ?? c.reason ?? ""}` : c.message ?? ""))
    .filter((c) => c !== "" && !error.message.includes(c));
  return causes.length ? `${error.message} (${causes.join("; ")})` : error.message;
}

/**
 * The Warning event for a failure: reason `ApplyFailed` with the op's verb as action (`Create`,
 * `Apply`, `Patch`, `Delete`, `UpdateStatus`) for a rejected write, reason `ReconcileError`
 * with action `Reconcile` for a reconciler's error. The note names the object and carries the
 * server's message and field causes (the recorder truncates it to 1 KiB).
 *
 * Like the Warning events controller-runtime users emit by hand on failure, but derived from
 * the failure value, so every controller reports failures the same way.
 *
 * @param failure a failed op outcome, or `{ type: "reconcileError", error }`
 * @returns the event to pass to `EventRecorder.record` with the primary as `regarding`
 *
 * @example
 * ```ts
 * import { failureEvent } from "./_failure_event.ts";
 * failureEvent({ type: "reconcileError", error: { type: "terminal", message: "Cannot parse spec.size" } });
 * // { type: "Warning", reason: "ReconcileError", action: "Reconcile", note: "Cannot parse spec.size" }
 * ```
 */
export function failureEvent(failure: ReconcileFailure): EventInput {
  switch (failure.type) {
    case "failed": {
      const message = describe(failure.error);
      const { kind, quoted } = opTarget(failure.op);
      return {
        type: "Warning",
        reason: "ApplyFailed",
        action: actions[failure.op.type],
        // Client errors already name the object; other messages get it prepended.
        note: message.includes(quoted)
          ? message
          : `Cannot ${failure.op.type} ${kind} ${quoted}: ${message}`,
      };
    }
    case "reconcileError":
      return {
        type: "Warning",
        reason: "ReconcileError",
        action: "Reconcile",
        note: failure.error.message,
      };
  }
}
