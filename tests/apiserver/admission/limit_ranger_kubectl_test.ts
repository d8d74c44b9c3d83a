/**
 * LimitRanger through the real kubectl: a LimitRange's defaults land in a pod that asks for
 * nothing (with kube's annotation), and a pod or claim over a limit is refused with kube's 403.
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../../lib/apiserver/mod.ts";
import { createKubectl, kubectlAvailable, ok } from "../_kubectl.ts";

const limits = `
apiVersion: v1
kind: LimitRange
metadata: {name: limits}
spec:
  limits:
  - type: Container
    default: {cpu: 500m, memory: 128Mi}
    defaultRequest: {cpu: 100m}
    max: {cpu: 500m}
    min: {memory: 64Mi}
    maxLimitRequestRatio: {cpu: "5"}
  - type: PersistentVolumeClaim
    max: {storage: 2Gi}
`;

const pod = (name: string, resources: string) => `
apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  containers:
  - name: app
    image: nginx
    resources: ${resources}
`;

Deno.test({
  name: "kubectl: a LimitRange defaults a pod's resources and refuses pods and claims over it",
  ignore: !kubectlAvailable(),
  async fn() {
    const server = await startApiServer();
    const kubectl = await createKubectl(server.kubeconfig);
    try {
      ok(await kubectl.run(["apply", "-f", "-"], { stdin: limits }), "apply LimitRange");
      ok(await kubectl.run(["run", "web", "--image=nginx"]), "run web");
      const web = JSON.parse(ok(await kubectl.run(["get", "pod", "web", "-o", "json"]), "get"));
      assert.deepEqual(web.spec.containers[0].resources, {
        limits: { cpu: "500m", memory: "128Mi" },
        requests: { cpu: "100m", memory: "128Mi" },
      });
      assert.equal(
        web.metadata.annotations["kubernetes.io/limit-ranger"],
        "LimitRanger plugin set: cpu, memory request for container web; cpu, memory limit for container web",
      );
      // kube records the QoS class after admission: the defaults make the pod Burstable.
      assert.equal(web.status.qosClass, "Burstable");

      const big = await kubectl.run(["apply", "-f", "-"], {
        stdin: pod("big", "{limits: {cpu: '1'}}"),
      });
      assert.equal(big.code, 1);
      assert.equal(
        big.stderr,
        'Error from server (Forbidden): error when creating "STDIN": pods "big" is forbidden: maximum cpu usage per Container is 500m, but limit is 1\n',
      );
      const two = await kubectl.run(["apply", "-f", "-"], {
        stdin: pod("two", "{requests: {cpu: 100m, memory: 32Mi}, limits: {cpu: '1'}}"),
      });
      assert.equal(two.code, 1);
      assert.equal(
        two.stderr,
        'Error from server (Forbidden): error when creating "STDIN": pods "two" is forbidden: [minimum memory usage per Container is 64Mi, but request is 32Mi, maximum cpu usage per Container is 500m, but limit is 1, cpu max limit to request ratio per Container is 5, but provided ratio is 10.000000]\n',
      );
      const claim = await kubectl.run(["apply", "-f", "-"], {
        stdin:
          "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 5Gi}}\n",
      });
      assert.equal(claim.code, 1);
      assert.equal(
        claim.stderr,
        'Error from server (Forbidden): error when creating "STDIN": persistentvolumeclaims "data" is forbidden: maximum storage usage per PersistentVolumeClaim is 2Gi, but request is 5Gi\n',
      );
      // Validation comes first: an invalid pod over the limits is a 422, not LimitRanger's 403.
      const invalid = await kubectl.run(["apply", "-f", "-"], {
        stdin: pod("bad", "{limits: {cpu: '1'}}").replace("    image: nginx\n", ""),
      });
      assert.equal(invalid.code, 1);
      assert.match(
        invalid.stderr,
        /Pod "bad" is invalid: spec.containers\[0\].image: Required value/,
      );
      const gone = await kubectl.run(["get", "pod", "big"]);
      assert.match(gone.stderr, /NotFound/);

      // Claims are checked on update too (not on status writes): a tighter range refuses a
      // label change of a claim already over it.
      ok(
        await kubectl.run(["apply", "-f", "-"], {
          stdin:
            "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: small}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n",
        }),
        "apply claim small",
      );
      ok(
        await kubectl.run(["apply", "-f", "-"], {
          stdin:
            "apiVersion: v1\nkind: LimitRange\nmetadata: {name: tight}\nspec:\n  limits:\n  - {type: PersistentVolumeClaim, max: {storage: 500Mi}}\n",
        }),
        "apply LimitRange tight",
      );
      const label = await kubectl.run(["label", "pvc", "small", "team=a"]);
      assert.equal(label.code, 1);
      assert.equal(
        label.stderr,
        'Error from server (Forbidden): persistentvolumeclaims "small" is forbidden: maximum storage usage per PersistentVolumeClaim is 500Mi, but request is 1Gi\n',
      );
      ok(
        await kubectl.run([
          "patch",
          "pvc",
          "small",
          "--subresource=status",
          "--type=merge",
          "-p",
          '{"status":{"phase":"Pending"}}',
        ]),
        "status patch of claim small",
      );
    } finally {
      await kubectl.dispose();
      await server.close();
    }
  },
});
