/**
 * `startApiServer()`: the embedded, in-process Kubernetes-compatible API server.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { kubeconfigFor } from "../client/config/kubeconfig_for.ts";
import type { ServerContext } from "./context.ts";
import { ResourceRegistry } from "./registry.ts";
import { ObjectStorage } from "./storage.ts";
import { builtinHooks } from "./builtin_hooks.ts";
import { createRouter } from "./router.ts";
import { createObject } from "./object_write.ts";
import { installCrdController } from "./crd_controller.ts";
import { createControllers } from "./controllers/controllers.ts";
import type { SimulationOptions } from "./controllers/simulation.ts";

/** Options of {@link startApiServer}. */
export interface ApiServerOptions {
  /** Port to bind; 0 (default) picks a free one. */
  readonly port?: number;
  /** Address to bind; default `127.0.0.1`. */
  readonly hostname?: string;
  /** Watch events kept per resource for resuming watches; default 10,000. */
  readonly historySize?: number;
  /** Interval of watch bookmarks in ms; default 60,000. */
  readonly bookmarkIntervalMs?: number;
  /** Events buffered for one slow watcher before its stream is closed; default 100,000. */
  readonly maxBufferedEvents?: number;
  /** Clock (epoch ms); default `Date.now`. */
  readonly now?: () => number;
  /** Garbage collection of ownerReferences (orphan/foreground/background); default true. */
  readonly gc?: boolean;
  /** Simulated nodes, scheduler and kubelets (KWOK-style); default `false` (pods stay Pending). */
  readonly simulation?: SimulationOptions | false;
}

/** A running API server. */
export interface ApiServer {
  /** Base URL, e.g. `http://127.0.0.1:43121`. */
  readonly url: string;
  /** A kubeconfig (YAML) that points kubectl and clients at this server. */
  readonly kubeconfig: string;
  /** Requests served so far by `verb resource` (e.g. `list pods`). */
  readonly requestCounts: () => Record<string, number>;
  /** Direct access for tests and in-process tooling. */
  readonly context: ServerContext;
  /** Forgets all watch history: watches resuming from older revisions get 410 Gone. */
  readonly compactHistory: () => void;
  /** Marks a simulated node lost: its pods turn Failed (only with `simulation`). */
  readonly failNode?: (name: string) => void;
  /** Marks a simulated node Ready again (only with `simulation`). */
  readonly restoreNode?: (name: string) => void;
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
 * import { startApiServer } from "./server.ts";
 * const server = await startApiServer();
 * const res = await fetch(`${server.url}/api/v1/namespaces`);
 * (await res.json()).items.length; // 4
 * await server.close();
 * ```
 */
export async function startApiServer(options: ApiServerOptions = {}): Promise<ApiServer> {
  const storage = new ObjectStorage({ historySize: options.historySize });
  const controllers = createControllers({ gc: options.gc, simulation: options.simulation });
  const ctx: ServerContext = {
    registry: new ResourceRegistry(),
    storage,
    now: options.now ?? Date.now,
    hooks: builtinHooks(),
    ...controllers,
  };
  installCrdController(ctx);
  for (const name of ["default", "kube-system", "kube-public", "kube-node-lease"]) {
    const ns: KubeObject = { apiVersion: "v1", kind: "Namespace", metadata: { name } };
    createObject(ctx, ctx.registry.lookup("", "v1", "namespaces")!, undefined, ns);
  }
  const running = controllers.start(ctx);
  const counts: Record<string, number> = {};
  const active = new Set<() => void>();
  const hostname = options.hostname ?? "127.0.0.1";
  const { promise: listening, resolve } = Promise.withResolvers<Deno.NetAddr>();
  let address = `${hostname}:0`;
  const handler = createRouter(ctx, {
    watch: {
      bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
      maxBufferedEvents: options.maxBufferedEvents ?? 100_000,
      active,
    },
    get address() {
      return address;
    },
    subresources: running.subresources,
    count: (verb, resource) => {
      const k = `${verb} ${resource}`;
      counts[k] = (counts[k] ?? 0) + 1;
    },
  });
  const server = Deno.serve({
    port: options.port ?? 0,
    hostname,
    onListen: (addr) => resolve(addr as Deno.NetAddr),
    onError: () => new Response("internal error", { status: 500 }),
  }, handler);
  const addr = await listening;
  address = `${addr.hostname}:${addr.port}`;
  const url = `http://${address}`;
  return {
    url,
    kubeconfig: kubeconfigFor({ server: url, namespace: "default" }),
    requestCounts: () => ({ ...counts }),
    context: ctx,
    compactHistory: () => storage.hub.compact(storage.rv),
    ...(running.simulation
      ? { failNode: running.simulation.failNode, restoreNode: running.simulation.restoreNode }
      : {}),
    close: async () => {
      running.close();
      for (const close of [...active]) close();
      await server.shutdown();
    },
  };
}
