/**
 * PersistentVolumeClaimResize through the real kubectl: `kubectl patch pvc` growing a bound
 * claim whose StorageClass does not allow expansion gets kube's 403; with
 * `allowVolumeExpansion: true` the same patch is accepted.
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../../lib/apiserver/mod.ts";
import { createKubectl, kubectlAvailable, ok } from "../_kubectl.ts";

const manifests = `
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fixed}
provisioner: example.com/disk
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: grow}
provisioner: example.com/disk
allowVolumeExpansion: true
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: small}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: fixed
  resources: {requests: {storage: 1Gi}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: big}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: grow
  resources: {requests: {storage: 1Gi}}
`;

Deno.test({
  name: "kubectl: patch pvc grows a claim only when its StorageClass allows expansion",
  ignore: !kubectlAvailable(),
  async fn() {
    const server = await startApiServer();
    const kubectl = await createKubectl(server.kubeconfig);
    try {
      ok(await kubectl.run(["apply", "-f", "-"], { stdin: manifests }), "apply");
      for (const name of ["small", "big"]) {
        const bind = ["patch", "pvc", name, "--subresource=status", "--type=merge"];
        ok(await kubectl.run([...bind, "-p", '{"status":{"phase":"Bound"}}']), `bind ${name}`);
      }
      const grow = (name: string) =>
        kubectl.run([
          "patch",
          "pvc",
          name,
          "-p",
          '{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}',
        ]);
      const refused = await grow("small");
      assert.equal(refused.code, 1);
      assert.equal(
        refused.stderr,
        'Error from server (Forbidden): persistentvolumeclaims "small" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize\n',
      );
      assert.equal(ok(await grow("big"), "grow big"), "persistentvolumeclaim/big patched\n");
      const size = ok(
        await kubectl.run([
          "get",
          "pvc",
          "big",
          "-o",
          "jsonpath={.spec.resources.requests.storage}",
        ]),
        "get",
      );
      assert.equal(size, "2Gi");
    } finally {
      await kubectl.dispose();
      await server.close();
    }
  },
});
