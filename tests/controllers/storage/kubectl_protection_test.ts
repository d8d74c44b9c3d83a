/**
 * Storage object in-use protection on the embedded cluster through the real kubectl: a created
 * claim and its provisioned volume carry their protection finalizers; a claim deleted while a
 * pod uses it stays Terminating (so does its Bound volume) until the pod is gone.
 */
import assert from "node:assert/strict";
import { createKubectl, kubectlAvailable } from "../../apiserver/_kubectl.ts";
import { startCluster } from "../../../lib/cluster/mod.ts";

const claim = `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`;
const pod = `
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers: [{name: c, image: nginx, volumeMounts: [{name: v, mountPath: /data}]}]
  volumes: [{name: v, persistentVolumeClaim: {claimName: data}}]
`;

Deno.test({
  name:
    "a claim in use stays Terminating with kubernetes.io/pvc-protection until its pod is deleted; its Bound volume too",
  ignore: !kubectlAvailable(),
  fn: async () => {
    const cluster = await startCluster({
      simulation: { nodes: 1, podStartDelayMs: 0, kubeletDelayMs: 0 },
    });
    const kubectl = await createKubectl(cluster.kubeconfig);
    const ok = async (args: string[], stdin?: string) => {
      const r = await kubectl.run(args, { stdin, timeoutMs: 30_000 });
      assert.equal(r.code, 0, `kubectl ${args.join(" ")}: ${r.stderr}`);
      return r.stdout;
    };
    const get = (kind: string, name: string, path: string) =>
      ok(["get", kind, name, "-o", `jsonpath={${path}}`]);
    try {
      await ok(["create", "-f", "-"], claim);
      assert.equal(
        await get("pvc", "data", ".metadata.finalizers"),
        '["kubernetes.io/pvc-protection"]',
      );
      await ok(["create", "-f", "-"], pod);
      await ok(["wait", "--for=condition=Ready", "pod/web", "--timeout=20s"]);
      const volume = await get("pvc", "data", ".spec.volumeName");
      assert.equal(
        await get("pv", volume, ".metadata.finalizers"),
        '["kubernetes.io/pv-protection"]',
      );

      await ok(["delete", "pvc", "data", "--wait=false"]);
      await ok(["delete", "pv", volume, "--wait=false"]);
      // Another event in the namespace wakes the controller: the pod still uses the claim.
      await ok(["label", "pod", "web", "touched=yes"]);
      assert.match(await ok(["get", "pvc", "data"]), /data\s+Terminating\s/);
      assert.match(
        await ok(["get", "pv", volume]),
        new RegExp(`${volume}\\s+1Gi\\s+RWO\\s+Delete\\s+Terminating\\s`),
      );
      assert.equal(await get("pv", volume, ".status.phase"), "Bound");

      // The pod goes: the claim goes; its volume is Released, so it goes too.
      const watch = kubectl.spawn(["get", "pvc", "data", "-w", "--output-watch-events"]);
      try {
        // The watch has the claim before the pod goes (else its first GET may find none).
        await watch.readUntil((out) => /ADDED\s+data\s/.test(out), 20_000);
        await ok(["delete", "pod", "web", "--timeout=20s"]);
        await watch.readUntil((out) => /DELETED\s+data\s/.test(out), 20_000);
      } finally {
        await watch.stop();
      }
      await ok(["wait", "--for=delete", `pv/${volume}`, "--timeout=20s"]);
    } finally {
      await kubectl.dispose();
      await cluster.close();
    }
  },
});
