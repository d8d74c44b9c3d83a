/**
 * `aggregateRules()`: the rules of an aggregated ClusterRole, from the ClusterRoles its
 * `aggregationRule` selects.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject } from "../../core/object.ts";
import { deepEqual } from "../../core/deep_equal.ts";
import { fromLabelSelectorObject, matchesLabels } from "../../core/label_selector.ts";
import type { PolicyRule } from "./types.ts";
import { compareStrings } from "../../core/compare_strings.ts";

/** The label selectors of a ClusterRole's aggregationRule, or undefined when it has none. */
export function aggregationSelectors(role: KubeObject): unknown[] | undefined {
  const rule = role.aggregationRule;
  if (!isPlainObject(rule)) return undefined;
  return Array.isArray(rule.clusterRoleSelectors) ? rule.clusterRoleSelectors : [];
}

/**
 * The rules an aggregated ClusterRole should carry: those of every other ClusterRole matched
 * by any of its selectors, in name order, each distinct rule once — as kube-controller-manager's
 * clusterrole-aggregation controller computes them. Undefined for a role without an
 * aggregationRule.
 *
 * @example
 * ```ts
 * import { aggregateRules } from "./aggregate_rules.ts";
 * const admin = { metadata: { name: "admin" }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { "x/aggregate-to-admin": "true" } }] } };
 * const extra = { metadata: { name: "widgets-admin", labels: { "x/aggregate-to-admin": "true" } },
 *   rules: [{ verbs: ["*"], apiGroups: ["example.com"], resources: ["widgets"] }] };
 * aggregateRules(admin, [admin, extra])?.length; // 1
 * ```
 */
export function aggregateRules(
  role: KubeObject,
  all: readonly KubeObject[],
): PolicyRule[] | undefined {
  const selectors = aggregationSelectors(role);
  if (!selectors) return undefined;
  const parsed = selectors.flatMap((s) => {
    if (!isPlainObject(s)) return [];
    const r = fromLabelSelectorObject(s);
    return r._tag === "Right" ? [r.right] : [];
  });
  const sources = all
    .filter((o) => o.metadata?.name !== role.metadata?.name)
    .filter((o) => parsed.some((sel) => matchesLabels(sel, o.metadata?.labels ?? {})))
    .sort((a, b) => compareStrings(String(a.metadata?.name), String(b.metadata?.name)));
  const rules: PolicyRule[] = [];
  // Rules are flat (string fields and string lists): one key per distinct rule, whatever
  // the order of its fields, instead of comparing each rule with every one before it.
  const seen = new Set<string>();
  for (const source of sources) {
    for (const rule of Array.isArray(source.rules) ? source.rules : []) {
      const key = isPlainObject(rule) ? JSON.stringify(rule, Object.keys(rule).sort()) : "";
      if (key && seen.has(key)) continue;
      if (!key && rules.some((r) => deepEqual(r, rule))) continue;
      if (key) seen.add(key);
      rules.push(rule as PolicyRule);
    }
  }
  return rules;
}
