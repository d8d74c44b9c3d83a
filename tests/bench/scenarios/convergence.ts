/**
 * Scenario 3, convergence throughput: the time from creating N PodSets of R replicas to every
 * status reporting all replicas ready, against a baseline that sends the same N PodSet
 * creates, N x R pod creates and N status writes through the client with the same
 * concurrency and no controller (no cache, no queue, no reconciler).
 *
 * Measured in two topologies of one process. The target row (median of three runs of each
 * side) runs the API server on a worker thread (as in a real deployment, the server's CPU is not the controller's). The second puts
 * server and manager on one JavaScript thread, where every watch event's encoding is charged
 * to the controller; its "floor" row is the baseline plus two bare watches (fetch + JSON.parse,
 * no cache, no controller): the least any informer-based controller could add there.
 *
 * @module
 */
import { type Client, type KubeObject, ownerReference, startManager } from "../../../mod.ts";
import { createLineDecoder } from "../../../lib/watch/create_line_decoder.ts";
import { podSetController } from "../../../controllers/podset/mod.ts";
import { podSetStatus } from "../../../controllers/podset/podset_status.ts";
import {
  benchClient,
  type Cluster,
  must,
  podSet,
  pool,
  quantile,
  type Row,
  type Sizes,
  startCluster,
  Tracker,
} from "./_harness.ts";
import { startClusterThread } from "./_cluster_thread.ts";

/** The pod the PodSet controller would create for `owner`. */
function podFor(owner: KubeObject, n: number): KubeObject {
  const spec = owner.spec as { template: { metadata: { labels: Record<string, string> } } };
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: `${owner.metadata!.name}-b${n}`,
      namespace: owner.metadata!.namespace,
      labels: { ...spec.template.metadata.labels },
      ownerReferences: [ownerReference(owner as never)],
    },
    spec: (owner.spec as { template: { spec: unknown } }).template.spec as never,
  };
}

/** The baseline: the same writes, straight through the client. Returns the time in ms. */
async function baseline(client: Client, sizes: Sizes): Promise<number> {
  const t0 = performance.now();
  await pool(sizes.podSets, sizes.concurrency, async (i) => {
    const ps = must("create a PodSet", await client.create(podSet(i, sizes.replicas)));
    const pods = await Promise.all(
      Array.from({ length: sizes.replicas }, (_, n) => client.create(podFor(ps, n))),
    );
    const names = pods.map((p) => must("create a pod", p).metadata!.name!);
    const status = podSetStatus({
      observed: undefined,
      podNames: names,
      readyReplicas: sizes.replicas,
      desired: sizes.replicas,
      selector: `app=ps-${i}`,
      generation: 1,
      now: Date.now(),
    });
    must(
      "write a status",
      await client.patch(ps as never, ps.metadata!.name!, {
        namespace: "default",
        subresource: "status",
        patch: { type: "merge", body: { status } },
      }),
    );
  });
  return performance.now() - t0;
}

/** What a run needs from a cluster, wherever it runs. */
interface Target {
  readonly driver: Client;
  client(): Promise<Client>;
  untilReady(n: number): Promise<void>;
}

/** The controller: create the PodSets, wait until every status reports ready. */
async function controlled(target: Target, sizes: Sizes): Promise<number> {
  const managerClient = await target.client();
  const manager = await startManager({
    client: managerClient,
    controllers: [{ ...podSetController, concurrency: sizes.concurrency }],
  });
  await manager.ready;
  const t0 = performance.now();
  const ready = target.untilReady(sizes.podSets);
  await pool(sizes.podSets, sizes.concurrency, async (i) => {
    must("create a PodSet", await target.driver.create(podSet(i, sizes.replicas)));
  });
  await ready;
  const ms = performance.now() - t0;
  await manager.stop();
  managerClient.close();
  return ms;
}

