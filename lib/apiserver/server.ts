/**
 * `startApiServer()`: the embedded, in-process Kubernetes-compatible API server.
 *
 * @module
 */
import { asyncScheduler } from "../deps.ts";
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
import { openDataDir, restoreCrds } from "./persistence/mod.ts";
import {
  generateCertificates,
  loadOrCreateCertificates,
  PLACEHOLDER_CA_PEM,
  type TlsMaterial,
} from "./tls/mod.ts";
import { installAdmission } from "./admission/mod.ts";
import { serveReloadableTls } from "./tls/reloadable_tls.ts";
import { generateAdminToken, loadOrCreateAdminToken } from "./admin_token.ts";
import { createFaultInjector } from "./faults/mod.ts";
import { loadBuiltinSchemas } from "./builtin_admission.ts";
import { createYamlParser } from "./create_yaml_parser.ts";
import { createWebhookCaller } from "./admission/call_webhook.ts";
import { createObjectConverter } from "./conversion/object_converter.ts";
import type { ApiServer, ApiServerOptions, ForbiddenRequest } from "./api_server_types.ts";

export type {
  ApiServer,
  ApiServerOptions,
  ForbiddenRequest,
  ServerCompanion,
} from "./api_server_types.ts";

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
  const scheduler = options.scheduler ?? asyncScheduler;
  // A given scheduler also drives the clock (virtual time moves both), unless `now` is given.
  const now = options.now ?? (options.scheduler ? () => scheduler.now() : Date.now);
  const storage = new ObjectStorage({
    historySize: options.historySize,
    historyBytes: options.historyBytes,
    historyWindowMs: options.historyWindowMs ?? 300_000,
    now,
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
  const yamlParser = createYamlParser({ scheduler });
  const caller = createWebhookCaller(storage, {
    resolveService: options.resolveService,
    scheduler,
  });
  const ctx: ServerContext = {
    registry,
    yamlParser,
    storage,
    now,
    scheduler,
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
  // HTTPS through a TLS terminator in front of a plain server: Deno.serve's own TLS holds
  // responses over ~1.5 KB for a delayed ACK (~40 ms each; see reloadable_tls.ts).
  const serve = async (): Promise<() => Promise<void>> => {
    if (tls) {
      const front = await serveReloadableTls(
        { hostname, port: options.port ?? 0, alpnProtocols: ["h2", "http/1.1"] },
        { cert: tls.cert, key: tls.key },
        handler,
      );
      resolve({ transport: "tcp", hostname, port: front.port });
      return () => front.close();
    }
    const plain = Deno.serve({
      port: options.port ?? 0,
      hostname,
      onListen: (addr) => resolve(addr as Deno.NetAddr),
      onError: () => new Response("internal error", { status: 500 }),
    }, handler);
    return () => plain.shutdown();
  };
  let stopServing: () => Promise<void>;
  try {
    stopServing = await serve();
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
    await stopServing();
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
