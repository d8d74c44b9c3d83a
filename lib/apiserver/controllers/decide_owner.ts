/**
 * The garbage collector's work on an owner being deleted with the `orphan` or
 * `foregroundDeletion` finalizer.
 *
 * @module
 */

/** One dependent of the owner, as the collector sees it. */
export interface DependentOfOwner {
  readonly uid: string;
  /** Whether the dependent's reference to this owner has `blockOwnerDeletion: true`. */
  readonly blocks: boolean;
}

/** What the owner looks like. */
export interface OwnerFacts {
  readonly deleting: boolean;
  readonly finalizers: readonly string[];
}

/** The collector's work on an owner. */
export type OwnerDecision =
  | { readonly type: "none" }
  /** Remove references to the owner from these dependents, then the `orphan` finalizer. */
  | { readonly type: "orphan"; readonly dependents: readonly string[] }
  /** Re-examine these dependents (they will be deleted); the owner keeps waiting. */
  | { readonly type: "awaitDependents"; readonly dependents: readonly string[] }
  /** No dependent blocks the owner any more: remove the `foregroundDeletion` finalizer. */
  | { readonly type: "finishForeground"; readonly dependents: readonly string[] };

/**
 * Decides the collector's next step for an owner (upstream `orphanDependents` and
 * `processDeletingDependentsItem`).
 *
 * Orphan wins over foreground when both finalizers are present. A foreground owner waits only
 * for dependents whose reference has `blockOwnerDeletion: true`; the others are collected in
 * the background once it is gone.
 *
 * @example
 * ```ts
 * import { decideOwner } from "./decide_owner.ts";
 * decideOwner(
 *   { deleting: true, finalizers: ["foregroundDeletion"] },
 *   [{ uid: "d", blocks: false }],
 * ); // { type: "finishForeground", dependents: ["d"] }
 * ```
 */
export function decideOwner(
  owner: OwnerFacts,
  dependents: readonly DependentOfOwner[],
): OwnerDecision {
  if (!owner.deleting) return { type: "none" };
  const uids = dependents.map((d) => d.uid);
  if (owner.finalizers.includes("orphan")) return { type: "orphan", dependents: uids };
  if (!owner.finalizers.includes("foregroundDeletion")) return { type: "none" };
  return dependents.some((d) => d.blocks)
    ? { type: "awaitDependents", dependents: uids }
    : { type: "finishForeground", dependents: uids };
}
