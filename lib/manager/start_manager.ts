/**
 * The manager: runs several controllers on one set of shared informers, serves `/healthz`,
 * `/readyz` (ready once every informer synced) and `/metrics`, and shuts down gracefully (stop
 * intake, finish in-flight reconciles, close watches).
 *
 * @module
 */
import { type Observable, Subject, type Subscription } from "../deps.ts";
import type { KubeObject } from "../core/object.ts";
import { type Logger, silentLogger } from "../core/logger.ts";
import type { Client } from "../client/client_types.ts";
import { type Informer, type InformerFactory, informers } from "../informer/informers.ts";
import type { ControllerSpec } from "../controller/controller_spec.ts";
import { type ReconcileRecord, runController } from "../controller/run_controller.ts";
import { createControllerMetrics } from "../controller/controller_metrics.ts";
import { createQueueMetrics } from "../queue/create_queue_metrics.ts";
import { renderPrometheus } from "./prometheus_text.ts";
import { type ControllerReport, type InformerReport, managerMetrics } from "./manager_metrics.ts";

/** Options of {@link startManager}. */
export interface ManagerOptions {
  readonly client: Client;
  // deno-lint-ignore no-explicit-any
  readonly controllers: readonly ControllerSpec<any, any>[];
  readonly logger?: Logger;
  /** Serve `/healthz`, `/readyz`, `/metrics` on this port (0: any free port; default: no server). */
  readonly healthPort?: number;
  /** Stop gracefully on SIGINT/SIGTERM (default false). */
  readonly handleSignals?: boolean;
  /** Clock (epoch ms). */
  readonly now?: () => number;
}

/** A running manager. */
export interface Manager {
  /** Resolves once every informer has synced. */
  readonly ready: Promise<void>;
  /** Base URL of the health/metrics server, when one runs. */
  readonly healthUrl?: string;
  /** Every reconcile of every controller. */
  readonly records$: Observable<ReconcileRecord>;
  /** The metrics in Prometheus text format. */
  metricsText(): string;
  /** Stops intake, waits for in-flight reconciles, closes watches and the health server. */
  stop(): Promise<void>;
  /** Resolves when the manager has stopped. */
  readonly done: Promise<void>;
}

/**
 * Starts controllers on shared informers.
 *
 * @example
 * ```ts ignore
 * import { startManager } from "./start_manager.ts";
 * const manager = await startManager({ client, controllers: [podSetController], healthPort: 0 });
 * await manager.ready;
 * await manager.stop();
 * ```
 */
export async function startManager(options: ManagerOptions): Promise<Manager> {
  const log = options.logger ?? silentLogger;
  const now = options.now ?? Date.now;
  const base = informers(options.client);
  const made: { resource: string; informer: Informer<KubeObject>; last?: number }[] = [];
  const taps: Subscription[] = [];
  const factory: InformerFactory = {
    informer(resource, o) {
      const inf = base.informer(resource, o);
      if (!made.some((m) => m.informer === (inf as unknown))) {
        const entry = {
          resource: "plural" in resource
            ? resource.plural
            : `${resource.apiVersion}/${resource.kind}`,
          informer: inf as unknown as Informer<KubeObject>,
          last: undefined as number | undefined,
        };
        made.push(entry);
        taps.push(
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
  const reports: {
    name: string;
    reconcile: ReturnType<typeof createControllerMetrics>;
    queue: ReturnType<typeof createQueueMetrics>;
  }[] = [];
  const running = options.controllers.map((spec) => {
    const reconcile = createControllerMetrics();
    const queue = createQueueMetrics();
    reports.push({ name: spec.name, reconcile, queue });
    const { promise, resolve } = Promise.withResolvers<void>();
    const sub = runController(spec, {
      client: options.client,
      informers: factory,
      logger: log,
      stop$,
      now,
      metrics: reconcile,
      queueMetrics: queue,
    }).subscribe({
      next: (r) => records$.next(r),
      error: (e) => {
        log.error("controller stopped with an error", { controller: spec.name, error: e });
        resolve();
      },
      complete: () => resolve(),
    });
    return { sub, finished: promise };
  });
  const ready = Promise.all(made.map((m) =>
    new Promise<void>((resolve) => {
      const s = m.informer.synced$.subscribe(() => {
        resolve();
        queueMicrotask(() => s.unsubscribe());
      });
    })
  )).then(() => log.info("informers synced", { informers: made.map((m) => m.resource) }));

  const metricsText = () => {
    const controllers: ControllerReport[] = reports.map((r) => ({
      name: r.name,
      reconcile: r.reconcile.snapshot(),
      queue: r.queue.snapshot(),
    }));
    const infs: InformerReport[] = made.map((m) => {
      let bytes = 0;
      for (const o of m.informer.store.list()) bytes += JSON.stringify(o).length;
      return {
        resource: m.resource,
        objects: m.informer.store.size,
        bytes,
        lagSeconds: m.last === undefined ? undefined : (now() - m.last) / 1000,
      };
    });
    return renderPrometheus(managerMetrics(controllers, infs));
  };

  let synced = false;
  ready.then(() => (synced = true));
  let server: Deno.HttpServer | undefined;
  let healthUrl: string | undefined;
  if (options.healthPort !== undefined) {
    const { promise, resolve } = Promise.withResolvers<Deno.NetAddr>();
    server = Deno.serve({
      port: options.healthPort,
      hostname: "127.0.0.1",
      onListen: (a) => resolve(a as Deno.NetAddr),
    }, (req) => {
      const path = new URL(req.url).pathname;
      if (path === "/healthz") return new Response("ok");
      if (path === "/readyz") {
        return synced ? new Response("ok") : new Response("informers not synced", { status: 503 });
      }
      if (path === "/metrics") {
        return new Response(metricsText(), {
          headers: { "content-type": "text/plain; version=0.0.4" },
        });
      }
      return new Response("not found", { status: 404 });
    });
    const addr = await promise;
    healthUrl = `http://${addr.hostname}:${addr.port}`;
  }

  const { promise: done, resolve: resolveDone } = Promise.withResolvers<void>();
  let stopping: Promise<void> | undefined;
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  const onSignal = () => void stop();
  function stop(): Promise<void> {
    stopping ??= (async () => {
      log.info("stopping: finishing in-flight reconciles");
      stop$.next();
      await Promise.all(running.map((r) => r.finished));
      for (const r of running) r.sub.unsubscribe();
      for (const t of taps) t.unsubscribe();
      records$.complete();
      if (server) await server.shutdown();
      if (options.handleSignals) {
        for (const s of signals) {
          Deno.removeSignalListener(s, onSignal);
        }
      }
      log.info("stopped");
      resolveDone();
    })();
    return stopping;
  }
  if (options.handleSignals) { for (const s of signals) Deno.addSignalListener(s, onSignal); }
  return {
    ready,
    healthUrl,
    records$,
    metricsText,
    stop,
    done,
  };
}
