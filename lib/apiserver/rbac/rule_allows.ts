/**
 * `ruleAllows()`: whether one PolicyRule covers a request, with RBAC's wildcard rules.
 *
 * @module
 */
import type { PolicyRule, RequestAttributes } from "./types.ts";

const has = (list: readonly string[] | undefined, value: string) =>
  (list ?? []).some((x) => x === "*" || x === value);

/** `*` matches everything; `prefix/*` matches paths under the prefix. */
function urlMatches(rules: readonly string[] | undefined, path: string): boolean {
  return (rules ?? []).some((u) =>
    u === "*" || u === path || (u.endsWith("*") && path.startsWith(u.slice(0, -1)))
  );
}

/** `*`, the combined `resource/subresource`, or `*\/subresource` for any resource's. */
function resourceMatches(
  rules: readonly string[] | undefined,
  combined: string,
  subresource: string,
): boolean {
  return (rules ?? []).some((r) =>
    r === "*" || r === combined ||
    (subresource !== "" && r === `*/${subresource}`)
  );
}

/**
 * Whether `rule` allows the request, as kube-apiserver's `RuleAllows`: resource requests
 * match verbs, API groups, the combined `resource/subresource` and resource names (an empty
 * list allows any name); non-resource requests match verbs and URLs.
 *
 * @example
 * ```ts
 * import { ruleAllows } from "./rule_allows.ts";
 * const user = { name: "u", groups: [] };
 * const rule = { verbs: ["get"], apiGroups: [""], resources: ["pods/log"] };
 * ruleAllows({ type: "resource", user, verb: "get", namespace: "ns", apiGroup: "", apiVersion: "v1",
 *   resource: "pods", subresource: "log", name: "p" }, rule); // true
 * ```
 */
export function ruleAllows(attrs: RequestAttributes, rule: PolicyRule): boolean {
  if (!has(rule.verbs, attrs.verb)) return false;
  if (attrs.type === "nonResource") return urlMatches(rule.nonResourceURLs, attrs.path);
  const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  if (!has(rule.apiGroups, attrs.apiGroup)) return false;
  if (!resourceMatches(rule.resources, combined, attrs.subresource)) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(attrs.name);
}
