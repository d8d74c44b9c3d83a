/**
 * The manager: runs several controllers on one set of shared informers, serves `/healthz`,
 * `/readyz` (ready once every informer synced) and `/metrics`, optionally runs only while
 * holding a leader-election Lease, and shuts down gracefully (stop intake, finish in-flight
 * reconciles, release the Lease, close watches).
 *
 * @module
 */
import {
  asyncScheduler,
  type Observable,
  type SchedulerLike,
  Subject,
  type Subscription,
} from "../deps.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import type { KubeObject } from "../core/object.ts";
import { type Logger, silentLogger } from "../core/logger.ts";
import type { Client } from "../client/client_types.ts";
import {
  createInformers,
  type Informer,
  type InformerFactory,
} from "../informer/create_informers.ts";
import type { ControllerSpec } from "../controller/controller_spec.ts";
import { type ReconcileRecord, runController } from "../controller/run_controller.ts";
import {
  type ControllerMetrics,
  createControllerMetrics,
} from "../controller/controller_metrics.ts";
import { createQueueMetrics, type QueueMetricsRecorder } from "../queue/create_queue_metrics.ts";
import { type LeaderElectionOptions, runLeaderElection } from "../leader/run_leader_election.ts";
import { renderPrometheus } from "./prometheus_text.ts";
import { managerMetrics } from "./manager_metrics.ts";
import { createEventRecorder } from "../apply/event_recorder.ts";
import { type HealthServer, serveHealth } from "./health_server.ts";
import type { Webhook } from "../webhook/webhook_spec.ts";
import {
  serveWebhooks,
  type WebhookServer,
  type WebhookServerOptions,
} from "../webhook/serve_webhooks.ts";

/** Options of {@link startManager}. */
export interface ManagerOptions {
  /** The client every controller, informer, event recorder and the Lease use. */
  readonly client: Client;
  /** The controllers to run (specs of any primary and world type). */
  readonly controllers: readonly ControllerSpec<HasMetadata, unknown>[];
  /** Structured logs of the manager, its controllers and informers. Default: none. */
  readonly logger?: Logger;
  /** Serve `/healthz`, `/readyz`, `/metrics` on this port (0: any free port; default: none). */
  readonly healthPort?: number;
  /** Address the health server binds (default `127.0.0.1`; a pod's IP or `0.0.0.0` in a pod). */
  readonly healthHostname?: string;
  /** Stop gracefully on SIGINT/SIGTERM (default false). */
  readonly handleSignals?: boolean;
  /**
   * Clock and timers of everything the manager runs: the controllers' queues, resyncs, apply
   * timeouts and status batching, the informers' backoff, the event recorder and leader
   * election. Default `asyncScheduler`.
   */
  readonly scheduler?: SchedulerLike;
  /** Clock (epoch ms). Default `scheduler.now()`. */
  readonly now?: () => number;
  /**
   * Run controllers only while holding this Lease (one active replica). Losing it stops the
   * controllers and rejects `done` ("leader election lost"), as controller-runtime does.
   */
  readonly leaderElection?: Omit<LeaderElectionOptions, "stop$" | "logger">;
  /** Log plans instead of applying them. */
  readonly dryRun?: boolean;
  /** This replica's name in events (`reportingInstance`); default `<hostname>-<pid>`. */
  readonly identity?: string;
  /**
   * Applied to every object before the manager's informers cache it, unless an informer asks
   * for its own transform; e.g. `stripManagedFields` (default: none, objects kept as served).
   */
  readonly defaultTransform?: (object: KubeObject) => KubeObject;
  /**
   * Admission and conversion webhooks to serve over HTTPS (see `webhooks()`), on every
   * replica whether or not it leads, from before the controllers start until they stopped.
   */
  readonly webhooks?: readonly Webhook[];
  /** The webhook server: port (default 9443), certificates, budget (see `serveWebhooks`). */
  readonly webhookServer?: WebhookServerOptions;
  /**
   * Called once the webhook server listens and before any informer starts, e.g. to register
   * the webhooks with the cluster when the manager runs outside it (`installWebhooks` with the
   * server's URL and CA): informers of converted kinds then list through the webhook. A
   * rejection closes the server and fails `startManager`.
   */
  readonly onWebhookServer?: (server: WebhookServer) => Promise<void>;
}

