/**
 * `rulesFor()`: every rule a user holds in a namespace — what a SelfSubjectRulesReview
 * answers (`kubectl auth can-i --list`).
 *
 * @module
 */
import type { PolicyRule, RbacPolicy, UserInfo } from "./types.ts";
import { appliedBindings, errorsReason } from "./authorize.ts";

/** The rules, split as SubjectRulesReviewStatus lists them. */
export interface UserRules {
  readonly resourceRules: readonly PolicyRule[];
  readonly nonResourceRules: readonly PolicyRule[];
  /** Whether some binding could not be resolved (a missing role). */
  readonly incomplete: boolean;
  /** The errors met, as the RBAC authorizer words them. */
  readonly evaluationError: string;
}

/**
 * The rules of every binding that applies to `user` in `namespace` (cluster bindings
 * included), resource and non-resource rules apart.
 *
 * @example
 * ```ts
 * import { rulesFor } from "./rules_for.ts";
 * const policy = { clusterRoleBindings: () => [], roleBindings: () => [], clusterRole: () => undefined, role: () => undefined };
 * rulesFor(policy, { name: "u", groups: [] }, "default").resourceRules.length; // 0
 * ```
 */
export function rulesFor(policy: RbacPolicy, user: UserInfo, namespace: string): UserRules {
  const resourceRules: PolicyRule[] = [], nonResourceRules: PolicyRule[] = [];
  const errors: string[] = [];
  for (const applied of appliedBindings(policy, user, namespace)) {
    if (applied.error) errors.push(applied.error);
    for (const rule of applied.rules) {
      if ((rule.nonResourceURLs ?? []).length > 0) {
        nonResourceRules.push({ verbs: rule.verbs, nonResourceURLs: rule.nonResourceURLs });
      }
      if ((rule.resources ?? []).length > 0) {
        const { nonResourceURLs: _n, ...resourceRule } = rule;
        resourceRules.push(resourceRule);
      }
    }
  }
  const reason = errorsReason(errors);
  return {
    resourceRules,
    nonResourceRules,
    incomplete: errors.length > 0,
    evaluationError: reason,
  };
}
