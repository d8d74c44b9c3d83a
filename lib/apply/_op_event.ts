/**
 * `opEvent()`: the event the applier records about the primary for an op's outcome, as
 * kube-controller-manager's controllers do (`SuccessfulCreate`, `FailedCreate`, ...), and
 * `reconcileErrorEvent()` for a reconciler's terminal error.
 *
 * @module
 */
import type { ApiError } from "../client/api_error.ts";
import type { EventInput, Op } from "../reconcile/op.ts";
import type { ReconcileError } from "../reconcile/reconcile_error.ts";
import type { OpOutcome } from "./apply_plan.ts";

const actions: Record<Op["type"], string> = {
  create: "Create",
  apply: "Apply",
  patch: "Patch",
  delete: "Delete",
  status: "UpdateStatus",
  event: "Record",
};

/** The op's object as `Kind`, `name` and `"ns/name"`. */
function opTarget(
  op: Op,
): { readonly kind: string; readonly name: string; readonly quoted: string } {
  const ref = op.type === "create" || op.type === "apply"
    ? {
      kind: op.object.kind ?? "",
      namespace: op.object.metadata?.namespace,
      name: op.object.metadata?.name ?? "",
    }
    : op.type === "event"
    ? {
      kind: op.regarding?.kind ?? "",
      namespace: op.regarding?.namespace,
      name: op.regarding?.name ?? "",
    }
    : op.ref;
  return {
    kind: ref.kind,
    name: ref.name,
    quoted: `"${ref.namespace ? `${ref.namespace}/` : ""}${ref.name}"`,
  };
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
 * The event for one op's outcome, or undefined when there is none to record:
 * - a create or delete done: `Normal` `SuccessfulCreate` / `SuccessfulDelete`, note
 *   `Created Pod: web-abc` / `Deleted Pod: web-abc`;
 * - a create or delete failed: `Warning` `FailedCreate` / `FailedDelete`;
 * - another write failed: `Warning` `ApplyFailed` with the op's verb as action (`Apply`,
 *   `Patch`, `UpdateStatus`).
 *
 * A failure's note names the object and carries the server's message and field causes.
 *
 * @example
 * ```ts
 * import { opEvent } from "./_op_event.ts";
 * const pod = { apiVersion: "v1", kind: "Pod", metadata: { namespace: "d", name: "web-a" } };
 * opEvent({ type: "done", op: { type: "create", object: pod } })?.note; // "Created Pod: web-a"
 * ```
 */
export function opEvent(outcome: OpOutcome): EventInput | undefined {
  const { op } = outcome;
  if (op.type === "event" || outcome.type === "already") return undefined;
  const { kind, name, quoted } = opTarget(op);
  if (outcome.type === "done") {
    if (op.type === "create") {
      return {
        type: "Normal",
        reason: "SuccessfulCreate",
        action: "Create",
        note: `Created ${kind}: ${name}`,
      };
    }
    if (op.type === "delete") {
      return {
        type: "Normal",
        reason: "SuccessfulDelete",
        action: "Delete",
        note: `Deleted ${kind}: ${name}`,
      };
    }
    return undefined;
  }
  const message = describe(outcome.error);
  // Client errors already name the object; other messages get it prepended.
  const note = message.includes(quoted)
    ? message
    : `Cannot ${op.type} ${kind} ${quoted}: ${message}`;
  const reason = op.type === "create"
    ? "FailedCreate"
    : op.type === "delete"
    ? "FailedDelete"
    : "ApplyFailed";
  return { type: "Warning", reason, action: actions[op.type], note };
}

/**
 * The Warning event for a reconciler's terminal error: reason `ReconcileError`, action
 * `Reconcile`, the error's message as note.
 *
 * @example
 * ```ts
 * import { reconcileErrorEvent } from "./_op_event.ts";
 * reconcileErrorEvent({ type: "terminal", message: "Cannot parse spec.size" }).reason; // "ReconcileError"
 * ```
 */
export function reconcileErrorEvent(error: ReconcileError): EventInput {
  return { type: "Warning", reason: "ReconcileError", action: "Reconcile", note: error.message };
}
