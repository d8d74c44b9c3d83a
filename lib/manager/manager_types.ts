/**
 * The manager's options and handle (see `startManager`).
 *
 * @module
 */
import type { Observable, SchedulerLike } from "../deps.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import type { KubeObject } from "../core/object.ts";
import type { Logger } from "../core/logger.ts";
import type { Client } from "../client/client_types.ts";
import type { ControllerSpec } from "../controller/controller_spec.ts";
import type { ReconcileRecord } from "../controller/run_controller.ts";
import type { LeaderElectionOptions } from "../leader/run_leader_election.ts";
import type { Webhook } from "../webhook/webhook_spec.ts";
import type { WebhookServer, WebhookServerOptions } from "../webhook/serve_webhooks.ts";

/** Options of `startManager`. */
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
