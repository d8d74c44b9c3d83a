/**
 * `matchesNodeAffinity`: whether a node satisfies a pod's required node affinity, as the
 * scheduler's NodeAffinity filter decides (DaemonSet pods are pinned this way).
 *
 * @module
 */
import type { KubeObject } from "./object.ts";
import type { DeepReadonly } from "./deep_readonly.ts";
import { asRecord, plainObjects } from "./object.ts";

type Obj = Record<string, unknown>;

/** One `NodeSelectorRequirement` against a value (undefined: the key is absent). */
function requirementHolds(req: Obj, value: string | undefined): boolean {
  const values = Array.isArray(req.values) ? req.values.map(String) : [];
  switch (req.operator) {
    case "In":
      return value !== undefined && values.includes(value);
    case "NotIn":
      return value === undefined || !values.includes(value);
    case "Exists":
      return value !== undefined;
    case "DoesNotExist":
      return value === undefined;
    case "Gt":
    case "Lt": {
      const a = Number.parseInt(value ?? "", 10), b = Number.parseInt(values[0] ?? "", 10);
      if (Number.isNaN(a) || Number.isNaN(b)) return false;
      return req.operator === "Gt" ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** Whether a `NodeSelectorTerm` holds: every expression on labels and every field matches. */
function termHolds(term: Obj, node: DeepReadonly<KubeObject>): boolean {
  const labels = node.metadata?.labels ?? {};
  const exprs = plainObjects(term.matchExpressions), fields = plainObjects(term.matchFields);
  if (exprs.length === 0 && fields.length === 0) return false; // an empty term matches nothing
  return exprs.every((r) => requirementHolds(r, labels[String(r.key)])) &&
    fields.every((r) =>
      requirementHolds(r, r.key === "metadata.name" ? node.metadata?.name : undefined)
    );
}

/**
 * Whether `node` satisfies `pod`'s
 * `spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution` (any term
 * holds; no requirement: true). Preferred terms do not filter.
 *
 * @example
 * ```ts
 * import { matchesNodeAffinity } from "./node_affinity.ts";
 * const pinned = { spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: {
 *   nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In", values: ["n1"] }] }],
 * } } } } };
 * matchesNodeAffinity(pinned, { metadata: { name: "n1" } }); // true
 * matchesNodeAffinity(pinned, { metadata: { name: "n2" } }); // false
 * ```
 */
export function matchesNodeAffinity(
  pod: DeepReadonly<KubeObject>,
  node: DeepReadonly<KubeObject>,
): boolean {
  const required = asRecord(
    asRecord(asRecord(asRecord(pod.spec).affinity).nodeAffinity)
      .requiredDuringSchedulingIgnoredDuringExecution,
  );
  if (!("nodeSelectorTerms" in required)) return true;
  return plainObjects(required.nodeSelectorTerms).some((t) => termHolds(t, node));
}