/** The baseline plus a bare pod watch and PodSet watch that parse every event. */
async function baselineWithBareWatches(cluster: Cluster, sizes: Sizes): Promise<number> {
  const watcher = await benchClient(cluster.server);
  const seen = new Map<string, number>();
  const tracker = new Tracker(cluster);
  const last = new Map<string, number>();
  tracker.listeners.push((e) => last.set(e.storageKey, e.rv));
  const kinds = [
    { key: cluster.podsKey, kind: { apiVersion: "v1", kind: "Pod" } },
    { key: cluster.podSetsKey, kind: { apiVersion: "app.example.com/v1alpha1", kind: "PodSet" } },
  ];
  let progress = () => {};
  const readers = await Promise.all(kinds.map(async ({ key, kind }) => {
    const reader = must("watch", await watcher.watch(kind, { resourceVersion: "0" })).getReader();
    const decoder = createLineDecoder();
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        decoder.push(value, (line) => {
          const e = JSON.parse(line) as { object: KubeObject };
          seen.set(key, Number(e.object.metadata?.resourceVersion));
        });
        progress();
      }
    })().catch(() => {});
    return reader;
  }));
  const t0 = performance.now();
  await baseline(cluster.client, sizes);
  const caughtUp = () => kinds.every(({ key }) => (seen.get(key) ?? 0) >= (last.get(key) ?? 0));
  await new Promise<void>((resolve) => {
    progress = () => caughtUp() && resolve();
    progress();
  });
  const ms = performance.now() - t0;
  tracker.close();
  await Promise.all(readers.map((r) => r.cancel()));
  watcher.close();
  return ms;
}

/** A cluster on this thread, as a {@link Target}. */
function sameThread(cluster: Cluster): Target {
  return {
    driver: cluster.client,
    client: () => benchClient(cluster.server),
    async untilReady(n) {
      const tracker = new Tracker(cluster);
      await tracker.until("every PodSet is ready", () => tracker.ready === n);
      tracker.close();
    },
  };
}

async function onThread(run: (t: Target) => Promise<number>): Promise<number> {
  const cluster = await startClusterThread();
  const driver = await cluster.client();
  const ms = await run({ ...cluster, driver, untilReady: (n) => cluster.untilReady(n) });
  driver.close();
  await cluster.close();
  return ms;
}

async function onSameThread(run: (c: Cluster) => Promise<number>): Promise<number> {
  const cluster = await startCluster();
  const ms = await run(cluster);
  await cluster.close();
  return ms;
}

const ms = (x: number) => `${x.toFixed(0)} ms`;

/** Runs scenario 3 in both topologies (each side warmed up first) and returns its rows. */
export async function convergenceScenario(sizes: Sizes): Promise<Row[]> {
  const warm = { ...sizes, podSets: Math.max(20, Math.round(sizes.podSets / 10)) };
  const pods = sizes.podSets * sizes.replicas;
  const name = (where: string) =>
    `3 convergence (${sizes.podSets}x${sizes.replicas}, concurrency ${sizes.concurrency}), ${where}`;

  // Same-thread runs first: the threaded ones leave garbage on this isolate's heap.
  await onSameThread((c) => baseline(c.client, warm));
  await onSameThread((c) => controlled(sameThread(c), warm));
  const base = await onSameThread((c) => baseline(c.client, sizes));
  const floor = await onSameThread((c) => baselineWithBareWatches(c, sizes));
  const single = await onSameThread((c) => controlled(sameThread(c), sizes));

  await onThread((t) => baseline(t.driver, warm));
  await onThread((t) => controlled(t, warm));
  // The target row: the median of three alternating runs of each side.
  const bases: number[] = [], runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    bases.push(await onThread((t) => baseline(t.driver, sizes)));
    runs.push(await onThread((t) => controlled(t, sizes)));
  }
  const threadBase = quantile(bases, 0.5), threadMs = quantile(runs, 0.5);

  const threaded = name("server on its own thread");
  const shared = name("server on the manager's thread");
  return [
    {
      scenario: threaded,
      metric: "baseline: same creates + status writes via client",
      value: `${ms(threadBase)} (${(pods / threadBase * 1000).toFixed(0)} pods/s), median of 3`,
      target: "-",
    },
    {
      scenario: threaded,
      metric: "controller: create PodSets -> all statuses ready",
      value: `${ms(threadMs)} (${(pods / threadMs * 1000).toFixed(0)} pods/s), median of 3`,
      ratio: threadMs / threadBase,
      target: "<= 1.5x",
      pass: threadMs / threadBase <= 1.5,
    },
    {
      scenario: shared,
      metric: "baseline: same creates + status writes via client",
      value: ms(base),
      target: "-",
    },
    {
      scenario: shared,
      metric: "floor: baseline + a bare pod and PodSet watch",
      value: ms(floor),
      ratio: floor / base,
      target: "-",
    },
    {
      scenario: shared,
      metric: "controller: create PodSets -> all statuses ready",
      value: ms(single),
      ratio: single / base,
      target: "-",
    },
  ];
}
