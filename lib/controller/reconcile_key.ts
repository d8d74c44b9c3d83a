/**
 * `reconcileKey()`: what one run of one key does — wait for the caches and for the key's own
 * last writes to show, call the pure reconciler, hold the status back while children settle,
 * apply the plan, set read-your-writes expectations, and say when to run again.
 *
 * @module
 */
import { E, type SchedulerLike } from "../deps.ts";
import type { ObjectKey } from "../core/key.ts";
import type { KubeObject } from "../core/object.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import { type Logger, withFields } from "../core/logger.ts";
import type { Client } from "../client/client_types.ts";
import type { ProcessResult } from "../queue/run_outcome.ts";
import { refOf } from "../reconcile/op.ts";
import type { Plan } from "../reconcile/plan.ts";
import type { ReconcileError } from "../reconcile/reconcile_error.ts";
import { formatPlan } from "../apply/format_plan.ts";
import { applyStep } from "../apply/apply_step.ts";
import type { EventRecorder } from "../apply/event_recorder.ts";
import type { Expectations } from "../apply/expectations.ts";
import { planExpectations } from "../apply/plan_expectations.ts";
import { reconcileFailedCondition } from "../apply/report_failure.ts";
import { reconcileErrorEvent } from "../apply/_op_event.ts";
import type { StatusBatcher } from "../apply/status_batcher.ts";
import type { ControllerMetrics, ReconcileErrorType } from "./controller_metrics.ts";
import type { ControllerSpec } from "./controller_spec.ts";
import type { ControllerCaches } from "./controller_caches.ts";
import { undeclaredWrite } from "./check_writes.ts";
import { fieldManagerOf } from "./field_manager.ts";

/** One reconcile, as reported to the caller (and logged). */
export interface ReconcileRecord {
  /** The controller's name. */
  readonly controller: string;
  /** The primary's key. */
  readonly key: ObjectKey;
  /** `<controller>-<counter>`, also in the reconcile's log lines. */
  readonly reconcileId: string;
  /** `skipped`: the plan was empty. */
  readonly result: "success" | "error" | "requeue" | "skipped";
  /** Ops in the plan. */
  readonly ops: number;
  /** From the start of the reconcile to the end of its writes. */
  readonly durationMs: number;
  /** What went wrong, when `result` is `error`. */
  readonly error?: string;
  /** Why it went wrong, when `result` is `error`. */
  readonly errorType?: ReconcileErrorType;
}

/** The state and dependencies one controller run shares between its keys. */
export interface ReconcileKeyContext<P extends HasMetadata, W> {
  readonly spec: ControllerSpec<P, W>;
  readonly caches: ControllerCaches;
  readonly world: W;
  readonly client: Client;
  readonly scheduler: SchedulerLike;
  readonly now: () => number;
  readonly log: Logger;
  readonly metrics: ControllerMetrics;
  readonly expectations: Expectations;
  readonly batcher: StatusBatcher;
  /** When each queued key was first seen (for the event-to-reconcile latency). */
  readonly firstSeen: Map<ObjectKey, number>;
  /** Resolves true once every informer synced, false if the run stops first. */
  readonly synced: () => Promise<boolean>;
  readonly emit: (record: ReconcileRecord) => void;
  readonly nextId: () => string;
  readonly events?: EventRecorder;
  readonly dryRun: boolean;
  readonly expectationTimeoutMs: number;
  readonly reconcileTimeoutMs: number;
  /** Warns once per kind whose schema drops `status.conditions`. */
  readonly conditionsDropped: (primary: KubeObject) => void;
}

/** Fields of a thrown value for the log: its message, and its stack when it has one. */
function thrown(e: unknown): Record<string, unknown> {
  return e instanceof Error
    ? { error: e.message, errorName: e.name, ...(e.stack ? { stack: e.stack } : {}) }
    : { error: String(e) };
}

/** Fields of a reconciler's error for the log: type, message, and its cause. */
function reconcileErrorFields(err: ReconcileError): Record<string, unknown> {
  if (err.cause === undefined) return { error: err.message, errorType: err.type };
  const cause = thrown(err.cause);
  return {
    error: err.message,
    errorType: err.type,
    cause: cause.error,
    ...(cause.stack ? { causeStack: cause.stack } : {}),
  };
}

const failedCondition = (p: KubeObject) => {
  const s = p.status as { conditions?: { type?: string; status?: string }[] } | undefined;
  return Array.isArray(s?.conditions) &&
    s.conditions.some((c) => c?.type === reconcileFailedCondition && c.status === "True");
};

/**
 * The workqueue's `process` for one controller run.
 *
 * @example
 * ```ts ignore
 * workqueue(reconcileKey(context), { scheduler });
 * ```
 */
