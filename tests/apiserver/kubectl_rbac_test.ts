/**
 * ServiceAccounts and RBAC through the real kubectl: the `default` ServiceAccount and
 * `kube-root-ca.crt` in every namespace, `kubectl create token`, requests with a ServiceAccount
 * token authorized by RBAC with kube-apiserver's 403 wording, `kubectl auth can-i` (with
 * `--as` and `--list`), `auth whoami`, ClusterRole aggregation, the ServiceAccount admission of
 * pods. kubectl sends bearer tokens only over TLS, hence the TLS server.
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../lib/apiserver/server.ts";
import { createKubectl, type Kubectl, kubectlAvailable } from "./_kubectl.ts";

const ADMIN = "admin-token";

const manifests = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: op}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: pod-reader}
rules: [{apiGroups: [""], resources: [pods], verbs: [get, list, watch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: op-pod-reader}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: pod-reader}
subjects: [{kind: ServiceAccount, name: op, namespace: default}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: widgets-view
  labels: {rbac.authorization.k8s.io/aggregate-to-view: "true"}
rules: [{apiGroups: [example.com], resources: [widgets], verbs: [get, list, watch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: op-view, namespace: team}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects: [{kind: ServiceAccount, name: op, namespace: default}]
`;

Deno.test({
  name:
    "a ServiceAccount token is authorized by RBAC with kube-apiserver's 403 wording; kubectl auth can-i, --as and whoami answer",
  ignore: !kubectlAvailable(),
  fn: async () => {
    const server = await startApiServer({ tls: true, token: ADMIN });
    const admin = await createKubectl(server.kubeconfig);
    let op: Kubectl | undefined;
    const run = async (k: Kubectl, args: string[], stdin?: string) => {
      const r = await k.run(args, { stdin });
      return { ...r, out: r.stdout + r.stderr };
    };
    const ok = async (k: Kubectl, ...args: string[]) => {
      const r = await run(k, args);
      assert.equal(r.code, 0, `kubectl ${args.join(" ")}: ${r.stderr}`);
      return r.stdout;
    };
    try {
      assert.match(await ok(admin, "get", "sa", "default"), /default\s+0\s/);
      assert.match(
        await ok(admin, "get", "cm", "kube-root-ca.crt", "-o", "jsonpath={.data.ca\\.crt}"),
        /^-----BEGIN CERTIFICATE-----/,
      );
      await ok(admin, "create", "namespace", "team");
      for (let i = 0; i < 50; i++) {
        if ((await run(admin, ["get", "sa", "default", "-n", "team"])).code === 0) break;
      }
      assert.match(
        await ok(admin, "get", "sa,cm", "-n", "team", "-o", "name"),
        /serviceaccount\/default\nconfigmap\/kube-root-ca.crt/,
      );

      assert.equal((await run(admin, ["apply", "-f", "-"], manifests)).code, 0);
      const token = (await ok(admin, "create", "token", "op", "--duration=20m")).trim();
      assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
      op = await createKubectl(server.kubeconfig.replace(`token: ${ADMIN}`, `token: ${token}`));

      const who = await ok(op, "auth", "whoami");
      assert.match(who, /Username\s+system:serviceaccount:default:op/);
      assert.match(
        who,
        /Groups\s+\[system:serviceaccounts system:serviceaccounts:default system:authenticated\]/,
      );

      assert.match(await ok(op, "get", "pods"), /^$|No resources/);
      const denied = await run(op, ["get", "deployments"]);
      assert.notEqual(denied.code, 0);
      assert.equal(
        denied.stderr.trim(),
        'Error from server (Forbidden): deployments.apps is forbidden: User "system:serviceaccount:default:op" cannot list resource "deployments" in API group "apps" in the namespace "default"',
      );
      const nodes = await run(op, ["get", "nodes"]);
      assert.match(
        nodes.stderr,
        /nodes is forbidden: User "system:serviceaccount:default:op" cannot list resource "nodes" in API group "" at the cluster scope/,
      );
      const del = await run(op, ["delete", "pod", "x"]);
      assert.match(
        del.stderr,
        /pods "x" is forbidden: User "system:serviceaccount:default:op" cannot delete resource "pods" in API group "" in the namespace "default"/,
      );
      const imp = await run(op, ["get", "pods", "--as=alice"]);
      assert.match(
        imp.stderr,
        /users "alice" is forbidden: User "system:serviceaccount:default:op" cannot impersonate resource "users" in API group "" at the cluster scope/,
      );

      assert.equal((await ok(op, "auth", "can-i", "list", "pods")).trim(), "yes");
      assert.equal((await run(op, ["auth", "can-i", "create", "pods"])).stdout.trim(), "no");
      const list = await ok(op, "auth", "can-i", "--list");
      assert.match(list, /pods\s+\[\]\s+\[\]\s+\[get list watch\]/);

      const as = "--as=system:serviceaccount:default:op";
      assert.equal((await ok(admin, "auth", "can-i", "list", "pods", as)).trim(), "yes");
      assert.equal(
        (await run(admin, ["auth", "can-i", "list", "secrets", as])).stdout.trim(),
        "no",
      );
      assert.equal(
        (await ok(admin, "auth", "can-i", "list", "pods", "-n", "team", as)).trim(),
        "yes",
      );
      assert.equal(
        (await ok(admin, "auth", "can-i", "list", "widgets.example.com", "-n", "team", as)).trim(),
        "yes",
        "view aggregates widgets-view",
      );
      assert.equal((await ok(admin, "auth", "can-i", "*", "*")).trim(), "yes");
      assert.equal(
        (await ok(admin, "auth", "can-i", "get", "pods", "--as=bob", "--as-group=system:masters"))
          .trim(),
        "yes",
      );
      assert.match(
        await ok(admin, "get", "clusterrole", "view", "-o", "jsonpath={.rules}"),
        /widgets/,
      );
      assert.match(await ok(admin, "auth", "whoami"), /kubernetes-admin/);

      await ok(admin, "run", "web", "--image=nginx");
      assert.equal(
        await ok(
          admin,
          "get",
          "pod",
          "web",
          "-o",
          "jsonpath={.spec.serviceAccountName} {.spec.containers[0].volumeMounts[0].mountPath}",
        ),
        "default /var/run/secrets/kubernetes.io/serviceaccount",
      );
      const ghost = await run(admin, [
        "run",
        "g",
        "--image=nginx",
        '--overrides={"spec":{"serviceAccountName":"ghost"}}',
      ]);
      assert.match(
        ghost.stderr,
        /pods "g" is forbidden: error looking up service account default\/ghost: serviceaccount "ghost" not found/,
      );
      // Admission names an object by its generateName (its name is generated after admission).
      const generated = await run(
        admin,
        ["create", "-f", "-"],
        JSON.stringify({
          apiVersion: "v1",
          kind: "Pod",
          metadata: { generateName: "g-" },
          spec: { serviceAccountName: "ghost", containers: [{ name: "c", image: "nginx" }] },
        }),
      );
      assert.match(
        generated.stderr,
        /pods "g-" is forbidden: error looking up service account default\/ghost: serviceaccount "ghost" not found/,
      );

      await ok(admin, "delete", "sa", "op");
      const gone = await run(op, ["get", "pods"]);
      assert.match(
        gone.stderr,
        /Unauthorized|must be logged in/,
        "a deleted ServiceAccount's token is refused",
      );
    } finally {
      await op?.dispose();
      await admin.dispose();
      await server.close();
    }
  },
});
