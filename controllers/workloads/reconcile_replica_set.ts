/**
 * `reconcileReplicaSet`: the pure ReplicaSet reconciler (apps/v1 ReplicaSet owns v1 Pods).
 *
 * ## Guarantees
 * - Once the plan is applied, exactly `spec.replicas` (default 1) active pods controlled by
 *   the ReplicaSet and matching its selector exist; active = not terminating, not
 *   Failed/Succeeded. Finished pods are deleted so they can be replaced.
 * - Pods it does not control are never touched (no adoption, no release).
 * - Scale-down deletes unscheduled, then Pending, then not-ready pods first, newest first.
 * - New pods are named `<rs>-<suffix>` from `ctx.nameSuffix` (default {@link hashSuffix}
 *   seeded by the uid), skipping names in use, so a stale cache re-plans the same names.
 * - Status (`replicas`, `fullyLabeledReplicas`, `readyReplicas`, `availableReplicas`,
 *   `observedGeneration`) describes the world after the plan; other status fields are kept.
 *   `minReadySeconds` is ignored: available = ready.
 *
 * @module
 */
import { E, type Either, type k8sApps } from "../../lib/deps.ts";
import { objectKey } from "../../lib/core/key.ts";
import { deepEqual } from "../../lib/core/deep_equal.ts";
import { matchesLabels } from "../../lib/core/label_selector.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import { childNames, hashSuffix } from "../../lib/reconcile/child_names.ts";
import { deleteOp, type Op, statusOp } from "../../lib/reconcile/op.ts";
import { podFromTemplate } from "../../lib/reconcile/pod_from_template.ts";
import type { Plan } from "../../lib/reconcile/plan.ts";
import { planReplicas } from "../../lib/reconcile/plan_replicas.ts";
import { type ReconcileError, terminal } from "../../lib/reconcile/reconcile_error.ts";
import type { ReconcileContext } from "../../lib/reconcile/reconciler.ts";
import type { World } from "../../lib/reconcile/world.ts";
import { isPodActive, isPodReady, type Pod, podDeletionOrder } from "./pod_facts.ts";
import { workloadSelector } from "./workload_selector.ts";

/** An apps/v1 ReplicaSet. */
export type ReplicaSet = k8sApps.ReplicaSet;

/** What the ReplicaSet reconciler reads from the cache. */
export interface ReplicaSetWorld {
  /** Pods, with `ownedBy` answering by controller uid. */
  readonly pods: World<Pod>;
}

/** The ReplicaSet reconciler's context. */
export interface ReplicaSetContext extends ReconcileContext {
  /** The `i`-th candidate suffix for new pod names (default `hashSuffix(uid, i)`). */
  readonly nameSuffix?: (i: number) => string;
}

const hasAll = (
  labels: Readonly<Record<string, string>> | undefined,
  want: Readonly<Record<string, string>>,
) => Object.entries(want).every(([k, v]) => labels?.[k] === v);

/**
 * Reconciles one ReplicaSet: the plan that keeps `spec.replicas` pods from its template and
 * reports status. See the module doc for the guarantees.
 *
 * @param rs the ReplicaSet (from the cache)
 * @param world the cached pods
 * @param ctx the time and the name-suffix source
 * @returns the plan (deletes, creates, status), or a terminal error for a ReplicaSet without
 *   uid or with an invalid selector
 *
 * @example
 * ```ts
 * import { reconcileReplicaSet } from "./reconcile_replica_set.ts";
 * import { worldFromObjects } from "../../lib/reconcile/world.ts";
 * const plan = reconcileReplicaSet({
 *   apiVersion: "apps/v1", kind: "ReplicaSet",
 *   metadata: { namespace: "d", name: "web", uid: "u1", generation: 1 },
 *   spec: { replicas: 2, selector: { matchLabels: { app: "web" } },
 *     template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "c", image: "nginx" }] } } },
 * }, { pods: worldFromObjects([]) }, { now: 0, nameSuffix: (i) => `p${i}` });
 * // right({ ops: [create d/web-p0, create d/web-p1, status] })
 * ```
 */
