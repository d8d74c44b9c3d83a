/**
 * The benchmark cluster on a worker thread of the same process: the API server (with its
 * simulation and a tracker) no longer shares the manager's JavaScript thread — the topology of
 * a real deployment, where the server's watch encoding is not the controller's CPU.
 *
 * @module
 */
import { type Client, connect, E } from "../../../mod.ts";
import { BENCH_RATE_LIMIT } from "./_harness.ts";

/** A cluster running on its own thread, reached over HTTP. */
export interface ThreadCluster {
  readonly kubeconfig: string;
  /** A new client of the cluster (benchmark rate limit; `defaults`: `connect()`'s defaults). */
  client(defaults?: boolean): Promise<Client>;
  /** Resolves once `n` PodSets report every replica ready (tracked inside the worker). */
  untilReady(n: number): Promise<void>;
  /** The server's request counts (verb and resource) and the pods added and deleted so far. */
  counts(): Promise<ClusterCounts>;
  /**
   * Deletes one pod of PodSet `owner`; resolves with the ms from the delete's commit to the
   * replacement's create commit, once all `total` PodSets report ready again.
   */
  replace(owner: string, total: number): Promise<number>;
  close(): Promise<void>;
}

/** What {@link ThreadCluster.counts} answers. */
export interface ClusterCounts {
  readonly counts: Record<string, number>;
  readonly podsAdded: number;
  readonly podsDeleted: number;
}

type Reply = {
  type: string;
  id?: number;
  kubeconfig?: string;
  error?: string;
  ms?: number;
} & Partial<ClusterCounts>;

/** Starts {@link ThreadCluster} in a worker and waits until its server listens. */
export async function startClusterThread(): Promise<ThreadCluster> {
  const worker = new Worker(new URL("./_server_thread.ts", import.meta.url).href, {
    type: "module",
  });
  const waiting = new Map<number | string, (r: Reply) => void>();
  worker.onmessage = (m: MessageEvent<Reply>) => {
    const key = m.data.id ?? m.data.type;
    waiting.get(key)?.(m.data);
    waiting.delete(key);
  };
  const reply = (key: number | string) => new Promise<Reply>((r) => waiting.set(key, r));
  const started = await reply("started");
  const kubeconfig = started.kubeconfig!;
  let nextId = 0;
  const ask = async (msg: Record<string, unknown>): Promise<Reply> => {
    const id = ++nextId;
    const done = reply(id);
    worker.postMessage({ ...msg, id });
    const r = await done;
    if (r.error) throw new Error(r.error);
    return r;
  };
  return {
    kubeconfig,
    async client(defaults) {
      const c = await connect({
        kubeconfigYaml: kubeconfig,
        ...(defaults ? {} : { rateLimit: BENCH_RATE_LIMIT }),
      });
      if (E.isLeft(c)) throw new Error(`Cannot build a client: ${c.left.message}`);
      return c.right;
    },
    async untilReady(n) {
      await ask({ type: "until", ready: n });
    },
    async counts() {
      const r = await ask({ type: "counts" });
      return { counts: r.counts!, podsAdded: r.podsAdded!, podsDeleted: r.podsDeleted! };
    },
    async replace(owner, total) {
      return (await ask({ type: "replace", owner, total })).ms!;
    },
    async close() {
      const closed = reply("closed");
      worker.postMessage({ type: "close" });
      await closed;
      worker.terminate();
    },
  };
}
