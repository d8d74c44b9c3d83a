/**
 * `reconcilePodSet`: the pure PodSet reconciler.
 *
 * ## Guarantees
 * - Exactly `spec.replicas` active owned pods once the plan is applied; active = controlled by
 *   this PodSet (controller owner reference uid), not terminating, not Failed/Succeeded.
 * - Pods it does not control are never in any op, even when they match the selector.
 * - The fewest writes: `max(0, replicas - active)` creates, `max(0, active - replicas)`
 *   deletes plus one delete per finished (Failed/Succeeded) owned pod; none for terminating
 *   pods. Scale-down deletes not-ready before ready, newest before oldest, then by name.
 * - Status describes the world *after* the plan (pods created are counted, not ready; pods
 *   deleted are gone), so reconciling the applied plan's result yields an empty plan.
 * - An invalid spec yields one status op (`Degraded=True` with the reasons), no child ops
 *   and no requeue: the next spec change triggers again.
 *
 * ## Naming and read-your-writes
 * New pods are named `<podset>-<suffix>`, suffixes drawn in order from `ctx.nameSuffix`
 * (default: {@link hashSuffix} seeded by the PodSet's uid), skipping names any cached pod
 * holds. Over a stale cache the same names come out again, so a repeated create meets
 * `AlreadyExists` instead of doubling the pods.
 *
 * @module
 */
import {
  childNames,
  deepEqual,
  type DeepReadonly,
  deleteOp,
  E,
  type Either,
  formatLabelSelector,
  hashSuffix,
  isPodReady,
  objectKey,
  type Op,
  type Plan,
  planReplicas,
  podFromTemplate,
  type ReconcileContext,
  type ReconcileError,
  statusOp,
  terminal,
  type World,
} from "../../mod.ts";
import { invalid } from "../../lib/core/status.ts";
import { isPodFinished, podDeletionOrder } from "./pod_state.ts";
import { podSetStatus } from "./podset_status.ts";
import { validatePodSet } from "./validate_podset.ts";
import {
  type Pod,
  type PodSet,
  PODSET_API_VERSION,
  PODSET_GROUP,
  PODSET_KIND,
  type PodSetStatus,
} from "./types.ts";

/** What the PodSet reconciler reads from the cache. */
export interface PodSetWorld {
  /** Pods, with `ownedBy` answering by controller uid. */
  readonly pods: World<Pod>;
}

/** The PodSet reconciler's context. */
export interface PodSetContext extends ReconcileContext {
  /** The `i`-th candidate suffix for new pod names (default `hashSuffix(uid, i)`). */
  readonly nameSuffix?: (i: number) => string;
}

/**
 * Reconciles one PodSet: the plan that keeps exactly `spec.replicas` active owned pods and
 * reports status. See the module doc for the guarantees.
 *
 * @param podSet the PodSet (from the cache)
 * @param world the cached pods
 * @param ctx the time and the name-suffix source
 * @returns the plan (deletes, then creates, then status), or a terminal error when the
 *   PodSet has no uid or no free names can be found
 *
 * @example
 * ```ts
 * import { reconcilePodSet } from "./reconcile.ts";
 * import { worldFromObjects } from "../../mod.ts";
 * const plan = reconcilePodSet({
 *   apiVersion: "app.example.com/v1alpha1", kind: "PodSet",
 *   metadata: { namespace: "d", name: "web", uid: "u1", generation: 1 },
 *   spec: { replicas: 2, selector: { matchLabels: { app: "web" } },
 *     template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "c", image: "nginx" }] } } },
 * }, { pods: worldFromObjects([]) }, { now: 0, nameSuffix: (i) => `p${i}` });
 * // right({ ops: [create d/web-p0, create d/web-p1, status] })
 * ```
 */
export function reconcilePodSet(
  podSet: DeepReadonly<PodSet>,
  world: PodSetWorld,
  ctx: PodSetContext,
): Either<ReconcileError, Plan> {
  const self = { ...podSet, apiVersion: PODSET_API_VERSION, kind: PODSET_KIND };
  const uid = podSet.metadata?.uid;
  const name = podSet.metadata?.name ?? "";
  const namespace = podSet.metadata?.namespace;
  if (!uid) {
    return E.left(
      terminal(`Cannot reconcile PodSet ${objectKey(namespace, name)}: no metadata.uid`),
    );
  }
  const validation = validatePodSet(podSet);
  const owned = world.pods.ownedBy(uid);
  const decision = planReplicas(owned, {
    replicas: validation.errors.length > 0 ? 0 : validation.replicas,
    ownerUid: uid,
    isActive: (p) => !isPodFinished(p),
    deletionOrder: podDeletionOrder,
  });
  const selector = validation.selector ? formatLabelSelector(validation.selector) : undefined;
  const base = {
    observed: podSet.status,
    selector,
    ...(podSet.metadata?.generation !== undefined
      ? { generation: podSet.metadata.generation }
      : {}),
    now: ctx.now,
  };
  const ops: Op[] = [];
  let status: PodSetStatus;
  if (validation.errors.length > 0) {
    // Touch no pod: report what is there and why nothing is done.
    const active = [...decision.keep, ...decision.delete.filter((p) => !isPodFinished(p))];
    status = podSetStatus({
      ...base,
      podNames: active.map((p) => p.metadata?.name ?? ""),
      readyReplicas: active.filter(isPodReady).length,
      invalid: invalid(PODSET_KIND, PODSET_GROUP, name, validation.errors).message ?? "",
    });
  } else {
    const names = childNames(name, decision.create, {
      suffix: ctx.nameSuffix ?? ((i) => hashSuffix(uid, i)),
      taken: (n) => world.pods.get(objectKey(namespace, n)) !== undefined,
    });
    if (names._tag === "Left") return names;
    for (const p of decision.delete) ops.push(deleteOp(p));
    const template = podSet.spec.template;
    for (const n of names.right) {
      ops.push({ type: "create", object: podFromTemplate(self, template, { name: n, namespace }) });
    }
    status = podSetStatus({
      ...base,
      podNames: [...decision.keep.map((p) => p.metadata?.name ?? ""), ...names.right],
      readyReplicas: decision.keep.filter(isPodReady).length,
      desired: validation.replicas,
    });
  }
  if (!deepEqual(status, podSet.status)) {
    ops.push(statusOp(self, status));
  }
  return E.right({ ops });
}
