/**
 * kube-apiserver's cross-field rules and immutable fields, with its messages (kubernetes
 * `pkg/apis/*\/validation/validation.go`; values rendered like `field.Error`, i.e. Go `%#v`).
 */
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import type { KubeObject } from "../../../lib/core/object.ts";
import { formatFieldError } from "../../../lib/core/status.ts";
import { kindRules } from "../../../lib/apiserver/builtin_rules.ts";
import { kindDefaults } from "../../../lib/apiserver/defaults/kind_defaults.ts";
import {
  goIntOrString,
  goLabelSelector,
  goStringMap,
} from "../../../lib/apiserver/validation/go_value.ts";

const run = (group: string, kind: string, obj: unknown, old?: unknown) => {
  const defaults = kindDefaults(group, kind);
  const o = structuredClone(obj) as KubeObject;
  defaults?.(o);
  const before = old === undefined ? undefined : structuredClone(old) as KubeObject;
  if (before) defaults?.(before);
  return (kindRules(group, kind)?.(o, before) ?? []).map(formatFieldError);
};

const deployment = (selector: unknown, labels: unknown, extra: Record<string, unknown> = {}) => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web" },
  spec: {
    selector,
    template: { metadata: { labels }, spec: { containers: [{ name: "c", image: "nginx" }] } },
    ...extra,
  },
});

Deno.test("%#v renderings match Go's for the values kube puts in messages", () => {
  assert.equal(goStringMap({ b: "2", a: "1" }), 'map[string]string{"a":"1", "b":"2"}');
  assert.equal(goStringMap(undefined), "map[string]string(nil)");
  assert.equal(
    goLabelSelector({ matchExpressions: [{ key: "k", operator: "In", values: ["v"] }] }),
    'v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"k", Operator:"In", Values:[]string{"v"}}}}',
  );
  assert.equal(goIntOrString(0), 'intstr.IntOrString{Type:0, IntVal:0, StrVal:""}');
});

Deno.test("a workload whose selector does not match its template labels is invalid", () => {
  for (const kind of ["Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"]) {
    const obj = { ...deployment({ matchLabels: { app: "a" } }, { app: "b" }), kind };
    assert.deepEqual(run("apps", kind, obj), [
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"b"}: `selector` does not match template `labels`',
    ], kind);
  }
  assert.deepEqual(run("apps", "Deployment", deployment({}, { app: "b" })), [
    "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment",
  ]);
  assert.deepEqual(run("apps", "Deployment", deployment(undefined, { app: "b" })), [
    "spec.selector: Required value",
  ]);
});

Deno.test("template labels that match the selector are valid (property)", () => {
  fc.assert(
    fc.property(
      fc.dictionary(fc.constantFrom("a", "b", "c"), fc.constantFrom("x", "y"), { minKeys: 1 }),
      fc.dictionary(fc.constantFrom("d", "e"), fc.constantFrom("x", "y")),
      (selector, extra) => {
        const obj = deployment({ matchLabels: selector }, { ...extra, ...selector });
        assert.deepEqual(run("apps", "Deployment", obj), []);
      },
    ),
  );
});

Deno.test("workload updates: the selector is immutable; a StatefulSet changes only its mutable fields", () => {
  const old = deployment({ matchLabels: { app: "a" } }, { app: "a" });
  const next = deployment({ matchLabels: { app: "x" } }, { app: "x" });
  assert.deepEqual(run("apps", "Deployment", next, old), [
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
  ]);
  const sts = { ...old, kind: "StatefulSet", spec: { ...old.spec, serviceName: "a" } };
  const renamed = { ...sts, spec: { ...sts.spec, serviceName: "b", replicas: 5 } };
  assert.deepEqual(run("apps", "StatefulSet", renamed, sts), [
    "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
  ]);
  assert.deepEqual(
    run("apps", "StatefulSet", { ...sts, spec: { ...sts.spec, replicas: 5 } }, sts),
    [],
  );
});

