/**
 * Runs a controller: informer deltas become keys, keys go through the workqueue, each key is
 * reconciled by the pure reconciler against the cache, and the plan is applied. A key waits
 * for its own last writes to show in the cache before it is reconciled again.
 *
 * @module
 */
import {
  combineLatest,
  E,
  EMPTY,
  firstValueFrom,
  merge,
  mergeMap,
  Observable,
  Subject,
  takeUntil,
  tap,
  timer,
} from "../deps.ts";
import { apiGroupOf, type KubeObject } from "../core/object.ts";
import type { ObjectKey } from "../core/key.ts";
import { type Logger, silentLogger, withFields } from "../core/logger.ts";
import type { Client } from "../client/client_types.ts";
import type { InformerFactory } from "../informer/create_informers.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import { workqueue } from "../queue/workqueue.ts";
import { createQueueMetrics, type QueueMetricsRecorder } from "../queue/create_queue_metrics.ts";
import type { QueueInput } from "../queue/run_outcome.ts";
import type { EventRecorder } from "../apply/event_recorder.ts";
import { applyStep } from "../apply/apply_step.ts";
import { statusBatcher } from "../apply/status_batcher.ts";
import { refOf } from "../reconcile/op.ts";
import type { Plan } from "../reconcile/plan.ts";
import { formatPlan } from "../apply/format_plan.ts";
import type { CacheView, ControllerSpec } from "./controller_spec.ts";
import { ownerKeys, primaryKeys } from "./triggers.ts";
import { undeclaredWrite } from "./check_writes.ts";
import { Expectations } from "../apply/expectations.ts";
import { controllerCaches } from "./controller_caches.ts";
import { planExpectations } from "../apply/plan_expectations.ts";
import { type ControllerMetrics, createControllerMetrics } from "./controller_metrics.ts";

/** One reconcile, as reported to the caller (and logged). */
export interface ReconcileRecord {
  readonly controller: string;
  readonly key: ObjectKey;
  readonly reconcileId: string;
  readonly result: "success" | "error" | "requeue" | "skipped";
  readonly ops: number;
  readonly durationMs: number;
  readonly error?: string;
}

/** What a running controller needs. */
export interface ControllerDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly logger?: Logger;
  /** Completes intake: no new keys; in-flight reconciles finish. */
  readonly stop$?: Observable<unknown>;
  readonly now?: () => number;
  /** How long a key waits for its own writes to show in the cache (default 30 s). */
  readonly expectationTimeoutMs?: number;
  readonly metrics?: ControllerMetrics;
  readonly queueMetrics?: QueueMetricsRecorder;
  /** Log each plan as a readable diff (`formatPlan`) instead of applying it. */
  readonly dryRun?: boolean;
  /** Records Warning events when the server rejects a plan's op. */
  readonly events?: EventRecorder;
  /** Applying a plan that takes longer is cancelled and retried (default 30 s). */
  readonly reconcileTimeoutMs?: number;
}

let reconcileCounter = 0;

/**
 * Runs a controller until unsubscribed (or `stop$` fires and in-flight work finished); emits a
 * record per reconcile.
 *
 * @example
 * ```ts ignore
 * import { runController } from "../../mod.ts";
 * runController(spec, { client, informers }).subscribe((r) => console.log(r.key, r.result));
 * ```
 */
