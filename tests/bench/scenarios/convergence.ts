/**
 * Scenario 3, convergence throughput: the time from creating N PodSets of R replicas to every
 * status reporting all replicas ready, against a baseline that sends the same N PodSet
 * creates, N x R pod creates and N status writes through the client with the same
 * concurrency and no controller (no cache, no queue, no reconciler).
 *
 * @module
 */
import type { KubeObject } from "../../../lib/core/object.ts";
import { ownerReference } from "../../../lib/reconcile/owner_reference.ts";
import { startManager } from "../../../lib/manager/start_manager.ts";
import { podSetController } from "../../../controllers/podset/mod.ts";
import { podSetStatus } from "../../../controllers/podset/podset_status.ts";
import {
  benchClient,
  type Cluster,
  must,
  podSet,
  pool,
  type Row,
  type Sizes,
  startCluster,
  Tracker,
} from "./_harness.ts";

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
async function baseline(cluster: Cluster, sizes: Sizes): Promise<number> {
  const { client } = cluster;
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

/** The controller: create the PodSets, wait until every status reports ready. */
async function controlled(cluster: Cluster, sizes: Sizes): Promise<number> {
  const managerClient = await benchClient(cluster.server);
  const manager = await startManager({
    client: managerClient,
    controllers: [{ ...podSetController, concurrency: sizes.concurrency }],
  });
  await manager.ready;
  const tracker = new Tracker(cluster);
  const t0 = performance.now();
  await pool(sizes.podSets, sizes.concurrency, async (i) => {
    must("create a PodSet", await cluster.client.create(podSet(i, sizes.replicas)));
  });
  await tracker.until("every PodSet is ready", () => tracker.ready === sizes.podSets);
  const ms = performance.now() - t0;
  tracker.close();
  await manager.stop();
  managerClient.close();
  return ms;
}

/** Runs scenario 3 (with a small warm-up of both sides first) and returns its rows. */
export async function convergenceScenario(sizes: Sizes): Promise<Row[]> {
  const warm = { ...sizes, podSets: Math.max(20, Math.round(sizes.podSets / 10)) };
  for (const run of [baseline, controlled]) {
    const c = await startCluster();
    await run(c, warm);
    await c.close();
  }
  const a = await startCluster();
  const base = await baseline(a, sizes);
  await a.close();
  const b = await startCluster();
  const ms = await controlled(b, sizes);
  await b.close();
  const pods = sizes.podSets * sizes.replicas;
  const ratio = ms / base;
  const name =
    `3 convergence (${sizes.podSets}x${sizes.replicas}, concurrency ${sizes.concurrency})`;
  return [
    {
      scenario: name,
      metric: "baseline: same creates + status writes via client",
      value: `${base.toFixed(0)} ms (${(pods / base * 1000).toFixed(0)} pods/s)`,
      target: "-",
    },
    {
      scenario: name,
      metric: "controller: create PodSets -> all statuses ready",
      value: `${ms.toFixed(0)} ms (${(pods / ms * 1000).toFixed(0)} pods/s)`,
      ratio,
      target: "<= 1.5x",
      pass: ratio <= 1.5,
    },
  ];
}
