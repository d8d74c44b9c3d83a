/**
 * `config/rbac/`: the manager's ServiceAccount, its least-privilege ClusterRole (and Roles of
 * namespaced controllers) with bindings, and the leader-election Role in its namespace.
 *
 * @module
 */
import { E } from "../deps.ts";
import type { JsonObject } from "../core/object.ts";
import type { ResolvedOperator } from "../operator/operator_spec.ts";
import { deriveRbac, type PolicyRule } from "./derive_rbac.ts";
import { kustomization, type ManifestModule } from "./manifest_module.ts";

const rbacVersion = "rbac.authorization.k8s.io/v1";

const meta = (op: ResolvedOperator, name: string, namespace?: string) => ({
  name,
  ...(namespace ? { namespace } : {}),
  labels: { ...op.labels },
});

const rules = (rs: readonly PolicyRule[]) =>
  rs.map((r) => ({
    apiGroups: [...r.apiGroups],
    resources: [...r.resources],
    ...(r.resourceNames ? { resourceNames: [...r.resourceNames] } : {}),
    verbs: [...r.verbs],
  }));

function binding(
  op: ResolvedOperator,
  kind: "ClusterRole" | "Role",
  name: string,
  namespace?: string,
): JsonObject {
  return {
    apiVersion: rbacVersion,
    kind: kind === "ClusterRole" ? "ClusterRoleBinding" : "RoleBinding",
    metadata: meta(op, name.replace(/-role$/, "-rolebinding"), namespace),
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind, name },
    subjects: [{ kind: "ServiceAccount", name: op.names.serviceAccount, namespace: op.namespace }],
  };
}

/**
 * The RBAC module (see `deriveRbac` for what the rules contain).
 *
 * @example
 * ```ts
 * import { rbacManifests } from "../operator/mod.ts";
 * rbacManifests.name; // "rbac"
 * ```
 */
export const rbacManifests: ManifestModule = {
  name: "rbac",
  files: (op, ctx) => {
    const derived = deriveRbac(op.controllers, { resolve: ctx.resolve, leaseName: op.leaseName });
    if (E.isLeft(derived)) return derived;
    const { cluster, namespaced, leaderElection } = derived.right;
    const roles: JsonObject[] = [];
    const bindings: JsonObject[] = [];
    const role = op.names.managerRole;
    if (cluster.length) {
      roles.push({
        apiVersion: rbacVersion,
        kind: "ClusterRole",
        metadata: meta(op, role),
        rules: rules(cluster),
      });
      bindings.push(binding(op, "ClusterRole", role));
    }
    for (const [ns, rs] of namespaced) {
      roles.push({
        apiVersion: rbacVersion,
        kind: "Role",
        metadata: meta(op, role, ns),
        rules: rules(rs),
      });
      bindings.push(binding(op, "Role", role, ns));
    }
    const leader = op.names.leaderElectionRole;
    const files = [
      {
        path: "config/rbac/service_account.yaml",
        documents: [{
          apiVersion: "v1",
          kind: "ServiceAccount",
          metadata: meta(op, op.names.serviceAccount, op.namespace),
        }],
      },
      { path: "config/rbac/role.yaml", documents: roles },
      { path: "config/rbac/role_binding.yaml", documents: bindings },
      {
        path: "config/rbac/leader_election_role.yaml",
        documents: [{
          apiVersion: rbacVersion,
          kind: "Role",
          metadata: meta(op, leader, op.namespace),
          rules: rules(leaderElection),
        }],
      },
      {
        path: "config/rbac/leader_election_role_binding.yaml",
        documents: [binding(op, "Role", leader, op.namespace)],
      },
    ].filter((f) => f.documents.length > 0);
    return E.right([
      ...files,
      {
        path: "config/rbac/kustomization.yaml",
        documents: [kustomization(files.map((f) => f.path.slice("config/rbac/".length)))],
      },
    ]);
  },
};