export function runController<P extends HasMetadata, W>(
  spec: ControllerSpec<P, W>,
  deps: ControllerDeps,
): Observable<ReconcileRecord> {
  const log = withFields(deps.logger ?? silentLogger, { controller: spec.name });
  const now = deps.now ?? Date.now;
  const metrics = deps.metrics ?? createControllerMetrics();
  const queueMetrics = deps.queueMetrics ?? createQueueMetrics();
  const { primary, owned, watched, stores, view, lookup } = controllerCaches(spec, deps.informers);
  const world = (spec.world ?? ((c: CacheView) => c as unknown as W))(view);
  const expectations = new Expectations();
  const woken = new Subject<ObjectKey>();
  const batcher = statusBatcher({
    batchMs: spec.statusBatchMs ?? 100,
    cacheRv: (cache) => stores.get(cache)?.resourceVersion,
    wake: (key) => woken.next(key),
  });
  const firstSeen = new Map<ObjectKey, number>();
  const records = new Subject<ReconcileRecord>();
  const ownerGroup = apiGroupOf(spec.for.apiVersion);
  const all = [primary, ...owned.map((o) => o.informer), ...watched.map((x) => x.informer)];
  let isSynced = false;
  const synced = firstValueFrom(combineLatest(all.map((i) => i.synced$))).then(() => {
    isSynced = true;
  });
  // A stop before the caches synced must not leave a reconcile waiting for them forever.
  const stopped = new Promise<void>((resolve) => {
    deps.stop$?.subscribe({ next: () => resolve(), complete: () => resolve() });
  });

  const tag = (keys: readonly ObjectKey[]): QueueInput[] => {
    const t = now();
    const priority = primary.hasSynced() ? "live" as const : "initial" as const;
    return keys.map((key) => {
      if (!firstSeen.has(key)) firstSeen.set(key, t);
      return { key, priority };
    });
  };
  const keys$ = merge(
    primary.deltas$.pipe(mergeMap((d) => tag(primaryKeys(d, spec.filter)))),
    ...owned.map((o) =>
      o.informer.deltas$.pipe(
        tap(() => batcher.cacheAdvanced()),
        mergeMap((d) => tag(ownerKeys(d, ownerGroup, spec.for.kind))),
      )
    ),
    ...watched.map((x) =>
      x.informer.deltas$.pipe(
        tap(() => batcher.cacheAdvanced()),
        mergeMap((d) => tag(d.type === "Synced" ? [] : x.w.keys(d.object))),
      )
    ),
    woken.pipe(mergeMap((key) => tag([key]))),
    spec.resyncMs
      ? timer(spec.resyncMs, spec.resyncMs).pipe(
        mergeMap(() => primary.store.keys().map((key) => ({ key, priority: "initial" as const }))),
      )
      : EMPTY,
  ).pipe(deps.stop$ ? takeUntil(deps.stop$) : (s) => s);

  const concurrency = spec.concurrency ?? 1;
  metrics.maxConcurrentReconciles(concurrency);
  const process = async (key: ObjectKey, ctx: { signal: AbortSignal }) => {
    metrics.workers(1);
    try {
      return await processKey(key, ctx);
    } finally {
      metrics.workers(-1);
    }
  };
  const processKey = async (key: ObjectKey, ctx: { signal: AbortSignal }) => {
    await Promise.race([synced, stopped]);
    if (!isSynced) return;
    const started = now();
    const seen = firstSeen.get(key);
    firstSeen.delete(key);
    if (seen !== undefined) metrics.eventLatency((started - seen) / 1000);
    const p = primary.store.get(key) as KubeObject | undefined;
    if (!p) {
      expectations.forget(key);
      batcher.forget(key);
      return;
    }
    if (!expectations.ready(key, lookup, started)) {
      // Check again soon (a local check, no API call): the writes may show up, or the cache
      // may move past them without an event for this key (e.g. across a relist).
      return { requeueAfterMs: Math.min(expectations.remainingMs(key, started), 250) };
    }
    const reconcileId = `${spec.name}-${(++reconcileCounter).toString(36)}`;
    const rlog = withFields(log, { key, reconcileId });
    const record = (result: ReconcileRecord["result"], ops: number, error?: string) => {
      const durationMs = now() - started;
      metrics.reconciled(
        result === "skipped" ? "success" : result === "requeue" ? "requeue_after" : result,
        durationMs / 1000,
      );
      records.next({
        controller: spec.name,
        key,
        reconcileId,
        result,
        ops,
        durationMs,
        ...(error ? { error } : {}),
      });
    };
    let planned;
    try {
      planned = spec.reconcile(p as never, world, { now: started });
    } catch (e) {
      rlog.error("reconciler threw", { error: e });
      metrics.panicked();
      record("error", 0, String(e));
      throw e;
    }
    if (E.isLeft(planned)) {
      const err = planned.left;
      rlog.error("reconcile failed", { error: err.message, type: err.type });
      record("error", 0, err.message);
      if (err.type === "terminal") return;
      if (err.requeueAfterMs !== undefined) return { requeueAfterMs: err.requeueAfterMs };
      throw new Error(err.message);
    }
    // A plan outside the declared writes would need RBAC the manifests do not grant.
    const undeclared = undeclaredWrite(spec.name, spec.writes, planned.right);
    if (undeclared) {
      rlog.error("plan outside the declared writes", { error: undeclared });
      record("error", 0, undeclared);
      return;
    }
    const held: { plan: Plan; retryAfterMs?: number } = deps.dryRun || spec.deferStatus === false
      ? { plan: planned.right }
      : batcher.decide(key, planned.right, refOf(p), started);
    const plan = held.plan;
    const again = [plan.requeueAfterMs, held.retryAfterMs].filter((x) => x !== undefined);
    const requeueAfterMs = again.length ? Math.min(...again) : undefined;
    if (plan.ops.length > 0 && deps.dryRun) {
      rlog.info("dry run: plan not applied", { plan: formatPlan(plan) });
    } else if (plan.ops.length > 0) {
      rlog.info("applying plan", { ops: plan.ops.map((o) => o.type) });
      const step = await applyStep(plan, p, {
        client: deps.client,
        fieldManager: `kubefold-${spec.name}`,
        timeoutMs: deps.reconcileTimeoutMs ?? 30_000,
        signal: ctx.signal,
        now,
        logger: rlog,
        events: deps.events,
      });
      if (step.outcome) {
        batcher.wrote(step.outcome);
        const deadline = now() + (deps.expectationTimeoutMs ?? 30_000);
        // Only caches this controller keeps can show a write; others would wait for nothing.
        const expected = planExpectations(step.outcome, p).filter((e) => stores.has(e.cache));
        expectations.expect(key, expected, deadline);
      }
      switch (step.type) {
        case "applied":
          break;
        case "conflict":
          record("error", plan.ops.length, step.message);
          return { requeueAfterMs: 0 };
        case "rejected":
          // Retrying the same plan cannot succeed: reported; wait for a change.
          record("error", plan.ops.length, step.message);
          return;
        case "failed":
          record("error", plan.ops.length, step.error.message);
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

  const runs$ = keys$.pipe(
    workqueue(process, {
      concurrency,
      metrics: queueMetrics,
      drain: "none",
    }),
  );
  return new Observable<ReconcileRecord>((subscriber) => {
    const fromRecords = records.subscribe((r) => subscriber.next(r));
    const fromRuns = runs$.subscribe({
      error: (e) => subscriber.error(e),
      complete: () => subscriber.complete(),
    });
    return () => {
      fromRuns.unsubscribe();
      fromRecords.unsubscribe();
    };
  });
}