Deno.test("Deployment strategy, restart policy and deadlines are checked like kube-apiserver", () => {
  const ok = { matchLabels: { app: "a" } };
  const zero = { type: "RollingUpdate", rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } };
  assert.deepEqual(run("apps", "Deployment", deployment(ok, { app: "a" }, { strategy: zero })), [
    'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
  ]);
  const recreate = { type: "Recreate", rollingUpdate: { maxSurge: 1 } };
  assert.deepEqual(
    run("apps", "Deployment", deployment(ok, { app: "a" }, { strategy: recreate })),
    [
      "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    ],
  );
  assert.deepEqual(
    run("apps", "Deployment", deployment(ok, { app: "a" }, { minReadySeconds: 700 })),
    ["spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds"],
  );
  const never = deployment(ok, { app: "a" });
  (never.spec.template.spec as Record<string, unknown>).restartPolicy = "Never";
  assert.deepEqual(run("apps", "Deployment", never), [
    'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
  ]);
});

Deno.test("Service cluster IPs and IP families may not change once set", () => {
  const svc = (spec: Record<string, unknown>) => ({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "s" },
    spec: { ports: [{ port: 80 }], ...spec },
  });
  const old = svc({ clusterIP: "10.96.0.10", clusterIPs: ["10.96.0.10"], ipFamilies: ["IPv4"] });
  assert.deepEqual(
    run(
      "",
      "Service",
      svc({ clusterIP: "10.96.0.11", clusterIPs: ["10.96.0.11"], ipFamilies: ["IPv4"] }),
      old,
    ),
    ['spec.clusterIPs[0]: Invalid value: []string{"10.96.0.11"}: may not change once set'],
  );
  assert.deepEqual(run("", "Service", svc({ clusterIP: "None", clusterIPs: ["None"] }), old), [
    'spec.clusterIPs[0]: Invalid value: []string{"None"}: may not change once set',
  ]);
  assert.deepEqual(
    run("", "Service", svc({ clusterIP: "10.96.0.10", clusterIPs: ["10.96.0.9"] })),
    [
      'spec.clusterIPs: Invalid value: []string{"10.96.0.9"}: first value must match `clusterIP`',
    ],
  );
  assert.deepEqual(run("", "Service", svc({ type: "ExternalName", clusterIP: "10.96.0.3" })), [
    "spec.clusterIPs: Forbidden: may not be set for ExternalName services",
    "spec.externalName: Required value",
  ]);
  assert.deepEqual(
    run("", "Service", svc({ type: "NodePort", clusterIP: "None", clusterIPs: ["None"] })),
    ["spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for NodePort services"],
  );
});

