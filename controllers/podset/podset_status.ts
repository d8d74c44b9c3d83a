/**
 * The status a PodSet should report, computed from the pods it will have.
 *
 * @module
 */
import { type Condition, type DeepReadonly, setCondition } from "../../mod.ts";
import type { PodSetStatus } from "./types.ts";

/** Inputs of {@link podSetStatus}. */
export interface PodSetStatusInput {
  /** The status observed on the PodSet (its conditions are carried over). */
  readonly observed: DeepReadonly<PodSetStatus> | undefined;
  /** Names of the active pods the PodSet will have once its plan is applied. */
  readonly podNames: readonly string[];
  /** How many of them are Ready. */
  readonly readyReplicas: number;
  /** `spec.replicas` (only when the spec is valid). */
  readonly desired?: number;
  /** The selector's string form (when valid). */
  readonly selector?: string;
  /** `metadata.generation`. */
  readonly generation?: number;
  /** Why the spec is invalid (`Degraded=True`), or undefined when it is valid. */
  readonly invalid?: string;
  /** Epoch milliseconds, for `lastTransitionTime`. */
  readonly now: number;
}

/**
 * The complete status: counts, sorted pod names, selector, `observedGeneration`, and the
 * conditions `Degraded`, `Available`, `Progressing` (the last two only for a valid spec;
 * an invalid spec leaves them as they were). Conditions of other types are kept.
 *
 * Deterministic: the same inputs give an equal status, and timestamps only move when a
 * condition's status flips.
 *
 * @example
 * ```ts
 * import { podSetStatus } from "./podset_status.ts";
 * const s = podSetStatus({ observed: undefined, podNames: ["b", "a"], readyReplicas: 1, desired: 2, now: 0 });
 * s.podNames; // ["a", "b"]
 * s.conditions?.find((c) => c.type === "Available")?.status; // "False"
 * ```
 */
export function podSetStatus(input: PodSetStatusInput): PodSetStatus {
  const g = input.generation;
  const gen = g === undefined ? {} : { observedGeneration: g };
  let conditions: Condition[] = [...(input.observed?.conditions ?? [])];
  const set = (
    type: string,
    status: "True" | "False",
    reason: string,
    message: string,
  ) => conditions = setCondition(conditions, { type, status, reason, message, ...gen }, input.now);
  if (input.invalid !== undefined) {
    set("Degraded", "True", "InvalidSpec", input.invalid);
  } else {
    const desired = input.desired ?? 0;
    const ready = input.readyReplicas;
    const counts = `${ready} of ${desired} replicas ready`;
    set("Degraded", "False", "SpecValid", "");
    if (ready >= desired) {
      set("Available", "True", "AllReplicasReady", counts);
      set("Progressing", "False", "Complete", counts);
    } else {
      set("Available", "False", "ReplicasNotReady", counts);
      set("Progressing", "True", "WaitingForReady", counts);
    }
  }
  return {
    replicas: input.podNames.length,
    readyReplicas: input.readyReplicas,
    podNames: [...input.podNames].sort(),
    ...(input.selector !== undefined ? { selector: input.selector } : {}),
    ...gen,
    conditions,
  };
}
