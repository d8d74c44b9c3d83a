/**
 * `reconcileReplicationController`: the pure ReplicationController reconciler (v1
 * ReplicationController owns v1 Pods) — the ReplicaSet reconciler with the RC's map selector
 * (which defaults to the template's labels) read as `matchLabels`. Same guarantees as
 * {@link reconcileReplicaSet}.
 *
 * @module
 */
import type { Either, k8sCore } from "../../lib/deps.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import type { Plan } from "../../lib/reconcile/plan.ts";
import type { ReconcileError } from "../../lib/reconcile/reconcile_error.ts";
import {
  reconcileReplicasOf,
  type ReplicaSet,
  type ReplicaSetContext,
  type ReplicaSetWorld,
} from "./reconcile_replica_set.ts";

/** A v1 ReplicationController. */
export type ReplicationController = k8sCore.ReplicationController;

/**
 * Reconciles one ReplicationController: `spec.replicas` pods from its template.
 *
 * @example
 * ```ts
 * import { reconcileReplicationController } from "./reconcile_replication_controller.ts";
 * import { worldFromObjects } from "../../lib/reconcile/world.ts";
 * const plan = reconcileReplicationController({
 *   apiVersion: "v1", kind: "ReplicationController",
 *   metadata: { namespace: "d", name: "web", uid: "u1", generation: 1 },
 *   spec: { replicas: 2, selector: { app: "web" },
 *     template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "c", image: "nginx" }] } } },
 * }, { pods: worldFromObjects([]) }, { now: 0 });
 * // right({ ops: [create d/web-<suffix> x2, status] })
 * ```
 */
export function reconcileReplicationController(
  rc: DeepReadonly<ReplicationController>,
  world: ReplicaSetWorld,
  ctx: ReplicaSetContext,
): Either<ReconcileError, Plan> {
  const selector = rc.spec?.selector ?? rc.spec?.template?.metadata?.labels;
  // The ReplicaSet reconciler takes its TypeMeta from `kind`: an RC is a set with a map selector.
  const { apiVersion: _apiVersion, kind: _kind, ...rest } = rc;
  const asSet: DeepReadonly<ReplicaSet> = {
    ...rest,
    spec: { ...rc.spec, selector: { matchLabels: { ...selector } } },
  };
  return reconcileReplicasOf(
    { apiVersion: "v1", kind: "ReplicationController" },
    asSet,
    world,
    ctx,
  );
}
