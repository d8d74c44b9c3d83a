/**
 * `startApiServer()`: the embedded, in-process Kubernetes-compatible API server.
 *
 * @module
 */
import { kubeconfigFor } from "../client/config/kubeconfig_for.ts";
import type { ServerContext } from "./context.ts";
import { ResourceRegistry } from "./registry.ts";
import { ObjectStorage } from "./storage.ts";
import { builtinHooks } from "./builtin_hooks.ts";
import { createRouter } from "./router.ts";
import { createBootstrapObjects } from "./bootstrap.ts";
import { createAccessControl } from "./access_control.ts";
import { reviewHandlers } from "./access_reviews.ts";
import { podServiceAccountToken, tokenRequestHandler } from "./token_request.ts";
import { evictionHandler } from "./eviction.ts";
import { createTokenSigner } from "./authn/token_signer.ts";
import { storePolicy } from "./rbac/store_policy.ts";
import { drainUnreadBodies } from "./http_util.ts";
import { loadCel, mayHaveCelRules } from "./cel/load_cel.ts";
import { installCrdController } from "./crd_controller.ts";
import { createControllers } from "./controllers/controllers.ts";
import type { SimulationOptions } from "./controllers/simulation.ts";
import { openDataDir, type PersistenceLogger, restoreCrds } from "./persistence/mod.ts";
import {
  generateCertificates,
  loadOrCreateCertificates,
  PLACEHOLDER_CA_PEM,
  type TlsMaterial,
} from "./tls/mod.ts";
import { installAdmission } from "./admission/mod.ts";
import { generateAdminToken, loadOrCreateAdminToken } from "./admin_token.ts";
import { createFaultInjector, type FaultControl, type FaultOptions } from "./faults/mod.ts";
import { loadBuiltinSchemas } from "./builtin_admission.ts";
import { createYamlParser } from "./create_yaml_parser.ts";
import { createWebhookCaller, type ServiceResolver } from "./admission/call_webhook.ts";
import { createObjectConverter } from "./conversion/object_converter.ts";

/** Options of {@link startApiServer}. */
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
  /** Clock (epoch ms); default `Date.now`. */
  readonly now?: () => number;
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

/**
 * Starts an embedded API server that real clients (kubectl, client-node) can use.
 *
 * Like envtest, but in-process and in milliseconds: no etcd or kube-apiserver binaries.
 *
 * @example
 * ```ts
 * import { startApiServer } from "./mod.ts";
 * const server = await startApiServer();
 * const res = await fetch(`${server.url}/api/v1/namespaces`);
 * (await res.json()).items.length; // 4
 * await server.close();
 * ```
 */
