/**
 * The LimitRanger admission plugin (on by default in kube-apiserver): the effects at the edge
 * of {@link limitRangeDefaults} and {@link limitRangeViolations} — reading the namespace's
 * LimitRanges from storage, writing the defaults into a pod being created, and refusing a pod
 * or PersistentVolumeClaim that breaks them with kube's 403.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import type { ServerContext } from "../context.ts";
import { forbid } from "./forbid.ts";
import { limitRangeDefaults, withLimitRangeDefaults } from "./limit_range_defaults.ts";
import {
  aggregateMessage,
  claimLimitViolations,
  limitRangeViolations,
} from "./limit_range_violations.ts";

const rangesOf = (ctx: ServerContext, obj: KubeObject): KubeObject[] => {
  const namespace = obj.metadata?.namespace;
  return namespace ? ctx.storage.list("/limitranges", namespace).map((s) => s.object) : [];
};

/**
 * Fills a pod being created (mutating `pod`) with the defaults of its namespace's
 * LimitRanges and records them in the `kubernetes.io/limit-ranger` annotation.
 *
 * @example
 * ```ts ignore
 * admitLimitRanger(ctx, pod); // pod.spec.containers[0].resources.limits.cpu === "500m"
 * ```
 */
export function admitLimitRanger(ctx: ServerContext, pod: KubeObject): void {
  const ranges = rangesOf(ctx, pod);
  if (!ranges.length) return;
  const next = withLimitRangeDefaults(pod, limitRangeDefaults(pod, ranges));
  if (next === pod) return;
  pod.metadata = next.metadata;
  pod.spec = next.spec;
}

function refuse(resource: string, obj: KubeObject, messages: readonly string[]): void {
  if (messages.length) forbid(resource, obj, aggregateMessage(messages));
}

/**
 * Refuses (403) a pod being created that breaks its namespace's LimitRanges; called on the
 * defaulted pod. Pod updates are not checked (kube skips them: resources are immutable).
 *
 * @example
 * ```ts ignore
 * validateLimitRanger(ctx, pod); // throws: pods "web" is forbidden: maximum cpu usage per Container is 500m, but limit is 1
 * ```
 */
export function validateLimitRanger(ctx: ServerContext, pod: KubeObject): void {
  refuse("pods", pod, limitRangeViolations(pod, rangesOf(ctx, pod)));
}

/**
 * Refuses (403) a PersistentVolumeClaim whose storage request breaks the namespace's
 * `type: PersistentVolumeClaim` limits, on create and update (a claim being deleted is let
 * through; the caller leaves out status writes).
 *
 * @example
 * ```ts ignore
 * validateClaimLimitRanger(ctx, pvc, undefined); // throws when storage is over the max
 * ```
 */
export function validateClaimLimitRanger(
  ctx: ServerContext,
  pvc: KubeObject,
  old: KubeObject | undefined,
): void {
  if (old?.metadata?.deletionTimestamp) return;
  refuse("persistentvolumeclaims", pvc, claimLimitViolations(pvc, rangesOf(ctx, pvc)));
}
