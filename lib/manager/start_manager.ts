/**
 * The manager: runs several controllers on one set of shared informers, serves `/healthz`,
 * `/readyz` (ready once every informer synced) and `/metrics`, optionally runs only while
 * holding a leader-election Lease, and shuts down gracefully (stop intake, finish in-flight
 * reconciles, release the Lease, close watches).
 *
 * @module
 */
import { asyncScheduler, Subject, type Subscription } from "../deps.ts";
import { silentLogger } from "../core/logger.ts";
import { createInformers } from "../informer/create_informers.ts";
import { type ReconcileRecord, runController } from "../controller/run_controller.ts";
import {
  type ControllerMetrics,
  createControllerMetrics,
} from "../controller/controller_metrics.ts";
import { createQueueMetrics, type QueueMetricsRecorder } from "../queue/create_queue_metrics.ts";
import { runLeaderElection } from "../leader/run_leader_election.ts";
import { renderPrometheus } from "./prometheus_text.ts";
import { managerMetrics } from "./manager_metrics.ts";
import { createEventRecorder, type EventRecorder } from "../apply/event_recorder.ts";
import { type HealthServer, serveHealth } from "./health_server.ts";
import type { Manager, ManagerOptions } from "./manager_types.ts";
import { trackInformers } from "./tracked_informers.ts";

function defaultIdentity(): string {
  try {
    return `${Deno.hostname()}-${Deno.pid}`;
  } catch {
    return `kubefold-${Deno.pid}`;
  }
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
  // The webhook server (TLS, certificates) loads only for a manager that serves webhooks.
  const webhookServer = options.webhooks?.length
    ? await (await import("../webhook/serve_webhooks.ts")).serveWebhooks(options.webhooks, {
      logger: log,
      ...options.webhookServer,
    })
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
  const informers = trackInformers(
    createInformers(options.client, { scheduler, logger: log }),
    { now, defaultTransform: options.defaultTransform },
  );
  const subs: Subscription[] = [];
  const stop$ = new Subject<void>();
  const records$ = new Subject<ReconcileRecord>();
  const reports: { name: string; reconcile: ControllerMetrics; queue: QueueMetricsRecorder }[] = [];
  const running: Promise<void>[] = [];
  const instance = options.identity ?? defaultIdentity();

  const recorders: EventRecorder[] = [];
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
      recorders.push(events);
      subs.push(
        runController(spec, {
          events,
          client: options.client,
          informers: informers.factory,
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
    log.info("informers synced", { informers: await informers.whenSynced() });
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
    const waiting = informers.unsynced();
    return waiting.length === 0 ? ["starting"] : waiting;
  };

  const metricsText = () =>
    renderPrometheus([
      ...managerMetrics(
        reports.map((r) => ({
          name: r.name,
          reconcile: r.reconcile.snapshot(),
          queue: r.queue.snapshot(),
        })),
        informers.reports(),
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
      // Events recorded in the background are written before the client may go.
      await Promise.all(recorders.map((r) => r.flush()));
      // Release the lease only after in-flight work is done: no two replicas act at once.
      electionStop$.next();
      await electionDone;
      for (const s of subs) s.unsubscribe();
      informers.close();
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
