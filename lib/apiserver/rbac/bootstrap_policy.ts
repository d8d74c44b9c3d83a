/**
 * The RBAC objects kube-apiserver's bootstrap policy creates on a fresh cluster: the
 * user-facing roles (`cluster-admin`, aggregated `admin`, `edit`, `view` and their
 * `system:aggregate-to-*` parts), discovery and self-review access for every authenticated
 * user, and their bindings. Rules as in kubernetes' bootstrappolicy testdata (1.32).
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import type { PolicyRule } from "./types.ts";

const rw = ["create", "delete", "deletecollection", "patch", "update"];
const ro = ["get", "list", "watch"];
const all = [...rw.slice(0, 3), "get", "list", ...rw.slice(3), "watch"];
const rule = (apiGroups: string[], resources: string[], verbs: string[]): PolicyRule => ({
  apiGroups,
  resources,
  verbs,
});
const urls = (nonResourceURLs: string[], verbs = ["get"]): PolicyRule => ({
  nonResourceURLs,
  verbs,
});

const AUTOUPDATE = { "rbac.authorization.kubernetes.io/autoupdate": "true" };
const BOOTSTRAPPING = { "kubernetes.io/bootstrapping": "rbac-defaults" };
const aggregateTo = (role: string) => ({
  [`rbac.authorization.k8s.io/aggregate-to-${role}`]: "true",
});

function clusterRole(
  name: string,
  rules: PolicyRule[] | null,
  extra: { labels?: Record<string, string>; aggregate?: string } = {},
): KubeObject {
  return {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRole",
    metadata: { name, annotations: AUTOUPDATE, labels: { ...BOOTSTRAPPING, ...extra.labels } },
    ...(extra.aggregate
      ? {
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: aggregateTo(extra.aggregate) }] },
      }
      : {}),
    rules,
  };
}

function clusterRoleBinding(name: string, role: string, groups: string[]): KubeObject {
  return {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRoleBinding",
    metadata: { name, annotations: AUTOUPDATE, labels: BOOTSTRAPPING },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: role },
    subjects: groups.map((g) => ({
      apiGroup: "rbac.authorization.k8s.io",
      kind: "Group",
      name: g,
    })),
  };
}

const viewRules: PolicyRule[] = [
  rule([""], [
    "configmaps",
    "endpoints",
    "persistentvolumeclaims",
    "persistentvolumeclaims/status",
    "pods",
    "replicationcontrollers",
    "replicationcontrollers/scale",
    "serviceaccounts",
    "services",
    "services/status",
  ], ro),
  rule([""], [
    "bindings",
    "events",
    "limitranges",
    "namespaces/status",
    "pods/log",
    "pods/status",
    "replicationcontrollers/status",
    "resourcequotas",
    "resourcequotas/status",
  ], ro),
  rule([""], ["namespaces"], ro),
  rule(["discovery.k8s.io"], ["endpointslices"], ro),
  rule(["apps"], [
    "controllerrevisions",
    "daemonsets",
    "daemonsets/status",
    "deployments",
    "deployments/scale",
    "deployments/status",
    "replicasets",
    "replicasets/scale",
    "replicasets/status",
    "statefulsets",
    "statefulsets/scale",
    "statefulsets/status",
  ], ro),
  rule(["autoscaling"], ["horizontalpodautoscalers", "horizontalpodautoscalers/status"], ro),
  rule(["batch"], ["cronjobs", "cronjobs/status", "jobs", "jobs/status"], ro),
  rule(["policy"], ["poddisruptionbudgets", "poddisruptionbudgets/status"], ro),
  rule(["networking.k8s.io"], ["ingresses", "ingresses/status", "networkpolicies"], ro),
];

const editRules: PolicyRule[] = [
  rule([""], [
    "pods/attach",
    "pods/exec",
    "pods/portforward",
    "pods/proxy",
    "secrets",
    "services/proxy",
  ], ro),
  rule([""], ["serviceaccounts"], ["impersonate"]),
  rule([""], ["pods", "pods/attach", "pods/exec", "pods/portforward", "pods/proxy"], rw),
  rule([""], ["pods/eviction"], ["create"]),
  rule([""], [
    "configmaps",
    "events",
    "persistentvolumeclaims",
    "replicationcontrollers",
    "replicationcontrollers/scale",
    "secrets",
    "serviceaccounts",
    "services",
    "services/proxy",
  ], rw),
  rule([""], ["serviceaccounts/token"], ["create"]),
  rule(["apps"], [
    "daemonsets",
    "deployments",
    "deployments/rollback",
    "deployments/scale",
    "replicasets",
    "replicasets/scale",
    "statefulsets",
    "statefulsets/scale",
  ], rw),
  rule(["autoscaling"], ["horizontalpodautoscalers"], rw),
  rule(["batch"], ["cronjobs", "jobs"], rw),
  rule(["policy"], ["poddisruptionbudgets"], rw),
  rule(["networking.k8s.io"], ["ingresses", "networkpolicies"], rw),
  rule(["coordination.k8s.io"], ["leases"], all),
];

const adminRules: PolicyRule[] = [
  rule(["authorization.k8s.io"], ["localsubjectaccessreviews"], ["create"]),
  rule(["rbac.authorization.k8s.io"], ["rolebindings", "roles"], all),
];

const publicInfo = ["/healthz", "/livez", "/readyz", "/version", "/version/"];

/**
 * The bootstrap ClusterRoles and ClusterRoleBindings (aggregated roles with `rules: null`:
 * the aggregation fills them).
 *
 * @example
 * ```ts
 * import { bootstrapPolicy } from "./bootstrap_policy.ts";
 * bootstrapPolicy().map((o) => o.metadata?.name).includes("cluster-admin"); // true
 * ```
 */
