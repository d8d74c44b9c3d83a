/**
 * Runs a controller: informer deltas become keys, keys go through the workqueue, each key is
 * reconciled by the pure reconciler against the cache, and the plan is applied. A key waits
 * for its own last writes to show in the cache before it is reconciled again.
 *
 * @module
 */
import {
  asyncScheduler,
  combineLatest,
  firstValueFrom,
  Observable,
  type SchedulerLike,
  Subject,
  takeUntil,
} from "../deps.ts";
import type { ObjectKey } from "../core/key.ts";
import type { KubeObject } from "../core/object.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import { type Logger, silentLogger, withFields } from "../core/logger.ts";
import type { Client } from "../client/client_types.ts";
import type { InformerFactory } from "../informer/create_informers.ts";
import { workqueue } from "../queue/workqueue.ts";
import { createQueueMetrics, type QueueMetricsRecorder } from "../queue/create_queue_metrics.ts";
import type { QueueInput } from "../queue/run_outcome.ts";
import type { EventRecorder } from "../apply/event_recorder.ts";
import { statusBatcher } from "../apply/status_batcher.ts";
import { Expectations } from "../apply/expectations.ts";
import { type ControllerSpec, DEFAULT_CONCURRENCY } from "./controller_spec.ts";
import { controllerCaches } from "./controller_caches.ts";
import { controllerKeys } from "./controller_keys.ts";
import { type ControllerMetrics, createControllerMetrics } from "./controller_metrics.ts";
import { reconcileKey, type ReconcileRecord } from "./reconcile_key.ts";

export type { ReconcileRecord } from "./reconcile_key.ts";

/** What a running controller needs; every option but `client` and `informers` has a default. */
export interface ControllerDeps {
  /** Writes plans and events. */
  readonly client: Client;
  /** The shared informers the controller's caches come from. */
  readonly informers: InformerFactory;
  /** Structured logs (`controller`, `key`, `reconcileId` fields). Default: none. */
  readonly logger?: Logger;
  /** Completes intake: no new keys; in-flight reconciles finish, then the run completes. */
  readonly stop$?: Observable<unknown>;
  /**
   * Clock and timers of the whole controller: queue delays and retries, resyncs, the apply
   * timeout, status batching and expectation re-checks. Give a test a virtual-time scheduler
   * (the `testing` entry point's `virtualTime()` or `createTestApi().clock`) and nothing waits
   * for wall-clock time. Default `asyncScheduler`.
   */
  readonly scheduler?: SchedulerLike;
  /** Clock (epoch ms) of timestamps and expectations. Default `scheduler.now()`. */
  readonly now?: () => number;
  /** How long a key waits for its own writes to show in the cache. Default 30,000 ms. */
  readonly expectationTimeoutMs?: number;
  /** Receives reconcile metrics. Default: a fresh recorder. */
  readonly metrics?: ControllerMetrics;
  /** Receives workqueue metrics. Default: a fresh recorder. */
  readonly queueMetrics?: QueueMetricsRecorder;
  /** Log each plan as a readable diff (`formatPlan`) instead of applying it. Default false. */
  readonly dryRun?: boolean;
  /** Records events about primaries: `SuccessfulCreate`, `FailedCreate`, ..., the plans'
   * event ops and terminal errors. Default: none. */
  readonly events?: EventRecorder;
  /** Applying a plan that takes longer is cancelled and retried. Default 30,000 ms. */
  readonly reconcileTimeoutMs?: number;
}

/**
 * Runs a controller and emits a record per reconcile, as a cold Observable: nothing starts
 * before it is subscribed, each subscription is a run of its own (its own queue, expectations,
 * status windows and counters, sharing only the informers), and unsubscribing stops it.
 * `stop$` stops intake; the run completes once the reconciles in flight have finished.
 *
 * Every timer goes through `deps.scheduler`, so a whole controller runs on virtual time in
 * tests (see `createTestApi()` in the `testing` entry point).
 *
 * Like controller-runtime's `Controller.Start`, but the run is an Observable of what it did.
 *
 * @param spec the controller
 * @param deps client, informers, scheduler and the rest of {@link ControllerDeps}
 * @returns the reconcile records
 * @example
 * ```ts
 * import { controller, createInformers, E, runController } from "../../mod.ts";
 * import { createTestApi } from "../testing/mod.ts";
 * using api = createTestApi();
 * const { scheduler } = api.clock;
 * const client = api.client();
 * const spec = controller({
 *   name: "noop",
 *   for: { apiVersion: "v1", kind: "ConfigMap" },
 *   reconcile: () => E.right({ ops: [] }),
 * });
 * const keys: string[] = [];
 * const sub = runController(spec, { client, informers: createInformers(client, { scheduler }), scheduler })
 *   .subscribe((r) => keys.push(r.key));
 * await client.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { namespace: "default", name: "a" } });
 * await api.clock.advanceUntil(() => keys.length > 0);
 * keys; // ["default/a"]
 * sub.unsubscribe();
 * ```
 */
