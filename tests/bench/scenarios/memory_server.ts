/**
 * The server process of scenario 4: an embedded API server without simulation, the PodSet
 * CRD, and N pods written straight through the server's write path (create, then a status
 * update by "kubelet", so each pod carries two managedFields entries like a real one).
 * Prints one JSON line: `{ url, pods, jsonBytes, strippedJsonBytes, seedMs }` (bytes are the
 * average JSON size of a pod as the server sends it, with and without managedFields), then
 * serves until killed.
 *
 *   deno run -A tests/bench/scenarios/memory_server.ts 100000
 *
 * @module
 */
import type { KubeObject } from "../../../mod.ts";
import { startApiServer } from "../../../lib/apiserver/mod.ts";
import { createObject, updateObject } from "../../../lib/apiserver/object_write.ts";
import { podSetCrd } from "../../../controllers/podset/mod.ts";

const pods = Number(Deno.args[0] ?? 100_000);
const server = await startApiServer({ simulation: false, gc: false, historySize: 1_000 });
const ctx = server.context;
const crdInfo = ctx.registry.lookup("apiextensions.k8s.io", "v1", "customresourcedefinitions")!;
createObject(ctx, crdInfo, undefined, structuredClone(podSetCrd));
const podInfo = ctx.registry.lookup("", "v1", "pods")!;
const t0 = performance.now();
for (let i = 0; i < pods; i++) {
  const app = `app-${i % 500}`;
  const pod: KubeObject = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: `${app}-${i.toString(36).padStart(5, "0")}`,
      namespace: `ns-${i % 20}`,
      labels: { app, tier: i % 2 ? "web" : "worker" },
      ownerReferences: [{
        apiVersion: "apps/v1",
        kind: "ReplicaSet",
        name: `${app}-rs`,
        uid: `00000000-0000-4000-8000-${String(i % 500).padStart(12, "0")}`,
        controller: true,
        blockOwnerDeletion: true,
      }],
    },
    spec: {
      nodeName: `node-${i % 50}`,
      containers: [{
        name: "main",
        image: `registry.example.com/${app}:v1.4.2`,
        ports: [{ containerPort: 8080, protocol: "TCP" }],
        resources: { requests: { cpu: "100m", memory: "128Mi" } },
      }],
    },
  };
  const ns = pod.metadata!.namespace!;
  if (i < 20) {
    const nsInfo = ctx.registry.lookup("", "v1", "namespaces")!;
    createObject(ctx, nsInfo, undefined, {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: ns },
    });
  }
  const created = createObject(ctx, podInfo, ns, pod, { fieldManager: "kube-controller-manager" })
    .object;
  const time = new Date(1_700_000_000_000 + i * 1000).toISOString().replace(/\.\d+Z$/, "Z");
  updateObject(ctx, podInfo, ns, created.metadata!.name!, {
    ...created,
    status: {
      phase: "Running",
      conditions: ["Initialized", "Ready", "ContainersReady", "PodScheduled"].map((type) => ({
        type,
        status: "True",
        lastProbeTime: null,
        lastTransitionTime: time,
      })),
      hostIP: `10.1.${i % 50}.1`,
      podIP: `10.2.${(i >> 8) & 255}.${i & 255}`,
      startTime: time,
      containerStatuses: [{
        name: "main",
        ready: true,
        restartCount: 0,
        image: `registry.example.com/${app}:v1.4.2`,
        imageID: `sha256:${"ab".repeat(32)}`,
        started: true,
        state: { running: { startedAt: time } },
      }],
    },
  }, { subresource: "status", unconditional: true, fieldManager: "kubelet" });
}
const seedMs = performance.now() - t0;
let json = 0, stripped = 0;
for (const s of ctx.storage.list(podInfo.storageKey)) {
  const o = s.object;
  json += JSON.stringify(o).length;
  const { managedFields: _, ...meta } = o.metadata!;
  stripped += JSON.stringify({ ...o, metadata: meta }).length;
}
console.log(JSON.stringify({
  url: server.url,
  pods,
  jsonBytes: json / pods,
  strippedJsonBytes: stripped / pods,
  seedMs,
}));