export function reconcileKey<P extends HasMetadata, W>(
  c: ReconcileKeyContext<P, W>,
): (key: ObjectKey, ctx: { readonly signal: AbortSignal }) => Promise<ProcessResult> {
  const { spec, caches, metrics, expectations, batcher } = c;
  const fieldManager = fieldManagerOf(spec.name);
  return async (key, ctx) => {
    if (!(await c.synced())) return;
    const started = c.now();
    const seen = c.firstSeen.get(key);
    c.firstSeen.delete(key);
    if (seen !== undefined) metrics.eventLatency((started - seen) / 1000);
    const p = caches.primary.store.get(key) as KubeObject | undefined;
    if (!p) {
      expectations.forget(key);
      batcher.forget(key);
      return;
    }
    if (!expectations.ready(key, caches.lookup, started)) {
      // Check again soon (a local check, no API call): the writes may show up, or the cache
      // may move past them without an event for this key (e.g. across a relist).
      return { requeueAfterMs: Math.min(expectations.remainingMs(key, started), 250) };
    }
    const reconcileId = c.nextId();
    const log = withFields(c.log, { key, reconcileId });
    const record = (
      result: ReconcileRecord["result"],
      ops: number,
      failure?: { readonly message: string; readonly type: ReconcileErrorType },
    ) => {
      const durationMs = c.now() - started;
      metrics.reconciled(
        result === "skipped" ? "success" : result === "requeue" ? "requeue_after" : result,
        durationMs / 1000,
        failure?.type,
      );
      c.emit({
        controller: spec.name,
        key,
        reconcileId,
        result,
        ops,
        durationMs,
        ...(failure ? { error: failure.message, errorType: failure.type } : {}),
      });
    };
    let planned;
    try {
      planned = spec.reconcile(p as never, c.world, { now: started, fieldManager });
    } catch (e) {
      log.error("reconciler threw", thrown(e));
      metrics.panicked();
      record("error", 0, { message: String(e), type: "panic" });
      throw e;
    }
    if (E.isLeft(planned)) {
      const err = planned.left;
      log.error("reconcile failed", reconcileErrorFields(err));
      record("error", 0, { message: err.message, type: err.type });
      if (err.type === "terminal") {
        await c.events?.record(p, reconcileErrorEvent(err));
        return;
      }
      if (err.requeueAfterMs !== undefined) return { requeueAfterMs: err.requeueAfterMs };
      throw new Error(err.message, err.cause === undefined ? {} : { cause: err.cause });
    }
    // A plan outside the declared writes would need RBAC the manifests do not grant.
    const undeclared = undeclaredWrite(spec.name, spec.writes, planned.right);
    if (undeclared) {
      log.error("plan outside the declared writes", { error: undeclared });
      record("error", 0, { message: undeclared, type: "apply" });
      return;
    }
    const held: { plan: Plan; retryAfterMs?: number } = c.dryRun || spec.deferStatus === false
      ? { plan: planned.right }
      : batcher.decide(key, planned.right, refOf(p), started);
    const plan = held.plan;
    const again = [plan.requeueAfterMs, held.retryAfterMs].filter((x) => x !== undefined);
    const requeueAfterMs = again.length ? Math.min(...again) : undefined;
    // A plan with nothing to write still clears a ReconcileFailed left by an earlier one.
    const write = plan.ops.length > 0 || (!c.dryRun && failedCondition(p));
    if (plan.ops.length > 0 && c.dryRun) {
      log.info("dry run: plan not applied", { plan: formatPlan(plan) });
    } else if (write) {
      if (plan.ops.length > 0) log.info("applying plan", { ops: plan.ops.map((o) => o.type) });
      const step = await applyStep(plan, p, {
        client: c.client,
        fieldManager,
        timeoutMs: c.reconcileTimeoutMs,
        signal: ctx.signal,
        scheduler: c.scheduler,
        now: c.now,
        logger: log,
        events: c.events,
        onConditionsDropped: c.conditionsDropped,
      });
      if (step.outcome) {
        batcher.wrote(step.outcome);
        const deadline = c.now() + c.expectationTimeoutMs;
        // Only caches this controller keeps can show a write; others would wait for nothing.
        const expected = planExpectations(step.outcome, p).filter((e) =>
          caches.stores.has(e.cache)
        );
        expectations.expect(key, expected, deadline);
      }
      switch (step.type) {
        case "applied":
          break;
        case "conflict":
          record("error", plan.ops.length, { message: step.message, type: "apply" });
          return { requeueAfterMs: 0 };
        case "rejected":
          // Retrying the same plan cannot succeed: reported; wait for a change.
          record("error", plan.ops.length, { message: step.message, type: "apply" });
          return;
        case "failed":
          record("error", plan.ops.length, { message: step.error.message, type: "apply" });
          throw step.error;
      }
    }
    record(
      requeueAfterMs !== undefined ? "requeue" : plan.ops.length ? "success" : "skipped",
      plan.ops.length,
    );
    // A held status is written when its window closes (an event for the key may come first).
    return requeueAfterMs !== undefined ? { requeueAfterMs } : undefined;
  };
}
