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
  /** A new client of the cluster (benchmark rate limit). */
  client(): Promise<Client>;
  /** Resolves once `n` PodSets report every replica ready (tracked inside the worker). */
  untilReady(n: number): Promise<void>;
  close(): Promise<void>;
}

type Reply = { type: string; id?: number; kubeconfig?: string; error?: string };

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
  return {
    kubeconfig,
    async client() {
      const c = await connect({ kubeconfigYaml: kubeconfig, rateLimit: BENCH_RATE_LIMIT });
      if (E.isLeft(c)) throw new Error(`Cannot build a client: ${c.left.message}`);
      return c.right;
    },
    async untilReady(n) {
      const id = ++nextId;
      const done = reply(id);
      worker.postMessage({ type: "until", id, ready: n });
      const r = await done;
      if (r.error) throw new Error(r.error);
    },
    async close() {
      const closed = reply("closed");
      worker.postMessage({ type: "close" });
      await closed;
      worker.terminate();
    },
  };
}
