/**
 * What the PodSet reconciler reads off a pod: readiness, termination, and scale-down order.
 *
 * @module
 */
import { type DeepReadonly, isPodReady } from "../../mod.ts";
import type { Pod } from "./types.ts";

export { isPodReady } from "../../lib/reconcile/is_pod_ready.ts";

/**
 * Whether a pod has finished for good (phase `Failed` or `Succeeded`): it no longer counts
 * as a replica and must be replaced.
 *
 * @example
 * ```ts
 * import { isPodFinished } from "./pod_state.ts";
 * isPodFinished({ status: { phase: "Failed" } }); // true
 * ```
 */
export function isPodFinished(pod: DeepReadonly<Pod>): boolean {
  const phase = pod.status?.phase;
  return phase === "Failed" || phase === "Succeeded";
}

/**
 * Whether a pod is being deleted (`metadata.deletionTimestamp` set).
 *
 * @example
 * ```ts
 * import { isPodTerminating } from "./pod_state.ts";
 * isPodTerminating({ metadata: { deletionTimestamp: "2025-01-01T00:00:00Z" } }); // true
 * ```
 */
export function isPodTerminating(pod: DeepReadonly<Pod>): boolean {
  return Boolean(pod.metadata?.deletionTimestamp);
}

const created = (pod: DeepReadonly<Pod>): number => {
  const t = Date.parse(pod.metadata?.creationTimestamp ?? "");
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t; // unknown age: treat as newest
};

/**
 * Scale-down order (lower deleted first): not-ready before ready, then newest
 * (`creationTimestamp`) before oldest, then by name. A total order.
 *
 * @example
 * ```ts
 * import { podDeletionOrder } from "./pod_state.ts";
 * const ready = { metadata: { name: "a" }, status: { conditions: [{ type: "Ready", status: "True" }] } };
 * podDeletionOrder({ metadata: { name: "b" } }, ready) < 0; // true: the not-ready pod goes first
 * ```
 */
export function podDeletionOrder(a: DeepReadonly<Pod>, b: DeepReadonly<Pod>): number {
  const ra = isPodReady(a) ? 1 : 0, rb = isPodReady(b) ? 1 : 0;
  if (ra !== rb) return ra - rb;
  const ca = created(a), cb = created(b);
  if (ca !== cb) return ca > cb ? -1 : 1;
  const na = a.metadata?.name ?? "", nb = b.metadata?.name ?? "";
  return na < nb ? -1 : na > nb ? 1 : 0;
}
