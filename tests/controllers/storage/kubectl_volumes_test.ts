/**
 * Volumes on the embedded cluster through the real kubectl: the default `standard` class
 * provisions claims when their first pod is scheduled (WaitForFirstConsumer), static volumes
 * bind to fitting claims, reclaim policies apply when claims go, and a pod whose claim cannot
 * be bound stays Pending with kube-scheduler's reason.
 */
import assert from "node:assert/strict";
import { createKubectl, kubectlAvailable } from "../../apiserver/_kubectl.ts";
import { startCluster } from "../../../lib/cluster/mod.ts";

const manifests = `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 2
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres:16, volumeMounts: [{name: data, mountPath: /var/lib/postgresql}]}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: immediate}
provisioner: kubefold.dev/local-path
volumeBindingMode: Immediate
reclaimPolicy: Retain
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: logs}
spec: {storageClassName: immediate, accessModes: [ReadWriteOnce], resources: {requests: {storage: 2Gi}}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: manual}
spec: {storageClassName: "", accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: v1
kind: Pod
metadata: {name: reader}
spec:
  containers: [{name: c, image: busybox}]
  volumes: [{name: v, persistentVolumeClaim: {claimName: manual}}]
`;

const staticVolume = `
apiVersion: v1
kind: PersistentVolume
metadata: {name: static-1}
spec: {capacity: {storage: 5Gi}, accessModes: [ReadWriteOnce], persistentVolumeReclaimPolicy: Retain, hostPath: {path: /data/1}}
`;

Deno.test({
  name:
    "claims are provisioned for their first pod, static volumes bind, reclaim policies apply, unbound claims keep pods Pending",
  ignore: !kubectlAvailable(),
  fn: async () => {
    const cluster = await startCluster({
      simulation: { nodes: 3, podStartDelayMs: 0, kubeletDelayMs: 0 },
    });
    const kubectl = await createKubectl(cluster.kubeconfig);
    const ok = async (args: string[], stdin?: string) => {
      const r = await kubectl.run(args, { stdin, timeoutMs: 30_000 });
      assert.equal(r.code, 0, `kubectl ${args.join(" ")}: ${r.stderr}`);
      return r.stdout;
    };
    try {
      assert.match(
        await ok(["get", "sc"]),
        /standard \(default\)\s+kubefold\.dev\/local-path\s+Delete\s+WaitForFirstConsumer/,
      );
      await ok(["apply", "-f", "-"], manifests);
      await ok(["rollout", "status", "sts/db", "--timeout=20s"]);
      const pvc = await ok([
        "get",
        "pvc",
        "data-db-0",
        "-o",
        "jsonpath={.spec.storageClassName} {.status.phase} {.spec.volumeName} {.metadata.annotations.volume\\.kubernetes\\.io/selected-node}",
      ]);
      const [cls, phase, volume, node] = pvc.split(" ");
      assert.deepEqual([cls, phase], ["standard", "Bound"]);
      assert.equal(
        await ok(["get", "pod", "db-0", "-o", "jsonpath={.spec.nodeName}"]),
        node,
        "the pod runs where its volume was provisioned",
      );
      assert.match(
        await ok(["get", "pv", volume]),
        new RegExp(`1Gi\\s+RWO\\s+Delete\\s+Bound\\s+default/data-db-0\\s+standard`),
      );
      await ok(["wait", "--for=jsonpath={.status.phase}=Bound", "pvc/logs", "--timeout=20s"]);
      const logsVolume = await ok(["get", "pvc", "logs", "-o", "jsonpath={.spec.volumeName}"]);

      await ok(["wait", "--for=condition=PodScheduled=False", "pod/reader", "--timeout=20s"]);
      const described = await ok(["describe", "pod", "reader"]);
      assert.match(
        described,
        /FailedScheduling\s+\S+\s+default-scheduler\s+0\/3 nodes are available: pod has unbound immediate PersistentVolumeClaims\. preemption: 0\/3 nodes are available: 3 Preemption is not helpful for scheduling\./,
      );
      await ok(["apply", "-f", "-"], staticVolume);
      await ok(["wait", "--for=jsonpath={.status.phase}=Bound", "pvc/manual", "--timeout=20s"]);
      assert.equal(
        await ok(["get", "pvc", "manual", "-o", "jsonpath={.spec.volumeName}"]),
        "static-1",
      );
      await ok(["wait", "--for=condition=Ready", "pod/reader", "--timeout=20s"]);

      await ok(["delete", "pod", "reader"]);
      await ok(["delete", "pvc", "manual", "logs"]);
      await ok(["wait", "--for=jsonpath={.status.phase}=Released", "pv/static-1", "--timeout=20s"]);
      await ok(["delete", "sts", "db"]);
      await ok(["delete", "pvc", "data-db-0"]);
      await ok(["wait", "--for=delete", `pv/${volume}`, "--timeout=20s"]);
      await ok([
        "wait",
        "--for=jsonpath={.status.phase}=Released",
        `pv/${logsVolume}`,
        "--timeout=20s",
      ]);
      assert.match(
        await ok(["get", "pv", logsVolume]),
        /2Gi\s+RWO\s+Retain\s+Released\s+default\/logs\s+immediate/,
        "Retain keeps a provisioned volume",
      );
    } finally {
      await kubectl.dispose();
      await cluster.close();
    }
  },
});