export async function startApiServer(options: ApiServerOptions = {}): Promise<ApiServer> {
  if (options.simulation && options.simulation.runImages && !options.tls) {
    throw new Error(
      "Cannot run images as processes without tls: in-cluster clients speak HTTPS (set tls: true)",
    );
  }
  const opened = options.dataDir === undefined ? undefined : openDataDir(options.dataDir, {
    logger: options.logger,
    compactAfterBytes: options.compactAfterBytes,
  });
  if (opened?._tag === "Left") throw new Error(opened.left.message);
  const data = opened?.right;
  const hostname = options.hostname ?? "127.0.0.1";
  const hosts = ["localhost", "127.0.0.1", "::1"];
  if (!hosts.includes(hostname) && hostname !== "0.0.0.0" && hostname !== "::") {
    hosts.push(hostname);
  }
  let tls: TlsMaterial | undefined;
  let token: string | undefined;
  try {
    tls = !options.tls
      ? undefined
      : options.dataDir !== undefined
      ? await loadOrCreateCertificates(options.dataDir, { hosts })
      : await generateCertificates({ hosts });
    token = options.token ??
      (!tls
        ? undefined
        : options.dataDir !== undefined
        ? await loadOrCreateAdminToken(options.dataDir)
        : generateAdminToken());
  } catch (e) {
    data?.close();
    throw e;
  }
  const storage = new ObjectStorage({
    historySize: options.historySize,
    historyBytes: options.historyBytes,
    historyWindowMs: options.historyWindowMs ?? 300_000,
    now: options.now ?? Date.now,
    initialRv: data?.rv,
    restored: data?.restored,
    journal: data?.journal,
  });
  const controllers = createControllers({
    gc: options.gc,
    simulation: options.simulation ?? (options.cluster ? {} : false),
    rootCaPem: options.serviceAccounts === false ? undefined : tls?.caCert ?? PLACEHOLDER_CA_PEM,
  });
  const registry = new ResourceRegistry();
  await loadBuiltinSchemas(registry.all());
  const yamlParser = createYamlParser();
  const caller = createWebhookCaller(storage, { resolveService: options.resolveService });
  const ctx: ServerContext = {
    registry,
    yamlParser,
    storage,
    now: options.now ?? Date.now,
    hooks: builtinHooks(),
    ...controllers,
    webhooks: {
      caller,
      converter: createObjectConverter(caller, { timeoutMs: options.conversionTimeoutMs }),
    },
  };
  installCrdController(ctx);
  installAdmission(ctx, { serviceAccounts: options.serviceAccounts ?? true });
  if (data) {
    // Stored CRDs with rules and webhooks with match conditions need CEL from the start.
    const stored = [
      ["apiextensions.k8s.io", "customresourcedefinitions"],
      ["admissionregistration.k8s.io", "validatingwebhookconfigurations"],
      ["admissionregistration.k8s.io", "mutatingwebhookconfigurations"],
    ].flatMap(([group, plural]) => {
      const info = ctx.registry.lookup(group, "v1", plural);
      return info ? storage.list(info.storageKey) : [];
    });
    if (stored.some((s) => mayHaveCelRules(JSON.stringify(s.object)))) await loadCel();
    restoreCrds(ctx);
  }
  createBootstrapObjects(ctx);
  const counts: Record<string, number> = {};
  const active = new Set<() => void>();
  let closing = false;
  const { promise: listening, resolve } = Promise.withResolvers<Deno.NetAddr>();
  let address = `${hostname}:0`;
  let boundPort = "0";
  const signer = createTokenSigner(
    options.dataDir === undefined ? undefined : `${options.dataDir}/sa-signing-key.jwk`,
  );
  const running = controllers.start(ctx, {
    host: () => ({
      host: hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname,
      port: boundPort,
    }),
    ...(tls ? { caCert: tls.caCert } : {}),
    // As a kubelet: the pod's ServiceAccount token, bound to the pod (else the admin token).
    token: async (pod) => (await podServiceAccountToken(ctx, signer, pod)) ?? token,
  });
  const faults = createFaultInjector(options.faults, {
    compact: () => storage.hub.compact(storage.rv),
  });
  const access = createAccessControl(ctx, { adminToken: token, signer });
  const forbidden: ForbiddenRequest[] = [];
  const routed = drainUnreadBodies(faults.wrap(createRouter(ctx, {
    watch: {
      bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
      maxBufferedEvents: options.maxBufferedEvents ?? 100_000,
      maxBufferedBytes: options.maxBufferedBytes ?? 2 * 1024 * 1024,
      onSlowWatcher: () => {
        counts["close slow watch"] = (counts["close slow watch"] ?? 0) + 1;
      },
      active,
      closing: () => closing,
      faults,
    },
    get address() {
      return address;
    },
    access,
    creators: reviewHandlers(ctx, access, storePolicy(ctx)),
    subresources: new Map([
      ...running.subresources,
      ["serviceaccounts/token", tokenRequestHandler(ctx, signer)],
      ["pods/eviction", evictionHandler(ctx)],
    ]),
    readSubresources: running.readSubresources,
    count: (verb, resource) => {
      const k = `${verb} ${resource}`;
      counts[k] = (counts[k] ?? 0) + 1;
    },
  })));
  const handler = async (req: Request): Promise<Response> => {
    const res = await routed(req);
    if (res.status !== 403) return res;
    const url = new URL(req.url);
    const message = await res.clone().json().then((s) => String(s?.message ?? ""), () => "");
    forbidden.push({
      method: req.method,
      path: url.pathname + url.search,
      userAgent: req.headers.get("user-agent") ?? "",
      message,
    });
    return res;
  };
  const serve = () =>
    Deno.serve({
      port: options.port ?? 0,
      hostname,
      onListen: (addr) => resolve(addr as Deno.NetAddr),
      onError: () => new Response("internal error", { status: 500 }),
      ...(tls ? { cert: tls.cert, key: tls.key } : {}),
    }, handler);
  let server: Deno.HttpServer;
  try {
    server = serve();
  } catch (e) {
    faults.close();
    yamlParser.close();
    caller.close();
    await running.close();
    data?.close(); // e.g. the port is taken: release the data dir
    throw e;
  }
  const addr = await listening;
  address = `${addr.hostname}:${addr.port}`;
  boundPort = String(addr.port);
  const url = `${tls ? "https" : "http"}://${address}`;
  let companion: { readonly close: () => Promise<void> } | undefined;
  const shutdown = async () => {
    closing = true;
    faults.close();
    await running.close();
    for (const close of [...active]) close();
    yamlParser.close();
    await server.shutdown();
    caller.close();
    data?.close();
  };
  const api: ApiServer = {
    url,
    kubeconfig: kubeconfigFor({
      server: url,
      namespace: "default",
      token,
      caData: tls?.caCert,
    }),
    caCert: tls?.caCert,
    requestCounts: () => ({ ...counts }),
    forbidden: () => [...forbidden],
    context: ctx,
    compactHistory: () => storage.hub.compact(storage.rv),
    faults,
    ...(running.simulation
      ? { failNode: running.simulation.failNode, restoreNode: running.simulation.restoreNode }
      : {}),
    close: async () => {
      await companion?.close();
      await shutdown();
    },
  };
  if (options.cluster) {
    try {
      companion = await options.cluster(api);
    } catch (e) {
      await shutdown();
      throw e;
    }
  }
  return api;
}
