/**
 * RBAC for the embedded API server: a pure authorizer (request attributes + RBAC objects ->
 * decision with kube-apiserver's reason), the Forbidden wording, the rules a user holds, the
 * aggregation of ClusterRoles and the bootstrap policy.
 *
 * @example
 * ```ts
 * import { authorize, forbidden, requestAttributes } from "./mod.ts";
 * const policy = { clusterRoleBindings: () => [], roleBindings: () => [], clusterRole: () => undefined, role: () => undefined };
 * const attrs = requestAttributes({ name: "bob", groups: [] }, "GET", new URL("http://x/api/v1/namespaces/ns/pods"));
 * const decision = authorize(attrs, policy);
 * decision.allowed ? "" : forbidden(attrs, decision.reason).message;
 * // 'pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "ns"'
 * ```
 *
 * @module
 */
export type {
  BindingObject,
  Decision,
  PolicyRule,
  RbacPolicy,
  RequestAttributes,
  RoleObject,
  RoleRef,
  Subject,
  UserInfo,
} from "./types.ts";
export { type AppliedBinding, appliedBindings, authorize, PRIVILEGED_GROUP } from "./authorize.ts";
export { ruleAllows } from "./rule_allows.ts";
export { appliesTo, describeSubject, serviceAccountUsername } from "./applies_to.ts";
export { rulesFor, type UserRules } from "./rules_for.ts";
export { aggregateRules, aggregationSelectors } from "./aggregate_rules.ts";
export { bootstrapPolicy } from "./bootstrap_policy.ts";
export { forbidden, forbiddenMessage } from "./forbidden.ts";
export { requestAttributes } from "./request_attributes.ts";
export { storePolicy } from "./store_policy.ts";
