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
export function setCondition(
  conditions: readonly Condition[],
  cond: ConditionInput,
  now: number,
): Condition[] {
  const i = conditions.findIndex((c) => c.type === cond.type);
  const old = i < 0 ? undefined : conditions[i];
  const lastTransitionTime = old !== undefined && old.status === cond.status
    ? old.lastTransitionTime
    : formatTime(now);
  const next: Condition = { ...cond, lastTransitionTime };
  if (i < 0) return [...conditions, next];
  const out = [...conditions];
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