Deno.test("immutable fields of other kinds, with kube's messages", () => {
  const cm = (data: Record<string, string>, immutable?: boolean) => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "c" },
    data,
    ...(immutable === undefined ? {} : { immutable }),
  });
  assert.deepEqual(run("", "ConfigMap", cm({ a: "2" }, true), cm({ a: "1" }, true)), [
    "data: Forbidden: field is immutable when `immutable` is set",
  ]);
  assert.deepEqual(run("", "ConfigMap", cm({ a: "2" }), cm({ a: "1" })), []);
  const secret = (type?: string) => ({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "s" },
    type,
  });
  assert.deepEqual(run("", "Secret", secret("kubernetes.io/tls"), secret()), [
    'type: Invalid value: "kubernetes.io/tls": field is immutable',
  ]);
  const rb = (name: string) => ({
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "RoleBinding",
    metadata: { name: "b" },
    roleRef: { kind: "Role", name },
    subjects: [{ kind: "User", name: "jane" }],
  });
  assert.deepEqual(run("rbac.authorization.k8s.io", "RoleBinding", rb("y"), rb("x")), [
    'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"y"}: cannot change roleRef',
  ]);
  const pc = (value: number) => ({
    apiVersion: "scheduling.k8s.io/v1",
    kind: "PriorityClass",
    value,
  });
  assert.deepEqual(run("scheduling.k8s.io", "PriorityClass", pc(2), pc(1)), [
    "value: Forbidden: may not be changed in an update.",
  ]);
  const job = (completions: number) => ({
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: "j" },
    spec: {
      completions,
      selector: { matchLabels: { u: "1" } },
      template: {
        metadata: { labels: { u: "1" } },
        spec: { restartPolicy: "Never", containers: [] },
      },
    },
  });
  assert.deepEqual(run("batch", "Job", job(2), job(1)), [
    "spec.completions: Invalid value: 2: field is immutable",
  ]);
  const pvc = (storage: string, bound: boolean) => ({
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    spec: { resources: { requests: { storage } } },
    status: bound ? { phase: "Bound" } : {},
  });
  assert.deepEqual(run("", "PersistentVolumeClaim", pvc("2Gi", true), pvc("1Gi", true)), []);
  const specForbidden =
    "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims";
  assert.deepEqual(run("", "PersistentVolumeClaim", pvc("2Gi", false), pvc("1Gi", false)), [
    specForbidden,
  ]);
  // ValidatePersistentVolumeClaimUpdate: the binder sets volumeName once; a claim without a
  // class may get one; a bound claim shrinks only down to above status.capacity.
  const withSpec = (extra: Record<string, unknown>, status: Record<string, unknown> = {}) => ({
    ...pvc("1Gi", false),
    spec: { resources: { requests: { storage: "1Gi" } }, ...extra },
    status,
  });
  assert.deepEqual(
    run("", "PersistentVolumeClaim", withSpec({ volumeName: "pv-1" }), withSpec({})),
    [],
  );
  assert.deepEqual(
    run(
      "",
      "PersistentVolumeClaim",
      withSpec({ volumeName: "pv-2" }),
      withSpec({ volumeName: "pv-1" }),
    ),
    [specForbidden],
  );
  assert.deepEqual(
    run("", "PersistentVolumeClaim", withSpec({ storageClassName: "fast" }), withSpec({})),
    [],
  );
  assert.deepEqual(
    run(
      "",
      "PersistentVolumeClaim",
      withSpec({ storageClassName: "slow" }),
      withSpec({ storageClassName: "fast" }),
    ),
    [specForbidden],
  );
  const quota = (scopes?: string[]) => ({
    apiVersion: "v1",
    kind: "ResourceQuota",
    spec: { hard: { pods: "1" }, ...(scopes ? { scopes } : {}) },
  });
  assert.deepEqual(
    run(
      "",
      "ResourceQuota",
      quota(["Terminating", "BestEffort"]),
      quota(["BestEffort", "Terminating"]),
    ),
    [],
  );
  assert.deepEqual(run("", "ResourceQuota", quota(["NotTerminating"]), quota()), [
    'spec.scopes: Invalid value: []core.ResourceQuotaScope{"NotTerminating"}: field is immutable',
  ]);
  const csi = (attachRequired: boolean) => ({
    apiVersion: "storage.k8s.io/v1",
    kind: "CSIDriver",
    spec: { attachRequired, volumeLifecycleModes: ["Persistent"] },
  });
  assert.deepEqual(run("storage.k8s.io", "CSIDriver", csi(false), csi(true)), [
    "spec.attachedRequired: Invalid value: false: field is immutable",
  ]);
  const bound = (storage: string) => ({
    ...pvc(storage, true),
    status: { phase: "Bound", capacity: { storage: "2Gi" } },
  });
  assert.deepEqual(run("", "PersistentVolumeClaim", bound("1Gi"), bound("3Gi")), [
    "spec.resources.requests.storage: Forbidden: field can not be less than status.capacity",
  ]);
  assert.deepEqual(run("", "PersistentVolumeClaim", bound("2500Mi"), bound("3Gi")), []);
  assert.deepEqual(
    run(
      "",
      "PersistentVolumeClaim",
      withSpec({ volumeMode: "Block" }),
      withSpec({ volumeMode: "Filesystem" }),
    ),
    [specForbidden, 'volumeMode: Invalid value: "Block": field is immutable'],
  );
});

