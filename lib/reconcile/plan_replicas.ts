/**
 * `planReplicas`: how many interchangeable children to create and which to delete.
 *
 * @module
 */
import { isControlledBy } from "./owner_reference.ts";

/**
 * What {@link planReplicas} reads off a child: owner references and `deletionTimestamp` (any
 * object with metadata fits).
 */
export interface ReplicaCandidate {
  /** The child's metadata. */
  readonly metadata?: {
    /** Its owner references: only children whose controller is the owner count. */
    readonly ownerReferences?: readonly { readonly uid?: string; readonly controller?: boolean }[];
    /** Set once the child is terminating: it no longer counts. */
    readonly deletionTimestamp?: string;
  };
}

/** Options of {@link planReplicas}. */
export interface PlanReplicasOptions<T> {
  /** How many active children are wanted (>= 0). */
  readonly replicas: number;
  /** The owner's uid: children it does not control are ignored entirely. */
  readonly ownerUid: string;
  /**
   * Whether a (non-terminating) child counts toward `replicas` (default: always). Children
   * that do not — e.g. Failed pods — are deleted so that they can be replaced.
   */
  readonly isActive?: (child: T) => boolean;
  /** Scale-down order: children that compare lower are deleted first. */
  readonly deletionOrder: (a: T, b: T) => number;
}

/** The decision of {@link planReplicas}. */
export interface ReplicaPlan<T> {
  /** Active controlled children that stay (not deleted), in input order. */
  readonly keep: readonly T[];
  /** How many new children to create. */
  readonly create: number;
  /** Controlled children to delete: inactive ones, then the surplus in deletion order. */
  readonly delete: readonly T[];
}

/**
 * Decides the creates and deletes that leave exactly `replicas` active controlled children,
 * with the fewest writes.
 *
 * Like the ReplicaSet controller's `manageReplicas`, but a pure decision: terminating
 * children (`deletionTimestamp`) are neither counted nor deleted again, inactive children are
 * deleted, and the surplus is chosen by `deletionOrder`. Turning the decision into ops
 * (names, templates) is the caller's: see {@link childNames} and {@link deleteOp}.
 *
 * @param observed the candidates (owned or not; foreign ones are ignored)
 * @param options replicas, owner, activeness and scale-down order
 *
 * @example
 * ```ts
 * import { planReplicas } from "../../mod.ts";
 * const own = (name: string) => ({ metadata: { name, ownerReferences: [{ uid: "u1", controller: true }] } });
 * const r = planReplicas([own("a"), own("b"), own("c")], {
 *   replicas: 1,
 *   ownerUid: "u1",
 *   deletionOrder: (x, y) => (x.metadata.name < y.metadata.name ? 1 : -1),
 * });
 * r.delete.map((p) => p.metadata.name); // ["c", "b"]
 * ```
 */
export function planReplicas<T extends ReplicaCandidate>(
  observed: readonly T[],
  options: PlanReplicasOptions<T>,
): ReplicaPlan<T> {
  const active: T[] = [];
  const inactive: T[] = [];
  for (const o of observed) {
    if (!isControlledBy(o, options.ownerUid) || o.metadata?.deletionTimestamp) continue;
    if (options.isActive === undefined || options.isActive(o)) active.push(o);
    else inactive.push(o);
  }
  const replicas = Math.max(0, Math.floor(options.replicas));
  if (active.length <= replicas) {
    return { keep: active, create: replicas - active.length, delete: inactive };
  }
  const surplus = [...active].sort(options.deletionOrder).slice(0, active.length - replicas);
  const gone = new Set(surplus);
  return { keep: active.filter((o) => !gone.has(o)), create: 0, delete: [...inactive, ...surplus] };
}