function defaultIdentity(): string {
  try {
    return `${Deno.hostname()}-${Deno.pid}`;
  } catch {
    return `kubefold-${Deno.pid}`;
  }
}

/** A running manager. */
export interface Manager {
  /** Resolves once the controllers run and every informer has synced. */
  readonly ready: Promise<void>;
  /** Base URL of the health/metrics server, when one runs. */
  readonly healthUrl?: string;
  /** The webhook server, when the manager serves webhooks. */
  readonly webhookServer?: WebhookServer;
  /** Every reconcile of every controller. */
  readonly records$: Observable<ReconcileRecord>;
  /** The metrics in Prometheus text format. */
  metricsText(): string;
  /** Whether this replica runs the controllers (always true without leader election). */
  isLeader(): boolean;
  /** Stops intake, waits for in-flight reconciles, releases the Lease, closes watches. */
  stop(): Promise<void>;
  /** Resolves when the manager has stopped; rejects when it lost leader election. */
  readonly done: Promise<void>;
}

// Cached objects are immutable: serialize each one once for the bytes-held metric, not on
// every scrape.
const sizes = new WeakMap<object, number>();
function jsonSize(obj: object): number {
  let n = sizes.get(obj);
  if (n === undefined) sizes.set(obj, n = JSON.stringify(obj).length);
  return n;
}

interface Tracked {
  readonly resource: string;
  readonly informer: Informer<KubeObject>;
  last?: number;
}

/**
 * Starts controllers on shared informers.
 *
 * @example
 * ```ts ignore
 * import { startManager } from "../../mod.ts";
 * const manager = await startManager({ client, controllers: [podSetController], healthPort: 0 });
 * await manager.ready;
 * await manager.stop();
 * ```
 */
