/**
 * Pure reconciliation: the `Reconciler` type, the `Plan` of `Op`s it returns, a read-only
 * `World` view of the cache, and pure helpers to compute plans — named children
 * (`planChildren`), counted replicas (`planReplicas` + `childNames`), drift (`diff`), owner
 * references, conditions — plus a schema builder for CRDs (`t`).
 *
 * @example
 * ```ts
 * import { deleteOp, diff, planReplicas, type Reconciler, worldFromObjects } from "./mod.ts";
 * import { E } from "../deps.ts";
 * import type { KubeObject } from "../core/object.ts";
 * type Owner = KubeObject & { spec: { replicas: number } };
 * const reconcile: Reconciler<Owner, ReturnType<typeof worldFromObjects<KubeObject>>> = (o, world) => {
 *   const uid = o.metadata?.uid ?? "";
 *   const r = planReplicas(world.ownedBy(uid), {
 *     replicas: o.spec.replicas,
 *     ownerUid: uid,
 *     deletionOrder: (a, b) => ((a.metadata?.name ?? "") < (b.metadata?.name ?? "") ? -1 : 1),
 *   });
 *   return E.right({ ops: r.delete.map(deleteOp) });
 * };
 * diff({ a: 1 }, { a: 1, b: 2 }); // undefined
 * ```
 *
 * @module
 */
export type { ObjectRef, Op, PatchType, RefSource, UidRef } from "./op.ts";
export { deleteOp, refOf } from "./op.ts";
export { isEmptyPlan, type Plan } from "./plan.ts";
export { type ReconcileError, terminal, transient } from "./reconcile_error.ts";
export type { ReconcileContext, Reconciler } from "./reconciler.ts";
export {
  type World,
  worldFromObjects,
  type WorldFromObjectsOptions,
  worldFromStore,
  type WorldFromStoreOptions,
} from "./world.ts";
export {
  controllerUid,
  type HasOwnerReferences,
  isControlledBy,
  ownerReference,
} from "./owner_reference.ts";
export {
  type Condition,
  type ConditionInput,
  findCondition,
  setCondition,
} from "./set_condition.ts";
export { diff, type DiffOptions, SERVER_OWNED_PATHS } from "./diff.ts";
export { type ChildrenPlan, planChildren, type PlanChildrenOptions } from "./plan_children.ts";
export {
  planReplicas,
  type PlanReplicasOptions,
  type ReplicaCandidate,
  type ReplicaPlan,
} from "./plan_replicas.ts";
export {
  childNames,
  type ChildNamesOptions,
  hashSuffix,
  MAX_NAME_BASE_LENGTH,
} from "./child_names.ts";
export {
  type ArrayOptions,
  type CommonOptions,
  type Infer,
  type JsonSchema,
  type NumberOptions,
  type ObjectOf,
  type OptionalSchema,
  type Schema,
  type StringOptions,
  t,
} from "./schema_builder.ts";
export { podFromTemplate, type PodTemplate } from "./pod_from_template.ts";
export { isPodReady } from "./is_pod_ready.ts";