Deno.test("defaults of kinds kube-apiserver defaults beyond the workloads", () => {
  const rb = {
    roleRef: { kind: "ClusterRole", name: "view" },
    subjects: [{ kind: "User", name: "a" }, { kind: "ServiceAccount", name: "b" }],
  } as unknown as KubeObject;
  kindDefaults("rbac.authorization.k8s.io", "RoleBinding")!(rb);
  assert.deepEqual(rb, {
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" },
    subjects: [
      { kind: "User", name: "a", apiGroup: "rbac.authorization.k8s.io" },
      { kind: "ServiceAccount", name: "b" }, // apiGroup "" is left out (omitempty)
    ],
  });
  const pc = {} as KubeObject;
  kindDefaults("scheduling.k8s.io", "PriorityClass")!(pc);
  assert.deepEqual(pc, { preemptionPolicy: "PreemptLowerPriority" });
  const sc = {} as KubeObject;
  kindDefaults("storage.k8s.io", "StorageClass")!(sc);
  assert.deepEqual(sc, { reclaimPolicy: "Delete", volumeBindingMode: "Immediate" });
  // storage/v1 SetDefaults_CSIDriver; networking/v1 SetDefaults_IngressClass.
  const csi = { spec: { attachRequired: false } } as unknown as KubeObject;
  kindDefaults("storage.k8s.io", "CSIDriver")!(csi);
  assert.deepEqual(csi.spec, {
    attachRequired: false,
    podInfoOnMount: false,
    storageCapacity: false,
    fsGroupPolicy: "ReadWriteOnceWithFSType",
    volumeLifecycleModes: ["Persistent"],
    requiresRepublish: false,
    seLinuxMount: false,
  });
  const ic = {
    spec: { controller: "x.io/c", parameters: { kind: "P", name: "p" } },
  } as unknown as KubeObject;
  kindDefaults("networking.k8s.io", "IngressClass")!(ic);
  assert.deepEqual(ic.spec, {
    controller: "x.io/c",
    parameters: { kind: "P", name: "p", scope: "Cluster" },
  });
  const np = { spec: { egress: [{ ports: [{ port: 53 }] }] } } as KubeObject;
  kindDefaults("networking.k8s.io", "NetworkPolicy")!(np);
  assert.deepEqual(np.spec, {
    egress: [{ ports: [{ port: 53, protocol: "TCP" }] }],
    policyTypes: ["Ingress", "Egress"],
  });
  assert.equal(kindDefaults("coordination.k8s.io", "Lease"), undefined);
});

