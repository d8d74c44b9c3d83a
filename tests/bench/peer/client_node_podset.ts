/**
 * The peer of the benchmarks: the PodSet controller written on `@kubernetes/client-node` the
 * way a TypeScript user writes one today — two informers (`makeInformer`), a workqueue that
 * dedups keys with a Set, N async workers, errors retried after a second. Its logic is
 * kubefold's PodSet's (keep `spec.replicas` active owned pods, replace finished ones, report
 * the same status, write it only when it changed); pods get `generateName` names.
 *
 *   deno run -A --lock=tests/deno.lock tests/bench/peer/client_node_podset.ts KUBECONFIG [WORKERS]
 *
 * Prints `ready` once both informers have listed, then runs until SIGTERM.
 *
 * @module
 */
// Test-only dependency, pinned exactly.
// deno-lint-ignore no-import-prefix
import * as k8s from "npm:@kubernetes/client-node@2.0.1";
import { podSetStatus } from "../../../controllers/podset/podset_status.ts";
import { isPodFinished, podDeletionOrder } from "../../../controllers/podset/pod_state.ts";
import { isPodReady } from "../../../lib/reconcile/is_pod_ready.ts";
import { deepEqual } from "../../../lib/core/deep_equal.ts";
import type { Pod, PodSet } from "../../../controllers/podset/types.ts";

const [kubeconfigPath, workersArg] = Deno.args;
const workers = Number(workersArg ?? 4);
const group = "app.example.com", version = "v1alpha1", plural = "podsets";

const kc = new k8s.KubeConfig();
kc.loadFromFile(kubeconfigPath);
const core = kc.makeApiClient(k8s.CoreV1Api);
const custom = kc.makeApiClient(k8s.CustomObjectsApi);
const mergePatch = k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch);

const podSets = k8s.makeInformer<k8s.KubernetesObject>(
  kc,
  `/apis/${group}/${version}/${plural}`,
  () => custom.listClusterCustomObject({ group, version, plural }),
);
const pods = k8s.makeInformer<k8s.V1Pod>(kc, "/api/v1/pods", () => core.listPodForAllNamespaces());

// The workqueue: a FIFO of keys, deduplicated by a Set while they wait.
const queue: string[] = [];
const queued = new Set<string>();
const idle: (() => void)[] = [];
function enqueue(key: string): void {
  if (queued.has(key)) return;
  queued.add(key);
  queue.push(key);
  idle.shift()?.();
}
const keyOf = (o: k8s.KubernetesObject) => `${o.metadata?.namespace}/${o.metadata?.name}`;

podSets.on("add", (ps) => enqueue(keyOf(ps)));
podSets.on("update", (ps) => enqueue(keyOf(ps)));
const onPod = (pod: k8s.V1Pod) => {
  const owner = pod.metadata?.ownerReferences?.find((r) => r.controller && r.kind === "PodSet");
  if (owner) enqueue(`${pod.metadata?.namespace}/${owner.name}`);
};
pods.on("add", onPod);
pods.on("update", onPod);
pods.on("delete", onPod);
for (const inf of [podSets, pods]) {
  // client-node stops a watch on error; restart it, as its README shows.
  inf.on("error", () => setTimeout(() => inf.start().catch(() => {}), 1000));
}

async function reconcile(key: string): Promise<void> {
  const [namespace, name] = key.split("/");
  const ps = podSets.get(name, namespace) as unknown as PodSet | undefined;
  const uid = ps?.metadata?.uid;
  if (!ps || !uid || ps.metadata?.deletionTimestamp) return;
  const owned = pods.list(namespace).filter((p) =>
    p.metadata?.ownerReferences?.some((r) => r.controller && r.uid === uid) &&
    !p.metadata?.deletionTimestamp
  ) as Pod[];
  const finished = owned.filter((p) => isPodFinished(p));
  const active = owned.filter((p) => !isPodFinished(p));
  const want = ps.spec?.replicas ?? 1;
  const extra = active.length > want
    ? [...active].sort(podDeletionOrder).slice(0, active.length - want)
    : [];
  await Promise.all([...finished, ...extra].map(async (p) => {
    try {
      await core.deleteNamespacedPod({ name: p.metadata!.name!, namespace });
    } catch (e) {
      if ((e as { code?: number }).code !== 404) throw e;
    }
  }));
  const created = await Promise.all(
    Array.from({ length: Math.max(0, want - active.length) }, () =>
      core.createNamespacedPod({
        namespace,
        body: {
          apiVersion: "v1",
          kind: "Pod",
          metadata: {
            generateName: `${name}-`,
            namespace,
            labels: { ...ps.spec.template.metadata?.labels },
            ownerReferences: [{
              apiVersion: `${group}/${version}`,
              kind: "PodSet",
              name,
              uid,
              controller: true,
              blockOwnerDeletion: true,
            }],
          },
          spec: ps.spec.template.spec as k8s.V1PodSpec,
        },
      })),
  );
  const kept = active.filter((p) => !extra.includes(p));
  const status = podSetStatus({
    observed: ps.status,
    podNames: [...kept, ...created].map((p) => p.metadata?.name ?? ""),
    readyReplicas: kept.filter((p) => isPodReady(p)).length,
    desired: want,
    selector: Object.entries(ps.spec.selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`)
      .join(","),
    ...(ps.metadata?.generation !== undefined ? { generation: ps.metadata.generation } : {}),
    now: Date.now(),
  });
  if (!deepEqual(status, ps.status)) {
    await custom.patchNamespacedCustomObjectStatus(
      { group, version, namespace, plural, name, body: { status } },
      mergePatch,
    );
  }
}

async function worker(): Promise<void> {
  for (;;) {
    const key = queue.shift();
    if (key === undefined) {
      await new Promise<void>((r) => idle.push(r));
      continue;
    }
    queued.delete(key);
    try {
      await reconcile(key);
    } catch {
      setTimeout(() => enqueue(key), 1000);
    }
  }
}

Deno.addSignalListener("SIGTERM", () => Deno.exit(0));
await Promise.all([podSets.start(), pods.start()]);
console.log("ready");
await Promise.all(Array.from({ length: workers }, worker));
