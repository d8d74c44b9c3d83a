/**
 * One reconcile's effects: apply the plan with a timeout, then classify the outcome — applied,
 * conflict (requeue now), rejected for good (reported as an event and a condition, no retry),
 * or failed (retried with backoff).
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { Logger } from "../core/logger.ts";
import type { Client } from "../client/client_types.ts";
import type { Plan } from "../reconcile/plan.ts";
import { applyPlan, type OpOutcome, type PlanOutcome } from "./apply_plan.ts";
import type { EventRecorder } from "./event_recorder.ts";
import { clearFailure, isPermanent, reportFailure } from "./report_failure.ts";

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
  readonly now: () => number;
  readonly logger: Logger;
  readonly events?: EventRecorder;
}

/**
 * Applies a plan for a primary and classifies the result.
 *
 * @example
 * ```ts ignore
 * const r = await applyStep(plan, primary, { client, fieldManager: "kubefold-x", timeoutMs: 30_000,
 *   signal, now: Date.now, logger });
 * ```
 */
export async function applyStep(
  plan: Plan,
  primary: KubeObject,
  o: ApplyStepOptions,
): Promise<StepResult> {
  const abort = new AbortController();
  const cancel = () => abort.abort(new Error(`reconcile timed out after ${o.timeoutMs} ms`));
  const timer = setTimeout(cancel, o.timeoutMs);
  const onOuter = () => abort.abort(o.signal.reason);
  o.signal.addEventListener("abort", onOuter);
  let outcome: PlanOutcome;
  try {
    outcome = await applyPlan(plan, {
      client: o.client,
      fieldManager: o.fieldManager,
      owner: primary,
      signal: abort.signal,
    });
  } catch (e) {
    return { type: "failed", error: e instanceof Error ? e : new Error(String(e)) };
  } finally {
    clearTimeout(timer);
    o.signal.removeEventListener("abort", onOuter);
  }
  if (!outcome.failed) {
    await clearFailure(o.client, primary, { fieldManager: o.fieldManager, now: o.now() });
    return { type: "applied", outcome };
  }
  const failed = outcome.outcomes.filter((x): x is Extract<OpOutcome, { type: "failed" }> =>
    x.type === "failed"
  );
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
  if (failed.every((f) => isPermanent(f.error))) {
    await reportFailure(o.client, primary, failed, {
      events: o.events,
      fieldManager: o.fieldManager,
      now: o.now(),
    });
    return { type: "rejected", outcome, message };
  }
  return { type: "failed", outcome, error: new Error(message) };
}
