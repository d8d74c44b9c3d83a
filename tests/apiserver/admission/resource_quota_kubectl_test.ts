/**
 * ResourceQuota through the real kubectl: object-count quotas refuse the create one over the
 * limit with kube's 403 (the namespace's kube-root-ca.crt ConfigMap counts, as in kube), a
 * compute quota refuses a pod without limits, and `status.used` follows the namespace; a claim
 * resized over quota, a Service switched to NodePort and a claim over its storage class's
 * quota are refused with kube's 403.
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../../lib/apiserver/mod.ts";
import { createKubectl, kubectlAvailable, ok } from "../_kubectl.ts";

const pod = (name: string, resources: string) => `
apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  containers:
  - name: app
    image: nginx
    resources: ${resources}
  - name: side
    image: nginx
    resources: ${resources}
`;
const forbidden = (what: string) =>
  `Error from server (Forbidden): error when creating "STDIN": ${what}\n`;

Deno.test({
  name: "kubectl: ResourceQuota counts objects and compute, refuses over it, reports status.used",
  ignore: !kubectlAvailable(),
  async fn() {
    const server = await startApiServer();
    const kubectl = await createKubectl(server.kubeconfig);
    try {
      ok(await kubectl.run(["create", "quota", "q", "--hard=pods=1,count/configmaps=2"]), "quota");
      ok(await kubectl.run(["run", "p1", "--image=nginx"]), "run p1");
      const p2 = await kubectl.run(["run", "p2", "--image=nginx"]);
      assert.equal(p2.code, 1);
      assert.equal(
        p2.stderr,
        'Error from server (Forbidden): pods "p2" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1\n',
      );
      // kube-root-ca.crt is the first ConfigMap: one more fits, the next does not.
      ok(await kubectl.run(["create", "configmap", "c1"]), "configmap c1");
      const c2 = await kubectl.run(["create", "configmap", "c2"]);
      assert.equal(c2.code, 1);
      assert.equal(
        c2.stderr,
        'error: failed to create configmap: configmaps "c2" is forbidden: exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=2, limited: count/configmaps=2\n',
      );
      const q = JSON.parse(ok(await kubectl.run(["get", "quota", "q", "-o", "json"]), "get"));
      assert.deepEqual(q.status, {
        hard: { "count/configmaps": "2", pods: "1" },
        used: { "count/configmaps": "2", pods: "1" },
      });
      ok(await kubectl.run(["delete", "pod", "p1", "--wait=false"]), "delete p1");
      const after = JSON.parse(ok(await kubectl.run(["get", "quota", "q", "-o", "json"]), "get"));
      assert.equal(after.status.used.pods, "0");

      ok(
        await kubectl.run([
          "create",
          "quota",
          "compute",
          "--hard=limits.cpu=2,requests.memory=1Gi",
        ]),
        "compute quota",
      );
      const bare = await kubectl.run(["apply", "-f", "-"], {
        stdin: pod("bare", "{requests: {cpu: 100m}}"),
      });
      assert.equal(bare.code, 1);
      assert.equal(
        bare.stderr,
        forbidden(
          'pods "bare" is forbidden: failed quota: compute: must specify limits.cpu for: app,side; requests.memory for: app,side',
        ),
      );
      ok(
        await kubectl.run(["apply", "-f", "-"], {
          stdin: pod("a", "{limits: {cpu: 750m, memory: 256Mi}}"),
        }),
        "pod a",
      );
      const b = await kubectl.run(["apply", "-f", "-"], {
        stdin: pod("b", "{limits: {cpu: 500m, memory: 128Mi}}"),
      });
      assert.equal(b.code, 1);
      assert.equal(
        b.stderr,
        forbidden(
          'pods "b" is forbidden: exceeded quota: compute, requested: limits.cpu=1, used: limits.cpu=1500m, limited: limits.cpu=2',
        ),
      );
      const described = ok(await kubectl.run(["describe", "quota", "compute"]), "describe");
      assert.match(described, /limits\.cpu\s+1500m\s+2\n/);
      assert.match(described, /requests\.memory\s+512Mi\s+1Gi\n/);
    } finally {
      await kubectl.dispose();
      await server.close();
    }
  },
});

const claim = (name: string, storage: string, cls?: string) => `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ${name}}
spec:
  accessModes: [ReadWriteOnce]${cls ? `\n  storageClassName: ${cls}` : ""}
  resources: {requests: {storage: ${storage}}}
`;
const GOLD = "gold.storageclass.storage.k8s.io";
const expandable = `
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: std}
provisioner: example.com/disk
allowVolumeExpansion: true
`;

Deno.test({
  name: "kubectl: ResourceQuota checks claim resizes, service type changes and storage classes",
  ignore: !kubectlAvailable(),
  async fn() {
    const server = await startApiServer();
    const kubectl = await createKubectl(server.kubeconfig);
    try {
      const hard = `requests.storage=10Gi,${GOLD}/requests.storage=3Gi,services.nodeports=1`;
      ok(await kubectl.run(["create", "quota", "q", `--hard=${hard}`]), "quota");
      // A class that allows expansion: PersistentVolumeClaimResize runs before ResourceQuota.
      ok(await kubectl.run(["apply", "-f", "-"], { stdin: expandable }), "storage class");
      ok(await kubectl.run(["apply", "-f", "-"], { stdin: claim("c", "5Gi", "std") }), "claim c");
      const status = '{"status":{"phase":"Bound"}}';
      ok(
        await kubectl.run([
          "patch",
          "pvc",
          "c",
          "--subresource=status",
          "--type=merge",
          "-p",
          status,
        ]),
        "bind c",
      );
      const resize = (storage: string) =>
        kubectl.run([
          "patch",
          "pvc",
          "c",
          "-p",
          `{"spec":{"resources":{"requests":{"storage":"${storage}"}}}}`,
        ]);
      const over = await resize("12Gi");
      assert.equal(over.code, 1);
      assert.equal(
        over.stderr,
        'Error from server (Forbidden): persistentvolumeclaims "c" is forbidden: exceeded quota: q, requested: requests.storage=7Gi, used: requests.storage=5Gi, limited: requests.storage=10Gi\n',
      );
      ok(await resize("6Gi"), "resize within quota");

      ok(await kubectl.run(["create", "service", "clusterip", "s", "--tcp=80:80,81:81"]), "svc");
      const np = await kubectl.run(["patch", "svc", "s", "-p", '{"spec":{"type":"NodePort"}}']);
      assert.equal(np.code, 1);
      assert.equal(
        np.stderr,
        'Error from server (Forbidden): services "s" is forbidden: exceeded quota: q, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1\n',
      );

      ok(await kubectl.run(["apply", "-f", "-"], { stdin: claim("g1", "2Gi", "gold") }), "g1");
      const g2 = await kubectl.run(["apply", "-f", "-"], { stdin: claim("g2", "2Gi", "gold") });
      assert.equal(g2.code, 1);
      assert.equal(
        g2.stderr,
        forbidden(
          `persistentvolumeclaims "g2" is forbidden: exceeded quota: q, requested: ${GOLD}/requests.storage=2Gi, used: ${GOLD}/requests.storage=2Gi, limited: ${GOLD}/requests.storage=3Gi`,
        ),
      );
      const q = JSON.parse(ok(await kubectl.run(["get", "quota", "q", "-o", "json"]), "get"));
      assert.deepEqual(q.status.used, {
        [`${GOLD}/requests.storage`]: "2Gi",
        "requests.storage": "8Gi",
        "services.nodeports": "0",
      });
    } finally {
      await kubectl.dispose();
      await server.close();
    }
  },
});
