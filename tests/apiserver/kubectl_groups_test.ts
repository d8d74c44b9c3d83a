/**
 * The groups a typical operator bundle applies, through the real kubectl: RBAC, networking,
 * policy, autoscaling (v2 and v1 with `kubectl autoscale`), scheduling, storage, quotas and
 * APIServices — discovery, create defaults, tables and explain.
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../lib/apiserver/server.ts";
import { createKubectl, kubectlAvailable } from "./_kubectl.ts";

const bundle = `
apiVersion: v1
kind: ServiceAccount
metadata: {name: op}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: "op:manager"}
rules: [{apiGroups: [""], resources: [pods], verbs: [get, list, watch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: op-leader}
rules: [{apiGroups: [coordination.k8s.io], resources: [leases], verbs: ["*"]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: op-leader}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: op-leader}
subjects: [{kind: ServiceAccount, name: op, namespace: default}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: op}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "op:manager"}
subjects: [{kind: ServiceAccount, name: op, namespace: default}, {kind: User, name: alice}]
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: nginx, annotations: {ingressclass.kubernetes.io/is-default-class: "true"}}
spec: {controller: k8s.io/ingress-nginx}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web}
spec:
  tls: [{hosts: [a.example.com]}]
  rules:
  - host: a.example.com
    http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny}
spec: {podSelector: {matchLabels: {app: web}}, egress: [{ports: [{port: 53}]}]}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec: {maxUnavailable: 1, selector: {matchLabels: {app: web}}}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000000
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast, annotations: {storageclass.kubernetes.io/is-default-class: "true"}}
provisioner: example.com/fast
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: q}
spec: {hard: {pods: "10"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
`;

Deno.test({
  name:
    "kubectl applies a bundle of RBAC, networking, policy, autoscaling, scheduling and storage kinds and shows them as a real cluster does",
  ignore: !kubectlAvailable(),
  fn: async () => {
    const server = await startApiServer();
    const kubectl = await createKubectl(server.kubeconfig);
    const run = async (...args: string[]) => {
      const r = await kubectl.run(args, { stdin: args.includes("-") ? bundle : undefined });
      assert.equal(r.code, 0, `kubectl ${args.join(" ")}: ${r.stderr}`);
      return r.stdout;
    };
    try {
      const resources = await run("api-resources", "-o", "name");
      for (
        const r of [
          "roles.rbac.authorization.k8s.io",
          "clusterrolebindings.rbac.authorization.k8s.io",
          "ingresses.networking.k8s.io",
          "ingressclasses.networking.k8s.io",
          "networkpolicies.networking.k8s.io",
          "poddisruptionbudgets.policy",
          "horizontalpodautoscalers.autoscaling",
          "priorityclasses.scheduling.k8s.io",
          "storageclasses.storage.k8s.io",
          "apiservices.apiregistration.k8s.io",
          "persistentvolumes",
          "resourcequotas",
        ]
      ) assert.ok(resources.split("\n").includes(r), `${r} not served`);

      await run("apply", "-f", "-");
      assert.match(
        await run("get", "ingress", "web"),
        /NAME\s+CLASS\s+HOSTS\s+ADDRESS\s+PORTS\s+AGE\nweb\s+nginx\s+a\.example\.com\s+80, 443\s/,
      );
      assert.match(
        await run("get", "ingressclass"),
        /nginx \(default\)\s+k8s.io\/ingress-nginx\s+<none>/,
      );
      assert.match(await run("get", "netpol", "deny"), /deny\s+app=web/);
      assert.equal(
        await run("get", "netpol", "deny", "-o", "jsonpath={.spec.policyTypes}"),
        '["Ingress","Egress"]',
      );
      assert.match(await run("get", "pdb", "web"), /web\s+N\/A\s+1\s+0/);
      assert.match(await run("get", "pc"), /high\s+1000000\s+false\s+\S+\s+PreemptLowerPriority/);
      assert.match(await run("get", "pc"), /system-node-critical\s+2000001000/);
      assert.match(
        await run("get", "sc"),
        /fast \(default\)\s+example.com\/fast\s+Delete\s+Immediate\s+false/,
      );
      assert.equal(
        await run("get", "pvc", "data", "-o", "jsonpath={.spec.storageClassName}"),
        "fast",
        "DefaultStorageClass admission fills the class",
      );
      assert.match(await run("get", "pvc", "data"), /data\s+Pending\s+fast\s+<unset>/);
      assert.match(
        await run("get", "rolebinding", "op-leader", "-o", "wide"),
        /op-leader\s+Role\/op-leader\s+\S+\s+default:op/,
      );
      assert.match(
        await run("get", "clusterrolebinding", "op", "-o", "wide"),
        /op\s+ClusterRole\/op:manager\s+\S+\s+alice\s+default:op/,
      );
      assert.match(
        await run("get", "clusterrole", "op:manager"),
        /NAME\s+CREATED AT\nop:manager\s+\d{4}-/,
      );
      assert.match(await run("get", "sa", "op"), /op\s+0\s/);

      assert.match(
        await run("autoscale", "deployment", "web", "--max=5", "--cpu-percent=70"),
        /autoscaled/,
      );
      assert.match(
        await run("get", "hpa", "web"),
        /web\s+Deployment\/web\s+cpu: <unknown>\/70%\s+1\s+5\s+0/,
      );
      const v1 = JSON.parse(
        await run(
          "get",
          "--raw",
          "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web",
        ),
      );
      assert.equal(v1.spec.targetCPUUtilizationPercentage, 70);
      assert.equal(v1.spec.minReplicas, 1);

      const apiServices = await run("get", "apiservices");
      for (const name of ["v1.", "v1.apps", "v2.autoscaling", "v1.rbac.authorization.k8s.io"]) {
        assert.match(apiServices, new RegExp(`\\n${name.replaceAll(".", "\\.")}\\s+Local\\s+True`));
      }
      assert.match(await run("explain", "ingress.spec.rules.http.paths.pathType"), /Prefix/);
      assert.match(
        await run("explain", "hpa.spec.behavior", "--api-version=autoscaling/v2"),
        /scaleDown/,
      );
      assert.match(await run("explain", "roles.rules"), /PolicyRule/);
    } finally {
      await kubectl.dispose();
      await server.close();
    }
  },
});
