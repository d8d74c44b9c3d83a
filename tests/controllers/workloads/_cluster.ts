/** Test helpers: a started embedded cluster, a client, and event-driven waiting. */
import { firstValueFrom } from "../../../lib/deps.ts";
import * as rx from "npm:rxjs@7.8.2";
import { type Client, connect, E, type KubeObject } from "../../../mod.ts";
import { type Cluster, type ClusterOptions, startCluster } from "../../../lib/cluster/mod.ts";

/** A cluster and a client of its own. */
export interface TestCluster {
  readonly cluster: Cluster;
  readonly client: Client;
  /** Creates an object, throwing on failure. */
  create(obj: KubeObject): Promise<KubeObject>;
  /** Lists objects of a kind in `default`. */
  list<T = KubeObject>(apiVersion: string, kind: string): Promise<T[]>;
  /** Gets an object from `default`, or undefined. */
  get<T = KubeObject>(apiVersion: string, kind: string, name: string): Promise<T | undefined>;
  /** Resolves once `check` holds, checked after every reconcile (and every 100 ms); 10 s at most. */
  until(what: string, check: () => Promise<boolean>): Promise<void>;
}

/** Runs `fn` on a fresh cluster (fast simulation by default) and closes it afterwards. */
export async function withCluster(
  fn: (t: TestCluster) => Promise<void>,
  options: ClusterOptions = {},
): Promise<void> {
  const cluster = await startCluster({
    ...options,
    simulation: { nodes: 3, podStartDelayMs: 0, kubeletDelayMs: 0, ...options.simulation },
  });
  const c = await connect({ kubeconfigYaml: cluster.kubeconfig });
  if (E.isLeft(c)) throw new Error(c.left.message);
  const client = c.right;
  const t: TestCluster = {
    cluster,
    client,
    async create(obj) {
      const r = await client.create<KubeObject>({
        ...obj,
        metadata: { namespace: "default", ...obj.metadata },
      });
      if (E.isLeft(r)) throw new Error(`create ${obj.kind}: ${r.left.message}`);
      return r.right;
    },
    async list<T>(apiVersion: string, kind: string) {
      const r = await client.list<T>({ apiVersion, kind }, { namespace: "default" });
      if (E.isLeft(r)) throw new Error(r.left.message);
      return [...r.right.items];
    },
    async get<T>(apiVersion: string, kind: string, name: string) {
      const r = await client.get<T>({ apiVersion, kind }, name, { namespace: "default" });
      return E.isRight(r) ? r.right : undefined;
    },
    async until(what, check) {
      // Checked after every reconcile; also every 100 ms, for changes no reconcile follows
      // (a deleted primary's children going away).
      const ticks$ = rx.merge(cluster.manager.records$, rx.interval(100));
      const done = firstValueFrom(ticks$.pipe(
        rx.startWith(null),
        rx.concatMap(() => check()),
        rx.filter((ok) => ok),
      ));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), 10_000);
      });
      try {
        await Promise.race([done, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
  try {
    await fn(t);
  } finally {
    client.close();
    await cluster.close();
  }
}
