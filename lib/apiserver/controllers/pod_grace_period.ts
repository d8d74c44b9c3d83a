/**
 * The grace period of a pod deletion, as kube-apiserver's pod strategy computes it.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject } from "../../core/object.ts";

/**
 * The grace period in seconds of deleting `pod`; 0 removes it at once.
 *
 * A pod that no live kubelet runs (unscheduled, on a node without a kubelet) or that has
 * finished (`Succeeded`/`Failed`) goes at once; otherwise the request's `gracePeriodSeconds`
 * (negative counts as 1), else `spec.terminationGracePeriodSeconds`, else 30.
 *
 * @param hasKubelet whether a live kubelet runs the named node
 * @example
 * ```ts
 * import { podGracePeriod } from "./pod_grace_period.ts";
 * const pod = { spec: { nodeName: "n1", terminationGracePeriodSeconds: 5 }, status: { phase: "Running" } };
 * podGracePeriod(pod, undefined, () => true); // 5
 * podGracePeriod(pod, 0, () => true); // 0
 * ```
 */
export function podGracePeriod(
  pod: KubeObject,
  requested: number | undefined,
  hasKubelet: (nodeName: string) => boolean,
): number {
  if (requested === 0) return 0;
  const spec = isPlainObject(pod.spec) ? pod.spec : {};
  const status = isPlainObject(pod.status) ? pod.status : {};
  const node = typeof spec.nodeName === "string" ? spec.nodeName : "";
  if (!node || !hasKubelet(node)) return 0;
  if (status.phase === "Succeeded" || status.phase === "Failed") return 0;
  const grace = requested ??
    (typeof spec.terminationGracePeriodSeconds === "number"
      ? spec.terminationGracePeriodSeconds
      : 30);
  return grace < 0 ? 1 : grace;
}
