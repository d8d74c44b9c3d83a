/**
 * What the ReplicaSet controller reads off a pod: readiness, activeness, scale-down order.
 *
 * @module
 */
import type { k8sCore } from "../../lib/deps.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";

/** A Pod (kubernetes-types `core/v1`). */
export type Pod = k8sCore.Pod;

export { isPodReady } from "../../lib/reconcile/is_pod_ready.ts";
import { isPodReady } from "../../lib/reconcile/is_pod_ready.ts";

/**
 * Whether a pod still counts as a replica: not `Failed`/`Succeeded` and not being deleted.
 *
 * @example
 * ```ts
 * import { isPodActive } from "./pod_facts.ts";
 * isPodActive({ status: { phase: "Failed" } }); // false
 * isPodActive({ status: { phase: "Running" } }); // true
 * ```
 */
export function isPodActive(pod: DeepReadonly<Pod>): boolean {
  const phase = pod.status?.phase;
  return phase !== "Failed" && phase !== "Succeeded" && !pod.metadata?.deletionTimestamp;
}

const created = (pod: DeepReadonly<Pod>): number => {
  const t = Date.parse(pod.metadata?.creationTimestamp ?? "");
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t; // unknown age: treat as newest
};

const phaseRank = (pod: DeepReadonly<Pod>): number => {
  const phase = pod.status?.phase;
  return phase === "Pending" || phase === undefined ? 0 : phase === "Unknown" ? 1 : 2;
};

/**
 * Scale-down order (lower deleted first), like the ReplicaSet controller's: unscheduled
 * before scheduled, Pending before Unknown before Running, not-ready before ready, newest
 * (`creationTimestamp`) before oldest, then by name. A total order.
 *
 * @example
 * ```ts
 * import { podDeletionOrder } from "./pod_facts.ts";
 * const scheduled = { metadata: { name: "a" }, spec: { nodeName: "n1", containers: [] } };
 * podDeletionOrder({ metadata: { name: "b" } }, scheduled) < 0; // true: unscheduled goes first
 * ```
 */
export function podDeletionOrder(a: DeepReadonly<Pod>, b: DeepReadonly<Pod>): number {
  const sa = a.spec?.nodeName ? 1 : 0, sb = b.spec?.nodeName ? 1 : 0;
  if (sa !== sb) return sa - sb;
  const pa = phaseRank(a), pb = phaseRank(b);
  if (pa !== pb) return pa - pb;
  const ra = isPodReady(a) ? 1 : 0, rb = isPodReady(b) ? 1 : 0;
  if (ra !== rb) return ra - rb;
  const ca = created(a), cb = created(b);
  if (ca !== cb) return ca > cb ? -1 : 1;
  const na = a.metadata?.name ?? "", nb = b.metadata?.name ?? "";
  return na < nb ? -1 : na > nb ? 1 : 0;
}