export function runController<P extends HasMetadata, W>(
  spec: ControllerSpec<P, W>,
  deps: ControllerDeps,
): Observable<ReconcileRecord> {
  return new Observable<ReconcileRecord>((subscriber) => {
    const scheduler = deps.scheduler ?? asyncScheduler;
    const now = deps.now ?? (() => scheduler.now());
    const log = withFields(deps.logger ?? silentLogger, { controller: spec.name });
    const caches = controllerCaches(spec, deps.informers);
    const woken = new Subject<ObjectKey>();
    const batcher = statusBatcher({
      batchMs: spec.statusBatchMs ?? 100,
      cacheRv: (cache) => caches.stores.get(cache)?.resourceVersion,
      wake: (key) => woken.next(key),
    });
    const firstSeen = new Map<ObjectKey, number>();
    let counter = 0;
    // A stop before the caches synced must not leave a reconcile waiting for them forever.
    const { promise: stopped, resolve: stop } = Promise.withResolvers<false>();
    const stopSub = deps.stop$?.subscribe({ next: () => stop(false), complete: () => stop(false) });
    let syncedOnce: Promise<boolean> | undefined;
    const synced = () =>
      syncedOnce ??= Promise.race([
        firstValueFrom(combineLatest(caches.all.map((i) => i.informer.synced$))).then(() => true),
        stopped,
      ]);
    const warned = new Set<string>();
    const conditionsDropped = (primary: KubeObject) => {
      const kind = `${primary.apiVersion}/${primary.kind}`;
      if (warned.has(kind)) return;
      warned.add(kind);
      void deps.client.resolve({ apiVersion: primary.apiVersion ?? "", kind: primary.kind ?? "" })
        .then((r) => {
          const crd = r._tag === "Right"
            ? `${r.right.plural}${r.right.group ? `.${r.right.group}` : ""}`
            : kind;
          log.warn(
            `Cannot keep the ReconcileFailed condition: the CRD ${crd} has no status.conditions ` +
              "in its schema (the rest of the status is written)",
            { crd },
          );
        });
    };
    const tag = (keys: readonly ObjectKey[]): QueueInput[] => {
      const t = now();
      const priority = caches.primary.hasSynced() ? "live" as const : "initial" as const;
      return keys.map((key) => {
        if (!firstSeen.has(key)) firstSeen.set(key, t);
        return { key, priority };
      });
    };
    const metrics = deps.metrics ?? createControllerMetrics();
    const concurrency = spec.concurrency ?? DEFAULT_CONCURRENCY;
    metrics.maxConcurrentReconciles(concurrency);
    const reconcileOne = reconcileKey({
      spec,
      caches,
      // Without spec.world, W is CacheView (its default): the identity is sound (one cast).
      world: spec.world ? spec.world(caches.view) : caches.view as W,
      client: deps.client,
      scheduler,
      now,
      log,
      metrics,
      expectations: new Expectations(),
      batcher,
      firstSeen,
      synced,
      emit: (r) => subscriber.next(r),
      nextId: () => `${spec.name}-${(++counter).toString(36)}`,
      ...(deps.events ? { events: deps.events } : {}),
      dryRun: deps.dryRun ?? false,
      expectationTimeoutMs: deps.expectationTimeoutMs ?? 30_000,
      reconcileTimeoutMs: deps.reconcileTimeoutMs ?? 30_000,
      conditionsDropped,
    });
    const process: typeof reconcileOne = async (key, ctx) => {
      metrics.workers(1);
      try {
        return await reconcileOne(key, ctx);
      } finally {
        metrics.workers(-1);
      }
    };
    const keys$ = controllerKeys(spec, caches, {
      tag,
      woken$: woken,
      cacheAdvanced: () => batcher.cacheAdvanced(),
      scheduler,
    });
    const runs = (deps.stop$ ? keys$.pipe(takeUntil(deps.stop$)) : keys$).pipe(
      workqueue(process, {
        concurrency,
        metrics: deps.queueMetrics ?? createQueueMetrics({ scheduler }),
        drain: "none",
        scheduler,
      }),
    ).subscribe({
      error: (e) => subscriber.error(e),
      complete: () => subscriber.complete(),
    });
    return () => {
      runs.unsubscribe();
      stopSub?.unsubscribe();
      stop(false);
    };
  });
}
