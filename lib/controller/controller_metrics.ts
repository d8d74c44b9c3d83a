/**
 * Per-controller reconcile metrics, named as controller-runtime names them.
 *
 * @module
 */
import { createHistogram, type Histogram } from "../core/histogram.ts";

/** Reconcile results counted by `controller_runtime_reconcile_total{result}`. */
export type ReconcileResult = "success" | "error" | "requeue" | "requeue_after";

/**
 * Why a reconcile failed: a reconciler's `transient` or `terminal` `ReconcileError`, a
 * reconciler that threw (`panic`), or writes that failed (`apply`).
 */
export type ReconcileErrorType = "transient" | "terminal" | "panic" | "apply";

/** A snapshot of one controller's reconcile metrics. */
export interface ControllerMetricsSnapshot {
  /** Reconciles by result (`controller_runtime_reconcile_total`). */
  readonly reconcileTotal: Readonly<Record<ReconcileResult, number>>;
  /** Failed reconciles (`controller_runtime_reconcile_errors_total`). */
  readonly reconcileErrorsTotal: number;
  /** Failed reconciles by why they failed. */
  readonly reconcileErrorsByType: Readonly<Record<ReconcileErrorType, number>>;
  /** Reconcile durations (`controller_runtime_reconcile_time_seconds`). */
  readonly reconcileTimeSeconds: Histogram;
  /** From the first event that enqueued a key to the start of its reconcile. */
  readonly eventToReconcileSeconds: Histogram;
  /** Reconciles that threw (controller-runtime's panics), also counted as errors. */
  readonly reconcilePanicsTotal: number;
  /** Workers busy with a key right now. */
  readonly activeWorkers: number;
  /** The controller's concurrency (how many keys it reconciles at once). */
  readonly maxConcurrentReconciles: number;
}

/** Records reconcile metrics. */
export interface ControllerMetrics {
  /** Counts one reconcile, and why it failed when `result` is `error`. */
  reconciled(result: ReconcileResult, seconds: number, errorType?: ReconcileErrorType): void;
  /** Records the time from a key's first event to its reconcile. */
  eventLatency(seconds: number): void;
  /** A reconciler threw instead of returning a plan or an error value. */
  panicked(): void;
  /** A worker took a key (`+1`) or finished it (`-1`). */
  workers(delta: 1 | -1): void;
  /** Records the controller's concurrency. */
  maxConcurrentReconciles(n: number): void;
  /** The metrics so far. */
  snapshot(): ControllerMetricsSnapshot;
}

/**
 * Creates a recorder.
 *
 * @example
 * ```ts
 * import { createControllerMetrics } from "../../mod.ts";
 * const m = createControllerMetrics();
 * m.reconciled("success", 0.01);
 * m.snapshot().reconcileTotal.success; // 1
 * ```
 */
export function createControllerMetrics(): ControllerMetrics {
  const totals: Record<ReconcileResult, number> = {
    success: 0,
    error: 0,
    requeue: 0,
    requeue_after: 0,
  };
  const byType: Record<ReconcileErrorType, number> = {
    transient: 0,
    terminal: 0,
    panic: 0,
    apply: 0,
  };
  const time = createHistogram();
  const latency = createHistogram();
  let panics = 0, active = 0, maxConcurrent = 1;
  return {
    reconciled(result, seconds, errorType) {
      totals[result]++;
      if (result === "error") byType[errorType ?? "transient"]++;
      time.observe(seconds);
    },
    eventLatency: (s) => latency.observe(s),
    panicked: () => void panics++,
    workers: (delta) => void (active += delta),
    maxConcurrentReconciles: (n) => void (maxConcurrent = n),
    snapshot: () => ({
      reconcileTotal: { ...totals },
      reconcileErrorsTotal: totals.error,
      reconcileErrorsByType: { ...byType },
      reconcileTimeSeconds: time.read(),
      eventToReconcileSeconds: latency.read(),
      reconcilePanicsTotal: panics,
      activeWorkers: active,
      maxConcurrentReconciles: maxConcurrent,
    }),
  };
}
