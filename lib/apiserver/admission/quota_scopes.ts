/**
 * Which objects a scoped ResourceQuota tracks, as a pure function — kube's `generic.Matches`
 * with the pod evaluator's `podMatchesScopeFunc`: `spec.scopes` and `spec.scopeSelector`
 * (Terminating, NotTerminating, BestEffort, NotBestEffort, PriorityClass,
 * CrossNamespacePodAffinity), all of which must match; other kinds match no scope.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject, plainObjects } from "../../core/object.ts";
import { podQosClass } from "../pod_qos.ts";

/** One scope requirement (`spec.scopes` entries become `Exists`). */
export interface ScopeSelector {
  readonly scopeName: string;
  readonly operator: string;
  readonly values: readonly string[];
}

/**
 * A quota's scope requirements: `spec.scopes` then `spec.scopeSelector.matchExpressions`.
 *
 * @example
 * ```ts ignore
 * quotaScopes(quota); // [{ scopeName: "BestEffort", operator: "Exists", values: [] }]
 * ```
 */
export function quotaScopes(quota: KubeObject): ScopeSelector[] {
  const spec = isPlainObject(quota.spec) ? quota.spec : {};
  const scopes = Array.isArray(spec.scopes) ? spec.scopes : [];
  const out: ScopeSelector[] = scopes.map((s) => ({
    scopeName: String(s),
    operator: "Exists",
    values: [],
  }));
  const selector = isPlainObject(spec.scopeSelector) ? spec.scopeSelector : {};
  for (const e of plainObjects(selector.matchExpressions)) {
    out.push({
      scopeName: String(e.scopeName ?? ""),
      operator: String(e.operator ?? ""),
      values: Array.isArray(e.values) ? e.values.map(String) : [],
    });
  }
  return out;
}

const crossNamespace = (terms: unknown) =>
  plainObjects(terms).some((t) => {
    const term = isPlainObject(t.podAffinityTerm) ? t.podAffinityTerm : t;
    return (Array.isArray(term.namespaces) && term.namespaces.length > 0) ||
      term.namespaceSelector != null;
  });

function podMatches(pod: KubeObject, s: ScopeSelector): boolean {
  const spec = isPlainObject(pod.spec) ? pod.spec : {};
  switch (s.scopeName) {
    case "Terminating":
    case "NotTerminating": {
      const ads = spec.activeDeadlineSeconds;
      const terminating = typeof ads === "number" && ads >= 0;
      return s.scopeName === "Terminating" ? terminating : !terminating;
    }
    case "BestEffort":
      return podQosClass(pod) === "BestEffort";
    case "NotBestEffort":
      return podQosClass(pod) !== "BestEffort";
    case "PriorityClass": {
      const pc = typeof spec.priorityClassName === "string" ? spec.priorityClassName : "";
      switch (s.operator) {
        case "Exists":
          return pc !== "";
        case "DoesNotExist":
          return pc === "";
        case "In":
          return pc !== "" && s.values.includes(pc);
        case "NotIn":
          return pc === "" || !s.values.includes(pc);
      }
      return false;
    }
    case "CrossNamespacePodAffinity": {
      const a = isPlainObject(spec.affinity) ? spec.affinity : {};
      return [a.podAffinity, a.podAntiAffinity].some((x) =>
        isPlainObject(x) &&
        (crossNamespace(x.requiredDuringSchedulingIgnoredDuringExecution) ||
          crossNamespace(x.preferredDuringSchedulingIgnoredDuringExecution))
      );
    }
  }
  return false;
}

/**
 * Whether an object stored under `storageKey` is in every scope of a quota (always, without
 * scopes; never, for kinds other than pods when there are scopes).
 *
 * @example
 * ```ts ignore
 * inQuotaScopes("/pods", bestEffortPod, [{ scopeName: "BestEffort", operator: "Exists", values: [] }]); // true
 * ```
 */
export function inQuotaScopes(
  storageKey: string,
  obj: KubeObject,
  scopes: readonly ScopeSelector[],
): boolean {
  if (!scopes.length) return true;
  return storageKey === "/pods" && scopes.every((s) => podMatches(obj, s));
}
