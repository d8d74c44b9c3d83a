/**
 * The types of `startApiServer()`: its options, the running server, and what runs beside
 * it.
 *
 * @module
 */
import type { SchedulerLike } from "../deps.ts";
import type { ServerContext } from "./context.ts";
import type { SimulationOptions } from "./controllers/simulation.ts";
import type { PersistenceLogger } from "./persistence/mod.ts";
import type { FaultControl, FaultOptions } from "./faults/mod.ts";
import type { ServiceResolver } from "./admission/call_webhook.ts";

/** Options of `startApiServer()`. */
export interface ApiServerOptions {
  /** Port to bind; 0 (default) picks a free one. */
  readonly port?: number;
  /** Address to bind; default `127.0.0.1`. */
  readonly hostname?: string;
  /** Watch events kept per resource for resuming watches; default 10,000. */
  readonly historySize?: number;
  /**
   * How long watch events are kept for resuming watches, besides `historySize`; default
   * 300,000 (5 minutes, kube-apiserver's etcd compaction interval). A watch from an older
   * resourceVersion gets `410 Gone` and its client relists. `Infinity` keeps them by count only.
   */
  readonly historyWindowMs?: number;
  /** Interval of watch bookmarks in ms; default 60,000. */
  readonly bookmarkIntervalMs?: number;
  /** Events buffered for one slow watcher before its stream is closed; default 100,000. */
  readonly maxBufferedEvents?: number;
  /**
   * Bytes buffered for one watcher that does not read before its stream is closed (it then
   * resumes from its last resourceVersion); default 2 MiB.
   */
  readonly maxBufferedBytes?: number;
  /** Watch history kept in serialized bytes over all resources; default 64 MiB. */
  readonly historyBytes?: number;
  /**
   * Clock (epoch ms); default `scheduler.now` when a `scheduler` is given, else `Date.now`.
   */
  readonly now?: () => number;
  /**
   * Runs every timer of the server: watch `timeoutSeconds`, watch bookmarks, the quota
   * controller's wake-up when a deleted pod's grace period ends, webhook and YAML parsing
   * timeouts. Default `asyncScheduler` (real time). Given a virtual-time scheduler (and no
   * `now`), the server's clock follows it too, so a test moves both by advancing it.
   *
   * @example
   * ```ts
   * import { startApiServer } from "./mod.ts";
   * import { virtualTime } from "../testing/mod.ts";
   * const time = virtualTime({ startMs: Date.parse("2026-01-01T00:00:00Z") });
   * const server = await startApiServer({ scheduler: time.scheduler });
   * // ... open a watch with timeoutSeconds=30, then:
   * await time.advance(30_000); // the watch ends
   * await server.close();
   * ```
   */
  readonly scheduler?: SchedulerLike;
  /**
   * Directory that keeps all objects and the resourceVersion counter across restarts
   * (write-ahead log, fsynced before a write is answered, plus snapshots); default: memory only.
   */
  readonly dataDir?: string;
  /** The write-ahead log is compacted once larger than this and the last snapshot; 8 MiB. */
  readonly compactAfterBytes?: number;
  /** Receives warnings (e.g. a torn last log record dropped at start); default: none. */
  readonly logger?: PersistenceLogger;
  /**
   * Bearer token every request must carry (else 401); also written into the kubeconfig.
   * Default: none over HTTP; with `tls`, a generated random token (kept in `dataDir` if set),
   * because kubectl sends credentials only over HTTPS and asks for a username when the
   * kubeconfig's user has none.
   */
  readonly token?: string;
  /**
   * Serve HTTPS with a generated self-signed CA and certificate (kept in `dataDir` if set);
   * the kubeconfig gets the CA, an `https://` URL and the token (see `token`).
   */
  readonly tls?: boolean;
  /**
   * ServiceAccounts as on a real cluster: every namespace gets the `default` ServiceAccount and
   * the `kube-root-ca.crt` ConfigMap, and a pod runs as an existing ServiceAccount (`default`
   * unless it names one) with its token volume mounted; default true.
   */
  readonly serviceAccounts?: boolean;
  /** Garbage collection of ownerReferences (orphan/foreground/background); default true. */
  readonly gc?: boolean;
  /** Simulated nodes, scheduler and kubelets (KWOK-style); default `false` (pods stay Pending). */
  readonly simulation?: SimulationOptions | false;
  /**
   * The embedded cluster's controllers, run beside the server once it listens and stopped
   * before it closes — `clusterControllers()` from the `./apiserver` entry point (workloads,
   * endpoints, disruption budgets, volumes). With it, `simulation` defaults to 3 nodes. The
   * server knows only this interface: the controllers are built with kubefold's client.
   */
  readonly cluster?: ServerCompanion;
  /**
   * Seeded fault injection (dropped watches, 500/503/429 answers, latency, compaction);
   * default: every fault off (they can still be switched on through `ApiServer.faults`).
   */
  readonly faults?: FaultOptions;
  /**
   * How webhooks' `clientConfig.service` reach the webhook server (`https://host:port`);
   * default: the Service's Endpoints (e.g. a selector-less Service with endpoints at
   * 127.0.0.1, for a manager running on this machine).
   */
  readonly resolveService?: ServiceResolver;
  /** How long a conversion webhook may take, in ms (default 30,000, kube-apiserver's). */
  readonly conversionTimeoutMs?: number;
}

/** What runs beside a server (see `ApiServerOptions.cluster`): started on it, closed before it. */
export type ServerCompanion = (
  server: ApiServer,
) => Promise<{ readonly close: () => Promise<void> }>;

/** A request the server answered with 403 Forbidden. */
export interface ForbiddenRequest {
  /** HTTP method, e.g. `PATCH`. */
  readonly method: string;
  /** Path and query, e.g. `/api/v1/pods?watch=true`. */
  readonly path: string;
  /** The client's User-Agent. */
  readonly userAgent: string;
  /** The Status message, e.g. `pods is forbidden: User "..." cannot list resource ...`. */
  readonly message: string;
}

/** A running API server. */
export interface ApiServer {
  /** Base URL, e.g. `http://127.0.0.1:43121`. */
  readonly url: string;
  /** A kubeconfig (YAML) that points kubectl and clients at this server. */
  readonly kubeconfig: string;
  /** PEM of the CA that signed the server certificate (with `tls`). */
  readonly caCert?: string;
  /** Requests served so far by `verb resource` (e.g. `list pods`). */
  readonly requestCounts: () => Record<string, number>;
  /**
   * Every request answered 403 Forbidden so far (method, path with query, User-Agent, the
   * Status message), oldest first: what an operator's RBAC did not allow.
   */
  readonly forbidden: () => readonly ForbiddenRequest[];
  /**
   * The server's state (storage, registry, hooks), for kubefold's own tests and in-process
   * tooling; not a stable API.
   *
   * @internal
   */
  readonly context: ServerContext;
  /** Forgets all watch history: watches resuming from older revisions get 410 Gone. */
  readonly compactHistory: () => void;
  /** Marks a simulated node lost: its pods turn Failed (only with `simulation`). */
  readonly failNode?: (name: string) => void;
  /** Marks a simulated node Ready again (only with `simulation`). */
  readonly restoreNode?: (name: string) => void;
  /** Switches injected faults on and off at run time (see `ApiServerOptions.faults`). */
  readonly faults: FaultControl;
  /** Closes open watches and stops serving. */
  readonly close: () => Promise<void>;
}
