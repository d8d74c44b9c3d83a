/**
 * Status conditions (`metav1.Condition`): setting one without churning its timestamp.
 *
 * @module
 */
import { formatTime } from "../core/time.ts";

/** `metav1.Condition`. */
export interface Condition {
  /** The condition's type, e.g. `Ready`. */
  readonly type: string;
  /** `True`, `False` or `Unknown`. */
  readonly status: "True" | "False" | "Unknown";
  /** Why, in UpperCamelCase. */
  readonly reason: string;
  /** Human-readable detail. */
  readonly message: string;
  /** RFC 3339 time the status last changed. */
  readonly lastTransitionTime: string;
  /** The `metadata.generation` the condition was computed from. */
  readonly observedGeneration?: number;
}

/** A condition to set: `lastTransitionTime` is filled in by {@link setCondition}. */
export type ConditionInput = Omit<Condition, "lastTransitionTime">;

/**
 * What {@link setCondition} needs of the conditions it updates: a typed status's own
 * condition type (e.g. `batchv1.JobCondition`, whose fields are optional) fits.
 *
 * @example
 * ```ts
 * import { type batchv1, type ConditionLike, setCondition } from "../../mod.ts";
 * const observed: readonly batchv1.JobCondition[] = [{ type: "Complete", status: "True" }];
 * const conds: readonly ConditionLike[] = setCondition(observed, {
 *   type: "Complete", status: "True", reason: "Done", message: "",
 * }, 0);
 * conds[0].lastTransitionTime; // undefined: the status did not change
 * ```
 */
export interface ConditionLike {
  /** The condition type, e.g. `Ready`. */
  readonly type: string;
  /** `True`, `False` or `Unknown`. */
  readonly status?: string;
  /** When the status last changed (RFC 3339). */
  readonly lastTransitionTime?: string;
}

/**
 * Returns `conditions` with `cond` set (replacing the one of the same type, else appended).
 *
 * Like apimachinery's `meta.SetStatusCondition`, but pure: `lastTransitionTime` becomes
 * `formatTime(now)` only when the status flips (or the condition is new), and is kept
 * otherwise — so setting the same condition twice yields an equal list (a fixpoint).
 *
 * @param conditions the current conditions (not modified)
 * @param cond the condition to set
 * @param now epoch milliseconds
 *
 * @example
 * ```ts
 * import { setCondition } from "../../mod.ts";
 * const a = setCondition([], { type: "Ready", status: "True", reason: "Ok", message: "" }, 0);
 * const b = setCondition(a, { type: "Ready", status: "True", reason: "Ok", message: "" }, 5000);
 * b[0].lastTransitionTime; // "1970-01-01T00:00:00Z"
 * ```
 */
export function setCondition<C extends ConditionLike = Condition>(
  conditions: readonly C[],
  cond: ConditionInput,
  now: number,
): (C | ConditionInput & { readonly lastTransitionTime: C["lastTransitionTime"] | string })[] {
  const i = conditions.findIndex((c) => c.type === cond.type);
  const old = i < 0 ? undefined : conditions[i];
  const lastTransitionTime = old !== undefined && old.status === cond.status
    ? old.lastTransitionTime
    : formatTime(now);
  const next = { ...cond, lastTransitionTime };
  if (i < 0) return [...conditions, next];
  const out: (C | typeof next)[] = [...conditions];
  out[i] = next;
  return out;
}

/**
 * The condition of a type, if present.
 *
 * @example
 * ```ts
 * import { findCondition } from "../../mod.ts";
 * findCondition([{ type: "Ready", status: "True", reason: "Ok", message: "", lastTransitionTime: "" }], "Ready")?.status; // "True"
 * ```
 */
export function findCondition<C extends { readonly type: string }>(
  conditions: readonly C[] | undefined,
  type: string,
): C | undefined {
  return conditions?.find((c) => c.type === type);
}