export function bootstrapPolicy(): KubeObject[] {
  return [
    clusterRole("admin", null, { aggregate: "admin" }),
    clusterRole("cluster-admin", [rule(["*"], ["*"], ["*"]), urls(["*"], ["*"])]),
    clusterRole("edit", null, { aggregate: "edit", labels: aggregateTo("admin") }),
    clusterRole("view", null, { aggregate: "view", labels: aggregateTo("edit") }),
    clusterRole("system:aggregate-to-admin", adminRules, { labels: aggregateTo("admin") }),
    clusterRole("system:aggregate-to-edit", editRules, { labels: aggregateTo("edit") }),
    clusterRole("system:aggregate-to-view", viewRules, { labels: aggregateTo("view") }),
    clusterRole("system:auth-delegator", [
      rule(["authentication.k8s.io"], ["tokenreviews"], ["create"]),
      rule(["authorization.k8s.io"], ["subjectaccessreviews"], ["create"]),
    ]),
    clusterRole("system:basic-user", [
      rule(["authorization.k8s.io"], ["selfsubjectaccessreviews", "selfsubjectrulesreviews"], [
        "create",
      ]),
      rule(["authentication.k8s.io"], ["selfsubjectreviews"], ["create"]),
    ]),
    clusterRole("system:discovery", [
      urls([
        "/api",
        "/api/*",
        "/apis",
        "/apis/*",
        "/healthz",
        "/livez",
        "/openapi",
        "/openapi/*",
        "/readyz",
        "/version",
        "/version/",
      ]),
    ]),
    clusterRole("system:public-info-viewer", [urls(publicInfo)]),
    clusterRole("system:service-account-issuer-discovery", [
      urls([
        "/.well-known/openid-configuration",
        "/.well-known/openid-configuration/",
        "/openid/v1/jwks",
        "/openid/v1/jwks/",
      ]),
    ]),
    clusterRoleBinding("cluster-admin", "cluster-admin", ["system:masters"]),
    clusterRoleBinding("system:basic-user", "system:basic-user", ["system:authenticated"]),
    clusterRoleBinding("system:discovery", "system:discovery", ["system:authenticated"]),
    clusterRoleBinding("system:public-info-viewer", "system:public-info-viewer", [
      "system:authenticated",
      "system:unauthenticated",
    ]),
    clusterRoleBinding(
      "system:service-account-issuer-discovery",
      "system:service-account-issuer-discovery",
      ["system:serviceaccounts"],
    ),
  ];
}
