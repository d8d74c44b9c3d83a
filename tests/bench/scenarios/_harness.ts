/**
 * Shared pieces of the end-to-end controller benchmarks: an embedded server with a fast
 * simulation, clients with a raised rate limit, PodSet fixtures, a server-side tracker that
 * follows convergence without sending a single request, and the result-row type.
 *
 * @module
 */
import { type Client, connect, E, type KubeObject } from "../../../mod.ts";
import { type ApiServer, startApiServer } from "../../../lib/apiserver/mod.ts";
import type { StoredEvent } from "../../../lib/apiserver/watch_hub.ts";
import { podSetCrd } from "../../../controllers/podset/mod.ts";

/** The client rate limit every benchmark uses (the default 20 QPS / burst 30 would dominate). */
export const BENCH_RATE_LIMIT = { qps: 100_000, burst: 100_000 } as const;

/** One row of the printed table. */
export interface Row {
  readonly scenario: string;
  readonly metric: string;
  /** Absolute figure, for the record. */
  readonly value: string;
  /** Ratio against the scenario's baseline, when it has one. */
  readonly ratio?: number;
  /** The target in words, e.g. `<= 3x`. */
  readonly target: string;
  /** PASS/FAIL, or undefined for an informational row. */
  readonly pass?: boolean;
}

/** Sizes of a run (full or `--quick`). */
export interface Sizes {
  readonly podSets: number;
  readonly replicas: number;
  readonly deletes: number;
  readonly memoryPods: number;
  readonly concurrency: number;
}

/** An embedded server with simulated nodes, the PodSet CRD installed, and a driver client. */
export interface Cluster {
  readonly server: ApiServer;
  readonly client: Client;
  readonly podsKey: string;
  readonly podSetsKey: string;
  close(): Promise<void>;
}

/** A client of `server` with {@link BENCH_RATE_LIMIT}. */
export async function benchClient(server: ApiServer): Promise<Client> {
  const c = await connect({ kubeconfigYaml: server.kubeconfig, rateLimit: BENCH_RATE_LIMIT });
  if (E.isLeft(c)) throw new Error(`Cannot build a client: ${c.left.message}`);
  return c.right;
}

/** Starts a server (kubelet and start delays 0, no Events) and installs the PodSet CRD. */
export async function startCluster(): Promise<Cluster> {
  const server = await startApiServer({
    simulation: { nodes: 10, podStartDelayMs: 0, kubeletDelayMs: 0, events: false },
  });
  const client = await benchClient(server);
  const crd = await client.apply(podSetCrd as unknown as KubeObject, {
    fieldManager: "bench",
    force: true,
  });
  if (E.isLeft(crd)) throw new Error(`Cannot install the PodSet CRD: ${crd.left.message}`);
  const reg = server.context.registry;
  return {
    server,
    client,
    podsKey: reg.lookup("", "v1", "pods")!.storageKey,
    podSetsKey: reg.lookup("app.example.com", "v1alpha1", "podsets")!.storageKey,
    close: async () => {
      client.close();
      await server.close();
    },
  };
}

/** The `i`-th benchmark PodSet. */
export function podSet(i: number, replicas: number, namespace = "default"): KubeObject {
  return {
    apiVersion: "app.example.com/v1alpha1",
    kind: "PodSet",
    metadata: { name: `ps-${i}`, namespace },
    spec: {
      replicas,
      selector: { matchLabels: { app: `ps-${i}` } },
      template: {
        metadata: { labels: { app: `ps-${i}` } },
        spec: { containers: [{ name: "web", image: "nginx:1.27" }] },
      },
    },
  };
}

/** Runs `fn(0..n-1)` with at most `concurrency` calls in flight. */
export async function pool(
  n: number,
  concurrency: number,
  fn: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) await fn(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
}

