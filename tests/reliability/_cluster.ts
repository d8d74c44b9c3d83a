/**
 * A chaos-test cluster: the embedded API server (simulated nodes, data dir, faults), the
 * PodSet CRD, a manager running the PodSet controller, and an observer of the server's own
 * state.
 *
 * @module
 */
import {
  type Client,
  connect,
  E,
  type KubeObject,
  type Logger,
  type Manager,
  startManager,
} from "../../mod.ts";
import { type ApiServer, type FaultOptions, startApiServer } from "../../lib/apiserver/mod.ts";
import type { StoredEvent } from "../../lib/apiserver/watch_hub.ts";
import { podSetController, podSetCrd } from "../../controllers/podset/mod.ts";

/** PodSet resource of the client. */
export const podSetKind = { apiVersion: "app.example.com/v1alpha1", kind: "PodSet" };
/** Pod resource of the client. */
export const podKind = { apiVersion: "v1", kind: "Pod" };

/** A client that rides out faults quickly. */
export async function fastClient(kubeconfig: string, logger?: Logger): Promise<Client> {
  const c = await connect({
    kubeconfigYaml: kubeconfig,
    rateLimit: { qps: 10_000, burst: 10_000 },
    maxRetries: 20,
    retryBackoff: { initialMs: 5, maxMs: 100, jitter: 0.5 },
    ...(logger ? { logger } : {}),
  });
  if (E.isLeft(c)) throw new Error(c.left.message);
  return c.right;
}

/** The running pieces of one chaos run. */
export interface Cluster {
  server(): ApiServer;
  readonly manager: Manager;
  /** The user's client (kubectl's role). */
  readonly user: Client;
  /** Objects of a resource in the server's storage, now. */
  objects(plural: "pods" | "podsets"): KubeObject[];
  /** Faults injected so far, over all server lifetimes. */
  faultCounts(): Record<string, number>;
  /** Stops the server and starts it again on the same port and data dir (faults kept). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

const waitFor = async (what: string, check: () => Promise<boolean> | boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** Starts a cluster; `onEvent` sees every committed server write (across restarts). */
export async function startCluster(options: {
  readonly faults: FaultOptions;
  readonly onEvent: (event: StoredEvent, cluster: Cluster) => void;
  readonly logger?: Logger;
}): Promise<Cluster> {
  const dataDir = await Deno.makeTempDir({ prefix: "kubefold-chaos-" });
  const serverOptions = {
    dataDir,
    simulation: { nodes: 3, podStartDelayMs: 0, kubeletDelayMs: 0, events: false },
  };
  let server = await startApiServer({ ...serverOptions, faults: { seed: options.faults.seed } });
  const port = Number(new URL(server.url).port);
  const user = await fastClient(server.kubeconfig);
  const crd = await user.apply(podSetCrd as unknown as KubeObject, {
    fieldManager: "chaos",
    force: true,
  });
  if (E.isLeft(crd)) throw new Error(crd.left.message);
  await waitFor("the PodSet CRD", async () => E.isRight(await user.list(podSetKind)));
  const managerClient = await fastClient(server.kubeconfig, options.logger);
  const manager = await startManager({
    client: managerClient,
    controllers: [podSetController],
    ...(options.logger ? { logger: options.logger } : {}),
  });
  await manager.ready;
  const info = (plural: string) =>
    plural === "pods"
      ? server.context.registry.lookup("", "v1", "pods")
      : server.context.registry.lookup("app.example.com", "v1alpha1", "podsets");
  let unsubscribe = () => {};
  let restarts = 0;
  const earlier: Record<string, number> = {};
  const total = () => {
    const now: Record<string, number> = { ...server.faults.counts() };
    for (const [k, v] of Object.entries(earlier)) now[k] = (now[k] ?? 0) + v;
    return now;
  };
  const cluster: Cluster = {
    server: () => server,
    manager,
    user,
    objects(plural) {
      const i = info(plural);
      return i ? server.context.storage.list(i.storageKey).map((s) => s.object) : [];
    },
    faultCounts: total,
    async restart() {
      const settings = server.faults.settings();
      Object.assign(earlier, total());
      earlier.restart = (earlier.restart ?? 0) + 1;
      unsubscribe();
      await server.close();
      await new Promise((r) => setTimeout(r, 30));
      server = await startApiServer({
        ...serverOptions,
        port,
        faults: { ...settings, seed: options.faults.seed + ++restarts },
      });
      subscribe();
    },
    async close() {
      unsubscribe();
      await manager.stop();
      managerClient.close();
      user.close();
      await server.close();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
  const subscribe = () => {
    unsubscribe = server.context.storage.hub.subscribeAll({
      deliver: (e) => options.onEvent(e, cluster),
    });
  };
  subscribe();
  server.faults.set(options.faults);
  return cluster;
}