export async function startManager(options: ManagerOptions): Promise<Manager> {
  const log = options.logger ?? silentLogger;
  // Served first: informers of converted resources list through the conversion webhook.
  const webhookServer = options.webhooks?.length
    ? await serveWebhooks(options.webhooks, { logger: log, ...options.webhookServer })
    : undefined;
  if (webhookServer && options.onWebhookServer) {
    try {
      await options.onWebhookServer(webhookServer);
    } catch (e) {
      await webhookServer.close();
      throw e;
    }
  }
  const scheduler = options.scheduler ?? asyncScheduler;
  const now = options.now ?? (() => scheduler.now());
  const base = createInformers(options.client, { scheduler, logger: log });
  const tracked: Tracked[] = [];
  const subs: Subscription[] = [];
  const factory: InformerFactory = {
    informer(resource, o) {
      const t = options.defaultTransform;
      const inf = base.informer(resource, t && !o?.transform ? { ...o, transform: t as never } : o);
      if (!tracked.some((m) => m.informer === (inf as unknown))) {
        const entry: Tracked = {
          resource: "plural" in resource
            ? resource.plural
            : `${resource.apiVersion}/${resource.kind}`,
          informer: inf as unknown as Informer<KubeObject>,
        };
        tracked.push(entry);
        subs.push(
          inf.deltas$.subscribe({ next: () => void (entry.last = now()), error: () => {} }),
        );
      }
      return inf;
    },
    get size() {
      return base.size;
    },
  };
  const stop$ = new Subject<void>();
  const records$ = new Subject<ReconcileRecord>();
  const reports: { name: string; reconcile: ControllerMetrics; queue: QueueMetricsRecorder }[] = [];
  const running: Promise<void>[] = [];
  const instance = options.identity ?? defaultIdentity();

  const startControllers = () => {
    for (const spec of options.controllers) {
      const reconcile = createControllerMetrics();
      const queue = createQueueMetrics({ scheduler });
      reports.push({ name: spec.name, reconcile, queue });
      const { promise, resolve } = Promise.withResolvers<void>();
      const events = createEventRecorder(options.client, {
        controller: `kubefold-${spec.name}`,
        instance,
        logger: log,
        scheduler,
      });
      subs.push(
        runController(spec, {
          events,
          client: options.client,
          informers: factory,
          logger: log,
          stop$,
          scheduler,
          now,
          metrics: reconcile,
          queueMetrics: queue,
          ...(options.dryRun ? { dryRun: true } : {}),
        }).subscribe({
          next: (r) => records$.next(r),
          error: (e) => {
            log.error("controller stopped with an error", { controller: spec.name, error: e });
            resolve();
          },
          complete: () => resolve(),
        }),
      );
      running.push(promise);
    }
  };
  const whenSynced = async () => {
    await Promise.all(tracked.map((m) =>
      new Promise<void>((resolve) => {
        const s = m.informer.synced$.subscribe(() => {
          resolve();
          queueMicrotask(() => s.unsubscribe());
        });
      })
    ));
    log.info("informers synced", { informers: tracked.map((m) => m.resource) });
  };

  const { promise: done, resolve: resolveDone, reject: rejectDone } = Promise.withResolvers<void>();
  done.catch(() => {});
  const electionStop$ = new Subject<void>();
  let electionDone = Promise.resolve();
  let leading = !options.leaderElection;
  let ready: Promise<void>;
  const election = options.leaderElection;
  if (!election) {
    startControllers();
    ready = whenSynced();
  } else {
    const { promise: leadingNow, resolve: becameLeader } = Promise.withResolvers<void>();
    const { promise: ended, resolve: endElection } = Promise.withResolvers<void>();
    electionDone = ended;
    subs.push(
      runLeaderElection(options.client, {
        scheduler,
        ...election,
        stop$: electionStop$,
        logger: log,
      })
        .subscribe({
          next: (isLeader) => {
            if (isLeader && !leading) {
              leading = true;
              log.info("became leader", { lease: election.name });
              startControllers();
              becameLeader();
            } else if (!isLeader && leading) {
              leading = false;
              log.error("leader election lost: stopping controllers", { lease: election.name });
              void stop(new Error("leader election lost"));
            }
          },
          error: (e) => {
            log.error("leader election failed", { error: e });
            endElection();
          },
          complete: () => endElection(),
        }),
    );
    ready = leadingNow.then(whenSynced);
  }
  let synced = false;
  ready.then(() => (synced = true), () => {});
  const notReady = (): string[] => {
    if (synced) return [];
    // A standby replica (leader election, not leading) is ready to take over.
    if (!leading) return stopping ? ["stopping"] : [];
    const waiting = tracked.filter((m) => !m.informer.hasSynced());
    return waiting.length === 0 ? ["starting"] : waiting.map((m) => {
      const why = m.informer.lastError();
      return `informer ${m.resource} not synced${why ? `: ${why}` : ""}`;
    });
  };

  const metricsText = () =>
    renderPrometheus([
      ...managerMetrics(
        reports.map((r) => ({
          name: r.name,
          reconcile: r.reconcile.snapshot(),
          queue: r.queue.snapshot(),
        })),
        tracked.map((m) => {
          let bytes = 0;
          for (const o of m.informer.store.list()) bytes += jsonSize(o);
          return {
            resource: m.resource,
            objects: m.informer.store.size,
            bytes,
            lagSeconds: m.last === undefined ? undefined : (now() - m.last) / 1000,
          };
        }),
        election ? { name: election.name, isLeader: leading } : undefined,
      ),
      ...(webhookServer?.metrics.families() ?? []),
    ]);
  let stopping: Promise<void> | undefined;
  let health: HealthServer | undefined;
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  const onSignal = () => void stop();
  // Before the first await: a signal once the controllers run stops them gracefully.
  if (options.handleSignals) { for (const s of signals) Deno.addSignalListener(s, onSignal); }
  health = options.healthPort === undefined ? undefined : await serveHealth(
    options.healthPort,
    { notReady, metrics: metricsText },
    options.healthHostname,
  );
  if (stopping) {
    // Stopped while the health server started: close it here (stop() saw none).
    const started = health;
    health = undefined;
    await started?.close();
  }

  function stop(reason?: Error): Promise<void> {
    stopping ??= (async () => {
      log.info("stopping: finishing in-flight reconciles");
      stop$.next();
      await Promise.all(running);
      // Release the lease only after in-flight work is done: no two replicas act at once.
      electionStop$.next();
      await electionDone;
      for (const s of subs) s.unsubscribe();
      records$.complete();
      await webhookServer?.close();
      await health?.close();
      if (options.handleSignals) {
        for (const s of signals) {
          Deno.removeSignalListener(s, onSignal);
        }
      }
      log.info("stopped");
      if (reason) rejectDone(reason);
      else resolveDone();
    })();
    return stopping;
  }
  return {
    ready,
    healthUrl: health?.url,
    ...(webhookServer ? { webhookServer } : {}),
    records$,
    metricsText,
    isLeader: () => leading,
    stop: () => stop(),
    done,
  };
}
