/**
 * The round-trip law of a conversion, checked on one value: what a property test asserts for
 * every generated object.
 *
 * @module
 */
import { E, type Either } from "../deps.ts";
import { isPlainObject } from "../core/object.ts";
import { deepEqual } from "../core/deep_equal.ts";
import type { Conversion } from "./conversion.ts";

/** Where a round trip lost or changed data. */
export interface RoundTripMismatch {
  /** JSON path of the first difference, e.g. `$.spec.template.metadata`. */
  readonly path: string;
  /** The value before the round trip. */
  readonly before: unknown;
  /** The value after it. */
  readonly after: unknown;
}

function firstDifference(a: unknown, b: unknown, path: string): RoundTripMismatch | undefined {
  if (deepEqual(a, b)) return undefined;
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const own = (o: Record<string, unknown>) => Object.hasOwn(o, k) ? o[k] : undefined;
      const d = firstDifference(own(a), own(b), `${path}.${k}`);
      if (d) return d;
    }
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
  }
  return { path, before: a, after: b };
}

/**
 * Checks `down(up(value))` equals `value` (direction `"up"`), or `up(down(value))` equals
 * `value` (direction `"down"`), answering the first difference.
 *
 * Use it inside a fast-check property so a failure names the field that did not survive.
 *
 * @example
 * ```ts
 * import { checkRoundTrip, conversion } from "../../mod.ts";
 * const c = conversion<{ a: number }, { b: number }>({
 *   from: "v1alpha1", to: "v1", up: (o) => ({ b: o.a }), down: (o) => ({ a: o.b }),
 * });
 * checkRoundTrip(c, "up", { a: 1 })._tag; // "Right"
 * ```
 */
export function checkRoundTrip<A, B>(
  conversion: Conversion<A, B>,
  direction: "up",
  value: A,
): Either<RoundTripMismatch, void>;
/**
 * Checks `up(down(value))` equals `value`, answering the first difference.
 *
 * @example
 * ```ts
 * import { checkRoundTrip, conversion } from "../../mod.ts";
 * const c = conversion<{ a: number }, { b: number }>({
 *   from: "v1alpha1", to: "v1", up: (o) => ({ b: o.a }), down: (o) => ({ a: o.b }),
 * });
 * checkRoundTrip(c, "down", { b: 1 })._tag; // "Right"
 * ```
 */
export function checkRoundTrip<A, B>(
  conversion: Conversion<A, B>,
  direction: "down",
  value: B,
): Either<RoundTripMismatch, void>;
export function checkRoundTrip<A, B>(
  conversion: Conversion<A, B>,
  ...[direction, value]: ["up", A] | ["down", B]
): Either<RoundTripMismatch, void> {
  const back = direction === "up"
    ? conversion.down(conversion.up(value))
    : conversion.up(conversion.down(value));
  const normalize = (v: unknown) => JSON.parse(JSON.stringify(v ?? null));
  const d = firstDifference(normalize(value), normalize(back), "$");
  return d ? E.left(d) : E.right(undefined);
}
