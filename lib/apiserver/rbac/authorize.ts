/**
 * `authorize()`: the RBAC authorizer as a pure function of the request attributes and the RBAC
 * objects — kube-apiserver's `RBACAuthorizer.Authorize` with its reasons, behind the
 * privileged-group short circuit (`system:masters` may do anything).
 *
 * @module
 */
import type {
  BindingObject,
  Decision,
  PolicyRule,
  RbacPolicy,
  RequestAttributes,
  RoleObject,
  UserInfo,
} from "./types.ts";
import { appliesTo, describeSubject } from "./applies_to.ts";
import { ruleAllows } from "./rule_allows.ts";

/** The group whose members are always allowed (kube-apiserver's `system:masters`). */
export const PRIVILEGED_GROUP = "system:masters";

/** One binding that applies to a user, the rules it grants, or the error met resolving them. */
export interface AppliedBinding {
  /** `ClusterRoleBinding "x" of ClusterRole "y" to User "u"`. */
  readonly source: string;
  readonly rules: readonly PolicyRule[];
  /** `clusterrole.rbac.authorization.k8s.io "y" not found` when the role is missing. */
  readonly error?: string;
}

function resolveRole(
  policy: RbacPolicy,
  binding: BindingObject,
  namespace: string,
): { role?: RoleObject; error?: string } {
  const { kind, name } = binding.roleRef;
  if (kind === "ClusterRole") {
    const role = policy.clusterRole(name);
    return role ? { role } : { error: `clusterrole.rbac.authorization.k8s.io "${name}" not found` };
  }
  if (kind === "Role" && namespace !== "") {
    const role = policy.role(namespace, name);
    return role ? { role } : { error: `role.rbac.authorization.k8s.io "${name}" not found` };
  }
  return { error: `unsupported role reference kind: "${kind}"` };
}

/**
 * The bindings that apply to `user`, cluster-wide first, then (with a namespace) that
 * namespace's RoleBindings — lazily, in the order the authorizer visits them.
 *
 * @example
 * ```ts
 * import { appliedBindings } from "./authorize.ts";
 * const policy = { clusterRoleBindings: () => [], roleBindings: () => [], clusterRole: () => undefined, role: () => undefined };
 * [...appliedBindings(policy, { name: "u", groups: [] }, "ns")].length; // 0
 * ```
 */
export function* appliedBindings(
  policy: RbacPolicy,
  user: UserInfo,
  namespace: string,
): Generator<AppliedBinding> {
  const scopes: [readonly BindingObject[], string, string][] = [
    [policy.clusterRoleBindings(), "", "ClusterRoleBinding"],
  ];
  if (namespace !== "") scopes.push([policy.roleBindings(namespace), namespace, "RoleBinding"]);
  for (const [bindings, ns, kind] of scopes) {
    for (const binding of bindings) {
      const subject = (binding.subjects ?? []).find((s) => appliesTo(user, s, ns));
      if (!subject) continue;
      const { role, error } = resolveRole(policy, binding, ns);
      const name = ns ? `${binding.metadata.name}/${ns}` : binding.metadata.name;
      const source = `${kind} "${name}" of ${binding.roleRef.kind} "${binding.roleRef.name}" to ${
        describeSubject(subject, ns)
      }`;
      yield { source, rules: role?.rules ?? [], ...(error ? { error } : {}) };
    }
  }
}

/** `RBAC: <errors>` as an aggregate error prints: one as is, several in brackets. */
export function errorsReason(errors: readonly string[]): string {
  if (errors.length === 0) return "";
  return `RBAC: ${errors.length === 1 ? errors[0] : `[${errors.join(", ")}]`}`;
}

/**
 * Decides a request: allowed for the privileged group, else allowed by the first RBAC rule
 * that matches (reason `RBAC: allowed by ...`), else denied with the errors met on the way.
 *
 * Like kube-apiserver's authorizer chain with `--authorization-mode=RBAC`, but without the
 * Node and webhook authorizers.
 *
 * @example
 * ```ts
 * import { authorize } from "./authorize.ts";
 * const policy = {
 *   clusterRoleBindings: () => [{ metadata: { name: "read" }, roleRef: { kind: "ClusterRole", name: "view" },
 *     subjects: [{ kind: "User", name: "alice" }] }],
 *   roleBindings: () => [],
 *   clusterRole: () => ({ metadata: { name: "view" }, rules: [{ verbs: ["list"], apiGroups: [""], resources: ["pods"] }] }),
 *   role: () => undefined,
 * };
 * const attrs = { type: "resource", user: { name: "alice", groups: [] }, verb: "list", namespace: "ns",
 *   apiGroup: "", apiVersion: "v1", resource: "pods", subresource: "", name: "" } as const;
 * authorize(attrs, policy).reason; // 'RBAC: allowed by ClusterRoleBinding "read" of ClusterRole "view" to User "alice"'
 * ```
 */
export function authorize(attrs: RequestAttributes, policy: RbacPolicy): Decision {
  if (attrs.user.groups.includes(PRIVILEGED_GROUP)) return { allowed: true, reason: "" };
  const errors: string[] = [];
  const namespace = attrs.type === "resource" ? attrs.namespace : "";
  for (const applied of appliedBindings(policy, attrs.user, namespace)) {
    if (applied.error) errors.push(applied.error);
    if (applied.rules.some((rule) => ruleAllows(attrs, rule))) {
      return { allowed: true, reason: `RBAC: allowed by ${applied.source}` };
    }
  }
  return { allowed: false, reason: errorsReason(errors) };
}
