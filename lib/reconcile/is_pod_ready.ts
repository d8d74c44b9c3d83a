/**
 * `isPodReady()`: the pod fact every replica controller reads.
 *
 * @module
 */

/**
 * Whether a pod's `Ready` condition is `True`.
 *
 * @example
 * ```ts
 * import { isPodReady } from "../../mod.ts";
 * isPodReady({ status: { conditions: [{ type: "Ready", status: "True" }] } }); // true
 * ```
 */
export function isPodReady(
  pod: { readonly status?: { readonly conditions?: readonly { type: string; status: string }[] } },
): boolean {
  return pod.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;
}