Deno.test("PodDisruptionBudget, HorizontalPodAutoscaler and Ingress rules (policy, autoscaling, networking validation.go)", () => {
  const pdb = (spec: Record<string, unknown>) => ({
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    spec: { selector: { matchLabels: { app: "web" } }, ...spec },
  });
  const both = run("policy", "PodDisruptionBudget", pdb({ minAvailable: 1, maxUnavailable: 1 }));
  assert.equal(both.length, 1);
  assert.match(
    both[0],
    /^spec: Invalid value: policy\.PodDisruptionBudgetSpec\{MinAvailable:\(\*intstr\.IntOrString\)\(0xc[0-9a-f]+\), Selector:\(\*v1\.LabelSelector\)\(0xc[0-9a-f]+\), MaxUnavailable:\(\*intstr\.IntOrString\)\(0xc[0-9a-f]+\), UnhealthyPodEvictionPolicy:\(\*policy\.UnhealthyPodEvictionPolicyType\)\(nil\)\}: minAvailable and maxUnavailable cannot be both set$/,
  );
  assert.deepEqual(run("policy", "PodDisruptionBudget", pdb({ minAvailable: "120%" })), [
    'spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%',
  ]);
  assert.deepEqual(run("policy", "PodDisruptionBudget", pdb({ maxUnavailable: "50%" })), []);

  const hpa = (spec: Record<string, unknown>) => ({
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    spec: { scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" }, ...spec },
  });
  assert.deepEqual(
    run("autoscaling", "HorizontalPodAutoscaler", hpa({ minReplicas: 3, maxReplicas: 2 })),
    [
      "spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`",
    ],
  );
  assert.deepEqual(
    run("autoscaling", "HorizontalPodAutoscaler", {
      ...hpa({ minReplicas: 0, maxReplicas: 0 }),
      spec: { minReplicas: 0, maxReplicas: 0, scaleTargetRef: { kind: "Deployment" } },
    }),
    [
      "spec.minReplicas: Invalid value: 0: must be greater than or equal to 1",
      "spec.maxReplicas: Invalid value: 0: must be greater than 0",
      "spec.scaleTargetRef.name: Required value",
      "spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas",
    ],
  );
  assert.deepEqual(
    run(
      "autoscaling",
      "HorizontalPodAutoscaler",
      hpa({
        maxReplicas: 5,
        metrics: [{
          type: "Pods",
          resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 50 } },
        }],
        behavior: { scaleDown: { policies: [{ type: "Pods", value: 0, periodSeconds: 3600 }] } },
      }),
    ),
    [
      "spec.metrics[0].pods: Required value: must populate information for the given metric source",
      "spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero",
      "spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 3600: must be less than or equal to 1800",
    ],
  );

  const ingress = (spec: Record<string, unknown>, annotations?: Record<string, string>) => ({
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name: "web", ...(annotations ? { annotations } : {}) },
    spec,
  });
  assert.deepEqual(run("networking.k8s.io", "Ingress", ingress({})), [
    "spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified",
  ]);
  const backend = { service: { name: "api", port: { number: 80 } } };
  assert.deepEqual(
    run(
      "networking.k8s.io",
      "Ingress",
      ingress({
        ingressClassName: "nginx",
        rules: [{
          host: "10.0.0.1",
          http: {
            paths: [
              { path: "api", pathType: "Prefix", backend },
              { path: "/a", backend },
              {
                path: "/b",
                pathType: "Exact",
                backend: { service: { name: "api", port: { name: "http", number: 80 } } },
              },
              { path: "/c", pathType: "Exact", backend: { service: { name: "api", port: {} } } },
            ],
          },
        }],
      }, { "kubernetes.io/ingress.class": "traefik" }),
    ),
    [
      'spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
      'spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path',
      "spec.rules[0].http.paths[1].pathType: Required value: pathType must be specified",
      'spec.rules[0].http.paths[2].backend: Invalid value: "": cannot set both port name & port number',
      "spec.rules[0].http.paths[3].backend: Required value: port name or number is required",
      'annotations.kubernetes.io/ingress.class: Invalid value: "traefik": must match `ingressClassName` when both are specified',
    ],
  );
  assert.deepEqual(
    run(
      "networking.k8s.io",
      "Ingress",
      ingress({
        rules: [{
          host: "*.example.com",
          http: { paths: [{ path: "/", pathType: "Prefix", backend }] },
        }],
      }),
    ),
    [],
  );
});

Deno.test("a Node's podCIDRs and providerID only go from unset to a value (ValidateNodeUpdate)", () => {
  const node = (spec: Record<string, unknown>) => ({
    apiVersion: "v1",
    kind: "Node",
    metadata: { name: "n" },
    spec,
  });
  const cidr = 'node updates may not change podCIDR except from "" to valid';
  assert.deepEqual(run("", "Node", node({ podCIDRs: ["10.0.1.0/24"] }), node({})), []);
  assert.deepEqual(
    run("", "Node", node({ podCIDRs: ["10.0.2.0/24"] }), node({ podCIDRs: ["10.0.1.0/24"] })),
    [`spec.podCIDRs: Forbidden: ${cidr}`],
  );
  assert.deepEqual(run("", "Node", node({}), node({ podCIDRs: ["10.0.1.0/24"] })), [
    `spec.podCIDRs: Forbidden: ${cidr}`,
  ]);
  assert.deepEqual(run("", "Node", node({ providerID: "sim://n" }), node({})), []);
  assert.deepEqual(
    run("", "Node", node({ providerID: "sim://m" }), node({ providerID: "sim://n" })),
    [
      'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
    ],
  );
});