/** Throws unless a client call succeeded. */
export function must<T>(what: string, r: E.Either<{ message: string }, T>): T {
  if (E.isLeft(r)) throw new Error(`Cannot ${what}: ${r.left.message}`);
  return r.right;
}

/** The `q`-quantile (0..1) of samples, nearest rank. */
export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}

type Spec = {
  replicas?: number;
  selector?: unknown;
};
type Status = {
  replicas?: number;
  readyReplicas?: number;
  observedGeneration?: number;
};

const isReady = (o: KubeObject): boolean => {
  const spec = o.spec as Spec | undefined;
  const st = o.status as Status | undefined;
  const want = spec?.replicas ?? 1;
  return st?.replicas === want && st?.readyReplicas === want &&
    st?.observedGeneration === o.metadata?.generation;
};

/**
 * Follows PodSets and pods at the server's watch hub (in-process, no requests): how many
 * PodSets report all replicas ready for their current generation, and how many pods exist.
 */
export class Tracker {
  readonly #ready = new Set<string>();
  readonly #podSets = new Set<string>();
  readonly #pods = new Set<string>();
  readonly #waiters: { check: () => boolean; resolve: () => void }[] = [];
  readonly #unsubscribe: (() => void)[];
  /** Every event seen, for the callers' own folds. */
  readonly listeners: ((e: StoredEvent) => void)[] = [];
  lastEventAt = performance.now();

  constructor(cluster: Cluster) {
    const onPodSet = (e: StoredEvent) => {
      const k = `${e.object.metadata!.namespace}/${e.object.metadata!.name}`;
      if (e.type === "DELETED") {
        this.#podSets.delete(k);
        this.#ready.delete(k);
      } else {
        this.#podSets.add(k);
        if (isReady(e.object)) this.#ready.add(k);
        else this.#ready.delete(k);
      }
      this.#changed(e);
    };
    const onPod = (e: StoredEvent) => {
      const k = `${e.object.metadata!.namespace}/${e.object.metadata!.name}`;
      if (e.type === "DELETED") this.#pods.delete(k);
      else this.#pods.add(k);
      this.#changed(e);
    };
    const hub = cluster.server.context.storage.hub;
    this.#unsubscribe = [
      hub.subscribe(cluster.podSetsKey, { deliver: onPodSet }),
      hub.subscribe(cluster.podsKey, { deliver: onPod }),
    ];
  }

  #changed(e: StoredEvent): void {
    this.lastEventAt = performance.now();
    for (const l of this.listeners) l(e);
    for (let i = this.#waiters.length - 1; i >= 0; i--) {
      if (this.#waiters[i].check()) {
        this.#waiters[i].resolve();
        this.#waiters.splice(i, 1);
      }
    }
  }

  /** PodSets whose status reports every replica ready. */
  get ready(): number {
    return this.#ready.size;
  }
  /** PodSets that exist. */
  get podSets(): number {
    return this.#podSets.size;
  }
  /** Pods that exist (terminating included). */
  get pods(): number {
    return this.#pods.size;
  }

  /** Resolves once `check()` holds (checked after every event), or rejects after `timeoutMs`. */
  until(what: string, check: () => boolean, timeoutMs = 120_000): Promise<void> {
    if (check()) return Promise.resolve();
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    const timer = setTimeout(
      () => reject(new Error(`timed out after ${timeoutMs} ms waiting until ${what}`)),
      timeoutMs,
    );
    this.#waiters.push({
      check,
      resolve: () => {
        clearTimeout(timer);
        resolve();
      },
    });
    return promise;
  }

  /** Resolves once no PodSet or pod event arrived for `quietMs`. */
  async quiet(quietMs = 200): Promise<void> {
    for (;;) {
      const idle = performance.now() - this.lastEventAt;
      if (idle >= quietMs) return;
      await new Promise((r) => setTimeout(r, quietMs - idle + 1));
    }
  }

  /** Stops following. */
  close(): void {
    for (const u of this.#unsubscribe) u();
  }
}
