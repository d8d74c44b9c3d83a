/**
 * Scenario 1, reaction latency: with N PodSets of R pods converged, delete one pod at a time;
 * latency = from the delete's acknowledgement (the driver's `delete` resolves) to the
 * acknowledgement of the replacement's create (the manager's own `create` call resolves; the
 * manager runs on a client whose `create` is observed, nothing else changes).
 *
 * Baseline, interleaved with the samples in the same run: one create round trip (the driver
 * creates a bare pod and awaits the answer) plus one watch-event delivery (from the commit of
 * that pod at the server's watch hub to its delta arriving at an informer of the driver).
 *
 * @module
 */
import type { Subscription } from "../../../lib/deps.ts";
import { type Client, createInformers, E, type KubeObject, startManager } from "../../../mod.ts";
import { podSetController } from "../../../controllers/podset/mod.ts";
import {
  benchClient,
  must,
  podSet,
  pool,
  quantile,
  type Row,
  type Sizes,
  startCluster,
  Tracker,
} from "./_harness.ts";

const POD = { apiVersion: "v1", kind: "Pod" } as const;
const BASE_NS = "bench-baseline";

/** A client that reports every successful pod create's acknowledgement. */
function observedCreates(client: Client, onAck: (pod: KubeObject, at: number) => void): Client {
  const wrapped: Client = Object.create(client);
  return Object.assign(wrapped, {
    create: async <T extends KubeObject>(object: T, options?: Parameters<Client["create"]>[1]) => {
      const r = await client.create(object, options);
      if (E.isRight(r) && object.kind === "Pod") onAck(r.right, performance.now());
      return r;
    },
  });
}

/** Runs scenario 1 and returns its rows. */
export async function reactionLatencyScenario(sizes: Sizes, samples: number): Promise<Row[]> {
  const cluster = await startCluster();
  const { client } = cluster;
  const tracker = new Tracker(cluster);
  let waitingFor: { prefix: string; resolve: (at: number) => void } | undefined;
  const managerClient = observedCreates(await benchClient(cluster.server), (pod, at) => {
    if (waitingFor && pod.metadata!.name!.startsWith(waitingFor.prefix)) waitingFor.resolve(at);
  });
  const manager = await startManager({
    client: managerClient,
    controllers: [{ ...podSetController, concurrency: sizes.concurrency }],
  });
  await manager.ready;
  await pool(sizes.podSets, sizes.concurrency, async (i) => {
    must("create a PodSet", await client.create(podSet(i, sizes.replicas)));
  });
  await tracker.until("every PodSet is ready", () => tracker.ready === sizes.podSets);
  await tracker.quiet();

  // The baseline's informer: pods of its own namespace only.
  must(
    "create the baseline namespace",
    await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: BASE_NS } }),
  );
  const committed = new Map<string, number>();
  const delivered = new Map<string, (at: number) => void>();
  tracker.listeners.push((e) => {
    if (e.type === "ADDED" && e.object.metadata?.namespace === BASE_NS) {
      committed.set(e.object.metadata.name!, performance.now());
    }
  });
  const baseInf = createInformers(client).informer(POD, { namespace: BASE_NS });
  const sub: Subscription = baseInf.deltas$.subscribe((d) => {
    if (d.type === "Added") delivered.get(d.object.metadata!.name!)?.(performance.now());
  });
  await new Promise<void>((r) => baseInf.synced$.subscribe(() => r()));

  const podsKey = cluster.podsKey;
  const storage = cluster.server.context.storage;
  const baseline: number[] = [];
  const latency: number[] = [];
  for (let k = 0; k < samples; k++) {
    // Baseline sample: create round trip + one watch-event delivery.
    const name = `base-${k}`;
    const arrived = new Promise<number>((r) => delivered.set(name, r));
    const t0 = performance.now();
    must(
      "create a baseline pod",
      await client.create({
        ...POD,
        metadata: { name, namespace: BASE_NS },
        spec: { containers: [{ name: "web", image: "nginx:1.27" }] },
      }),
    );
    const rtt = performance.now() - t0;
    const delivery = (await arrived) - committed.get(name)!;
    baseline.push(rtt + delivery);
    await tracker.quiet(10);

    // Controller sample: delete one pod of a PodSet, wait for the replacement's create ack.
    const owner = `ps-${(k * 7) % sizes.podSets}`;
    const victim = storage.list(podsKey, "default").find((s) =>
      s.object.metadata!.name!.startsWith(`${owner}-`) && !s.object.metadata!.deletionTimestamp
    )!.object.metadata!.name!;
    const replaced = new Promise<number>((resolve) =>
      waitingFor = { prefix: `${owner}-`, resolve }
    );
    must("delete a pod", await client.delete(POD, victim, { namespace: "default" }));
    const deletedAt = performance.now();
    latency.push((await replaced) - deletedAt);
    waitingFor = undefined;
    await tracker.until(
      `${owner} is ready again`,
      () =>
        tracker.ready === sizes.podSets &&
        tracker.pods === sizes.podSets * sizes.replicas + k + 1,
    );
    await tracker.quiet(10);
  }
  sub.unsubscribe();
  tracker.close();
  await manager.stop();
  managerClient.close();
  await cluster.close();

  const base50 = quantile(baseline, 0.5);
  const p50 = quantile(latency, 0.5), p99 = quantile(latency, 0.99);
  const name = `1 reaction latency (${sizes.podSets}x${sizes.replicas}, ${samples} deletes)`;
  return [
    {
      scenario: name,
      metric: "baseline: create RTT + watch delivery (p50 / p99)",
      value: `${base50.toFixed(2)} / ${quantile(baseline, 0.99).toFixed(2)} ms`,
      target: "-",
    },
    {
      scenario: name,
      metric: "delete ack -> replacement create ack, p50",
      value: `${p50.toFixed(2)} ms`,
      ratio: p50 / base50,
      target: "<= 3x",
      pass: p50 / base50 <= 3,
    },
    {
      scenario: name,
      metric: "delete ack -> replacement create ack, p99",
      value: `${p99.toFixed(2)} ms`,
      ratio: p99 / base50,
      target: "<= 10x",
      pass: p99 / base50 <= 10,
    },
  ];
}
