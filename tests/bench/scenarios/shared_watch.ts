/**
 * Scenario 5, many controllers, one watch: five controllers of one manager all read pods (as
 * owned children, as their primary, or through a watch trigger); the server must see exactly
 * one pod LIST and one pod WATCH, before and after the cluster did some work.
 *
 * @module
 */
import { controller, E, labelsOrAnnotationsChanged, startManager } from "../../../mod.ts";
import { podSetController } from "../../../controllers/podset/mod.ts";
import {
  benchClient,
  must,
  podSet,
  pool,
  type Row,
  type Sizes,
  startCluster,
  Tracker,
} from "./_harness.ts";

const POD = { apiVersion: "v1", kind: "Pod" };
const noop = () => E.right({ ops: [] });

/** The five pod readers. */
const readers = (concurrency: number) => [
  { ...podSetController, concurrency },
  controller({ name: "pod-primary", for: POD, reconcile: noop }),
  controller({
    name: "podset-audit",
    for: { apiVersion: "app.example.com/v1alpha1", kind: "PodSet" },
    owns: [POD],
    reconcile: noop,
  }),
  controller({
    name: "configmap-by-pod",
    for: { apiVersion: "v1", kind: "ConfigMap" },
    watches: [{ resource: POD, keys: (p) => [`${p.metadata?.namespace}/pods-seen`] }],
    reconcile: noop,
  }),
  controller({
    name: "pod-labels",
    for: POD,
    filter: labelsOrAnnotationsChanged,
    reconcile: noop,
  }),
];

/** Runs scenario 5 and returns its rows. */
export async function sharedWatchScenario(sizes: Sizes): Promise<Row[]> {
  const cluster = await startCluster();
  const tracker = new Tracker(cluster);
  const managerClient = await benchClient(cluster.server);
  const manager = await startManager({
    client: managerClient,
    controllers: readers(sizes.concurrency),
  });
  await manager.ready;
  const atSync = cluster.server.requestCounts();
  const n = Math.min(100, sizes.podSets);
  await pool(n, sizes.concurrency, async (i) => {
    must("create a PodSet", await cluster.client.create(podSet(i, sizes.replicas)));
  });
  await tracker.until("every PodSet is ready", () => tracker.ready === n);
  await tracker.quiet(200);
  const after = cluster.server.requestCounts();
  tracker.close();
  await manager.stop();
  managerClient.close();
  await cluster.close();
  const scenario = `5 five pod readers, one manager (${n}x${sizes.replicas} after sync)`;
  const got = (c: Record<string, number>) =>
    `${c["list pods"] ?? 0} list, ${c["watch pods"] ?? 0} watch`;
  const ok = (c: Record<string, number>) => c["list pods"] === 1 && c["watch pods"] === 1;
  return [
    {
      scenario,
      metric: "pod requests at the server once synced",
      value: got(atSync),
      target: "1 list, 1 watch",
      pass: ok(atSync),
    },
    {
      scenario,
      metric: "pod requests at the server after the work",
      value: got(after),
      target: "1 list, 1 watch",
      pass: ok(after),
    },
  ];
}
