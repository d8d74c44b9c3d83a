/**
 * The simulated scheduler's node choice.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject } from "../../core/object.ts";
import { matchesNodeAffinity } from "./node_affinity.ts";

type Taint = { key?: string; value?: string; effect?: string };
type Toleration = { key?: string; operator?: string; value?: string; effect?: string };

const list = <T>(v: unknown): T[] => (Array.isArray(v) ? v as T[] : []);
const rec = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});

/** Whether a node's `Ready` condition is `True`. */
export function nodeReady(node: KubeObject): boolean {
  const conds = list<{ type?: string; status?: string }>(rec(node.status).conditions);
  return conds.some((c) => c.type === "Ready" && c.status === "True");
}

const tolerates = (tolerations: Toleration[], t: Taint) =>
  tolerations.some((tol) =>
    (tol.effect === undefined || tol.effect === "" || tol.effect === t.effect) &&
    (tol.operator === "Exists"
      ? tol.key === undefined || tol.key === "" || tol.key === t.key
      : tol.key === t.key && (tol.value ?? "") === (t.value ?? ""))
  );

/** The taint kube-scheduler reads `spec.unschedulable` as (a cordoned node). */
const UNSCHEDULABLE_TAINT: Taint = {
  key: "node.kubernetes.io/unschedulable",
  effect: "NoSchedule",
};

/**
 * Whether `pod` may run on `node`: Ready, schedulable (or the cordon tolerated), nodeSelector
 * and required node affinity matched, taints tolerated.
 */
export function nodeFits(pod: KubeObject, node: KubeObject): boolean {
  const spec = rec(pod.spec);
  const tolerations = list<Toleration>(spec.tolerations);
  if (!nodeReady(node)) return false;
  if (rec(node.spec).unschedulable === true && !tolerates(tolerations, UNSCHEDULABLE_TAINT)) {
    return false;
  }
  const labels = node.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(rec(spec.nodeSelector))) if (labels[k] !== v) return false;
  if (!matchesNodeAffinity(pod, node)) return false;
  return list<Taint>(rec(node.spec).taints)
    .filter((t) => t.effect === "NoSchedule" || t.effect === "NoExecute")
    .every((t) => tolerates(tolerations, t));
}

/**
 * Picks the node for a pod: among the nodes it fits, the one running the fewest pods (ties
 * by name); undefined when none fits.
 *
 * @param load pods per node name (missing = 0)
 * @example
 * ```ts
 * import { pickNode } from "./pick_node.ts";
 * const ready = { conditions: [{ type: "Ready", status: "True" }] };
 * const nodes = [{ metadata: { name: "a" }, status: ready }, { metadata: { name: "b" }, status: ready }];
 * pickNode({ spec: {} }, nodes, new Map([["a", 2]])); // "b"
 * ```
 */
export function pickNode(
  pod: KubeObject,
  nodes: readonly KubeObject[],
  load: ReadonlyMap<string, number>,
): string | undefined {
  let best: string | undefined;
  let bestLoad = Infinity;
  for (const node of nodes) {
    const name = node.metadata?.name;
    if (!name || !nodeFits(pod, node)) continue;
    const l = load.get(name) ?? 0;
    if (l < bestLoad || (l === bestLoad && name < best!)) [best, bestLoad] = [name, l];
  }
  return best;
}
