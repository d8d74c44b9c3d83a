/**
 * `rollingBounds`: a RollingUpdate's `maxSurge` and `maxUnavailable` as pod counts.
 *
 * @module
 */
import type { Either } from "../../lib/deps.ts";

/** An `IntOrString` as found in `spec.strategy.rollingUpdate`. */
export type IntOrPercent = number | string;

/** Resolved bounds of a rolling update. */
export interface RollingBounds {
  /** How many pods above `replicas` may exist. */
  readonly maxSurge: number;
  /** How many of `replicas` may be unavailable (never more than `replicas`). */
  readonly maxUnavailable: number;
}

const scaled = (
  field: string,
  value: IntOrPercent,
  replicas: number,
  roundUp: boolean,
): Either<string, number> => {
  if (typeof value === "number") {
    return Number.isInteger(value) && value >= 0
      ? { _tag: "Right", right: value }
      : { _tag: "Left", left: `${field}: Invalid value: ${value}: must be a whole number >= 0` };
  }
  const m = /^(\d+)%$/.exec(value);
  if (m === null) {
    return {
      _tag: "Left",
      left: `${field}: Invalid value: ${JSON.stringify(value)}: must be an integer or a percentage`,
    };
  }
  const exact = (Number(m[1]) * replicas) / 100;
  return { _tag: "Right", right: roundUp ? Math.ceil(exact) : Math.floor(exact) };
};

/** Options of {@link rollingBounds}. */
export interface RollingBoundsOptions {
  /** Round percentages of `maxUnavailable` up too (DaemonSets); default false (Deployments). */
  readonly roundUp?: boolean;
  /** The field path for messages; default `spec.strategy.rollingUpdate`. */
  readonly field?: string;
}

/**
 * Resolves `maxSurge` and `maxUnavailable` (default `25%` each) against `replicas`, as
 * Kubernetes does: percentages of surge round up, of unavailable round down (up with
 * `roundUp`); when both come out 0, `maxUnavailable` becomes 1; `maxUnavailable` is capped at
 * `replicas`.
 *
 * @example
 * ```ts
 * import { rollingBounds } from "./rolling_bounds.ts";
 * rollingBounds(10, undefined, undefined); // right({ maxSurge: 3, maxUnavailable: 2 })
 * rollingBounds(1, 0, "10%"); // right({ maxSurge: 0, maxUnavailable: 1 })
 * ```
 */
export function rollingBounds(
  replicas: number,
  maxSurge: IntOrPercent | undefined,
  maxUnavailable: IntOrPercent | undefined,
  options: RollingBoundsOptions = {},
): Either<string, RollingBounds> {
  const field = options.field ?? "spec.strategy.rollingUpdate";
  const surge = scaled(`${field}.maxSurge`, maxSurge ?? "25%", replicas, true);
  if (surge._tag === "Left") return surge;
  const unavailable = scaled(
    `${field}.maxUnavailable`,
    maxUnavailable ?? "25%",
    replicas,
    options.roundUp ?? false,
  );
  if (unavailable._tag === "Left") return unavailable;
  const u = surge.right === 0 && unavailable.right === 0 ? 1 : unavailable.right;
  return { _tag: "Right", right: { maxSurge: surge.right, maxUnavailable: Math.min(u, replicas) } };
}
