/**
 * The garbage collector's verdict on one dependent, from the states of its owners.
 *
 * @module
 */

/** What the collector found at an owner reference's uid. */
export type OwnerState =
  /** The owner exists and is not waiting for its dependents. */
  | "solid"
  /** No object with that uid (and name, kind, namespace) exists: the owner is gone. */
  | "dangling"
  /** The owner exists, is being deleted in the foreground and waits for its dependents. */
  | "waiting"
  /** The reference can never resolve (a cluster-scoped dependent naming a namespaced owner). */
  | "unresolvable";

/** One owner reference of a dependent, resolved. */
export interface ResolvedOwner {
  readonly uid: string;
  readonly state: OwnerState;
}

/** What the collector knows of the dependent itself. */
export interface DependentFacts {
  readonly owners: readonly ResolvedOwner[];
  /** Whether the dependent is already being deleted. */
  readonly deleting: boolean;
  /** Whether other objects name the dependent as their owner. */
  readonly hasDependents: boolean;
  readonly finalizers: readonly string[];
}

/** The propagation policy of a delete the collector issues. */
export type Propagation = "Background" | "Foreground" | "Orphan";

/** The collector's verdict on a dependent. */
export type DependentDecision =
  | { readonly type: "keep" }
  | { readonly type: "removeOwnerRefs"; readonly uids: readonly string[] }
  | { readonly type: "delete"; readonly propagation: Propagation };

/**
 * Decides what the garbage collector does with one dependent (upstream `attemptToDeleteItem`).
 *
 * A dependent with a living owner stays (references to gone or foreground-deleting owners are
 * removed from it); one whose owners are all gone is deleted — in the foreground when an owner
 * waits for it and it has dependents of its own, otherwise with the policy its finalizers imply.
 *
 * @example
 * ```ts
 * import { decideDependent } from "./decide_dependent.ts";
 * decideDependent({
 *   owners: [{ uid: "a", state: "dangling" }],
 *   deleting: false,
 *   hasDependents: false,
 *   finalizers: [],
 * }); // { type: "delete", propagation: "Background" }
 * ```
 */
export function decideDependent(facts: DependentFacts): DependentDecision {
  if (facts.owners.length === 0 || facts.deleting) return { type: "keep" };
  const of = (s: OwnerState) => facts.owners.filter((o) => o.state === s);
  const alive = facts.owners.filter((o) => o.state === "solid" || o.state === "unresolvable");
  const waiting = of("waiting");
  const dangling = of("dangling");
  if (alive.length > 0) {
    const gone = [...dangling, ...waiting].map((o) => o.uid);
    return gone.length ? { type: "removeOwnerRefs", uids: gone } : { type: "keep" };
  }
  if (waiting.length > 0 && facts.hasDependents) {
    return { type: "delete", propagation: "Foreground" };
  }
  const propagation: Propagation = facts.finalizers.includes("orphan")
    ? "Orphan"
    : facts.finalizers.includes("foregroundDeletion")
    ? "Foreground"
    : "Background";
  return { type: "delete", propagation };
}