export function reconcileReplicaSet(
  rs: DeepReadonly<ReplicaSet>,
  world: ReplicaSetWorld,
  ctx: ReplicaSetContext,
): Either<ReconcileError, Plan> {
  return reconcileReplicasOf({ apiVersion: "apps/v1", kind: "ReplicaSet" }, rs, world, ctx);
}

/**
 * {@link reconcileReplicaSet} for any kind shaped like a ReplicaSet (`kind` names the owner
 * in pods' owner references, status writes and messages): the ReplicationController
 * controller reuses it.
 *
 * @example
 * ```ts
 * import { reconcileReplicasOf } from "./reconcile_replica_set.ts";
 * import { worldFromObjects } from "../../lib/reconcile/world.ts";
 * const plan = reconcileReplicasOf({ apiVersion: "v1", kind: "ReplicationController" }, {
 *   metadata: { namespace: "d", name: "web", uid: "u1" },
 *   spec: { replicas: 1, selector: { matchLabels: { app: "web" } },
 *     template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "c", image: "nginx" }] } } },
 * }, { pods: worldFromObjects([]) }, { now: 0 });
 * ```
 */
export function reconcileReplicasOf(
  kind: { readonly apiVersion: string; readonly kind: string },
  rs: DeepReadonly<ReplicaSet>,
  world: ReplicaSetWorld,
  ctx: ReplicaSetContext,
): Either<ReconcileError, Plan> {
  const self = { ...rs, ...kind };
  const uid = rs.metadata?.uid;
  const name = rs.metadata?.name ?? "";
  const namespace = rs.metadata?.namespace;
  const key = objectKey(namespace, name);
  if (!uid) return E.left(terminal(`Cannot reconcile ${kind.kind} ${key}: no metadata.uid`));
  const spec = rs.spec;
  const labels = spec?.template?.metadata?.labels ?? {};
  const selector = workloadSelector(`${kind.kind} ${key}`, spec?.selector, labels);
  if (selector._tag === "Left") return E.left(terminal(selector.left));
  const replicas = spec?.replicas ?? 1;
  if (!Number.isInteger(replicas) || replicas < 0) {
    return E.left(
      terminal(`Cannot reconcile ${kind.kind} ${key}: spec.replicas: must be a whole number >= 0`),
    );
  }
  const owned = world.pods.ownedBy(uid).filter((p) =>
    matchesLabels(selector.right, p.metadata?.labels)
  );
  const decision = planReplicas(owned, {
    replicas,
    ownerUid: uid,
    isActive: (p) => isPodActive(p),
    deletionOrder: podDeletionOrder,
  });
  const names = childNames(name, decision.create, {
    suffix: ctx.nameSuffix ?? ((i) => hashSuffix(uid, i)),
    taken: (n) => world.pods.get(objectKey(namespace, n)) !== undefined,
  });
  if (names._tag === "Left") return names;
  const ops: Op[] = decision.delete.map((p) => deleteOp({ ...p, apiVersion: "v1", kind: "Pod" }));
  const template = spec?.template;
  for (const n of names.right) {
    ops.push({
      type: "create",
      object: podFromTemplate(self, template, { name: n, namespace }),
    });
  }
  const ready = decision.keep.filter(isPodReady).length;
  const generation = rs.metadata?.generation;
  const status = {
    ...rs.status,
    replicas: decision.keep.length + names.right.length,
    fullyLabeledReplicas: decision.keep.filter((p) => hasAll(p.metadata?.labels, labels)).length +
      names.right.length,
    readyReplicas: ready,
    availableReplicas: ready,
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
  };
  if (!deepEqual(status, rs.status)) {
    ops.push(statusOp(self, status));
  }
  return E.right({ ops });
}
