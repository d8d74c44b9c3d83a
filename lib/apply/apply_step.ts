/**
 * One reconcile's effects: apply the plan with a timeout on the controller's scheduler, fold
 * the `ReconcileFailed` condition into the primary's status write, then classify the outcome —
 * applied, conflict (requeue now), rejected for good (reported, no retry), or failed (retried
 * with backoff).
 *
 * @module
 */
import type { SchedulerLike } from "../deps.ts";
import type { KubeObject } from "../core/object.ts";
import type { Logger } from "../core/logger.ts";
import { apiGroupOf } from "../core/object.ts";
import type { Client } from "../client/client_types.ts";
import type { Op } from "../reconcile/op.ts";
import type { Plan } from "../reconcile/plan.ts";
import { applyPlan, type OpOutcome, type PlanOutcome } from "./apply_plan.ts";
import type { EventRecorder } from "./event_recorder.ts";
import { droppedConditions, isPermanent, withFailureCondition } from "./report_failure.ts";

/** How applying a plan ended. */
export type StepResult =
  | { readonly type: "applied"; readonly outcome: PlanOutcome }
  | { readonly type: "conflict"; readonly outcome: PlanOutcome; readonly message: string }
  | { readonly type: "rejected"; readonly outcome: PlanOutcome; readonly message: string }
  | { readonly type: "failed"; readonly outcome?: PlanOutcome; readonly error: Error };

/** What {@link applyStep} needs. */
export interface ApplyStepOptions {
  readonly client: Client;
  readonly fieldManager: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** The timer of the timeout. */
  readonly scheduler: SchedulerLike;
  readonly now: () => number;
  readonly logger: Logger;
  readonly events?: EventRecorder;
  /** Told when the primary's kind dropped the conditions it was sent (no `status.conditions`
   * in its schema). */
  readonly onConditionsDropped?: (primary: KubeObject) => void;
}

type Failed = Extract<OpOutcome, { type: "failed" }>;
type StatusOp = Extract<Op, { type: "status" }>;

const isFailed = (o: OpOutcome): o is Failed => o.type === "failed";

/** Whether `op` writes the status of `primary`. */
function isPrimaryStatus(op: Op, primary: KubeObject): op is StatusOp {
  const m = primary.metadata;
  return op.type === "status" && op.ref.kind === primary.kind && op.ref.name === m?.name &&
    (op.ref.namespace ?? "") === (m?.namespace ?? "") &&
    apiGroupOf(op.ref.apiVersion) === apiGroupOf(primary.apiVersion ?? "");
}

/**
 * Applies a plan for a primary and classifies the result.
 *
 * The writes other than the primary's status go first; then the primary's status — with the
 * `ReconcileFailed` condition set when some write was rejected for good, cleared when all
 * succeeded, as it was otherwise. When the plan writes no status for the primary and the
 * condition changes, a status write of the conditions alone carries it (best effort: a primary
 * without a status subresource just ignores it).
 *
 * @example
 * ```ts ignore
 * const r = await applyStep(plan, primary, { client, fieldManager: "kubefold-x", timeoutMs: 30_000,
 *   signal, scheduler, now: () => scheduler.now(), logger });
 * ```
 */
export async function applyStep(
  plan: Plan,
  primary: KubeObject,
  o: ApplyStepOptions,
): Promise<StepResult> {
  const abort = new AbortController();
  const timer = o.scheduler.schedule(
    () => abort.abort(new Error(`reconcile timed out after ${o.timeoutMs} ms`)),
    o.timeoutMs,
  );
  const onOuter = () => abort.abort(o.signal.reason);
  o.signal.addEventListener("abort", onOuter);
  const write = {
    client: o.client,
    fieldManager: o.fieldManager,
    owner: primary,
    signal: abort.signal,
    ...(o.events ? { events: o.events } : {}),
  };
  let outcome: PlanOutcome;
  try {
    const statusOps = plan.ops.filter((op) => isPrimaryStatus(op, primary));
    const first = await applyPlan(
      { ops: plan.ops.filter((op) => !isPrimaryStatus(op, primary)) },
      write,
    );
    const failed = first.outcomes.filter(isFailed);
    const rejected = failed.length > 0 && !abort.signal.aborted &&
      failed.every((f) => isPermanent(f.error));
    // Set when rejected for good, cleared when all went through, kept while retrying.
    const folded = failed.length === 0 || rejected
      ? withFailureCondition(statusOps as StatusOp[], primary, {
        message: rejected ? failed.map((f) => f.error.message).join("; ") : undefined,
        now: o.now(),
      })
      : { ops: statusOps as StatusOp[], extra: false };
    const second = folded.ops.length ? await applyPlan({ ops: folded.ops }, write) : undefined;
    const statusOutcomes = second?.outcomes ?? [];
    for (const s of statusOutcomes) {
      if (
        s.type === "done" && s.op.type === "status" && "conditions" in s.op.status &&
        droppedConditions(s.object)
      ) o.onConditionsDropped?.(primary);
    }
    // The conditions-only write is the framework's, best effort: a failure of it is logged.
    const kept = folded.extra
      ? statusOutcomes.filter((s) => {
        if (s.type !== "failed") return true;
        o.logger.debug("cannot write the ReconcileFailed condition", { error: s.error.message });
        return false;
      })
      : statusOutcomes;
    const outcomes = [...first.outcomes, ...kept];
    const failures = outcomes.filter(isFailed);
    outcome = {
      outcomes,
      failed: failures.length > 0,
      conflict: first.conflict || (second?.conflict ?? false) && !folded.extra,
    };
  } catch (e) {
    return { type: "failed", error: e instanceof Error ? e : new Error(String(e)) };
  } finally {
    timer.unsubscribe();
    o.signal.removeEventListener("abort", onOuter);
  }
  if (!outcome.failed) return { type: "applied", outcome };
  const failed = outcome.outcomes.filter(isFailed);
  const message = failed.map((f) => f.error.message).join("; ");
  o.logger.warn("plan partly failed", { errors: failed.map((f) => f.error.message) });
  if (abort.signal.aborted) {
    const reason = abort.signal.reason;
    return {
      type: "failed",
      outcome,
      error: reason instanceof Error ? reason : new Error(message),
    };
  }
  if (outcome.conflict) return { type: "conflict", outcome, message };
  if (failed.every((f) => isPermanent(f.error))) return { type: "rejected", outcome, message };
  return { type: "failed", outcome, error: new Error(message) };
}
