/**
 * Whether a pod fits a node, as kube-scheduler's filters decide (Ready, the cordon,
 * nodeSelector, required node affinity, taints and tolerations). Shared by the simulated
 * scheduler and the DaemonSet controller.
 *
 * @module
 */
import type { KubeObject } from "./object.ts";
import type { DeepReadonly } from "./deep_readonly.ts";
import { asRecord } from "./object.ts";
import { matchesNodeAffinity } from "./node_affinity.ts";

type Taint = { key?: string; value?: string; effect?: string };
type Toleration = { key?: string; operator?: string; value?: string; effect?: string };

const list = <T>(v: unknown): T[] => (Array.isArray(v) ? v as T[] : []);

/**
 * Whether a node's `Ready` condition is `True`.
 *
 * @example
 * ```ts
 * import { nodeReady } from "./node_fit.ts";
 * nodeReady({ status: { conditions: [{ type: "Ready", status: "True" }] } }); // true
 * ```
 */
export function nodeReady(node: DeepReadonly<KubeObject>): boolean {
  const conds = list<{ type?: string; status?: string }>(asRecord(node.status).conditions);
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
 * and required node affinity matched, NoSchedule/NoExecute taints tolerated.
 *
 * @example
 * ```ts
 * import { nodeFits } from "./node_fit.ts";
 * const node = { metadata: { name: "n" }, status: { conditions: [{ type: "Ready", status: "True" }] } };
 * nodeFits({ spec: { nodeSelector: { disk: "ssd" } } }, node); // false
 * ```
 */
export function nodeFits(pod: DeepReadonly<KubeObject>, node: DeepReadonly<KubeObject>): boolean {
  const spec = asRecord(pod.spec);
  const tolerations = list<Toleration>(spec.tolerations);
  if (!nodeReady(node)) return false;
  if (asRecord(node.spec).unschedulable === true && !tolerates(tolerations, UNSCHEDULABLE_TAINT)) {
    return false;
  }
  const labels = node.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(asRecord(spec.nodeSelector))) {
    if (labels[k] !== v) return false;
  }
  if (!matchesNodeAffinity(pod, node)) return false;
  return list<Taint>(asRecord(node.spec).taints)
    .filter((t) => t.effect === "NoSchedule" || t.effect === "NoExecute")
    .every((t) => tolerates(tolerations, t));
}
