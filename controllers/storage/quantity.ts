/**
 * `quantityValue()`: a Kubernetes resource quantity (`1Gi`, `500M`, `1.5e3`) as a number.
 *
 * @module
 */

const suffixes: Readonly<Record<string, number>> = {
  "": 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/**
 * The value of a quantity, or NaN when it is not one (precise enough to compare sizes).
 *
 * @example
 * ```ts
 * import { quantityValue } from "./quantity.ts";
 * quantityValue("1Gi"); // 1073741824
 * quantityValue("1G") < quantityValue("1Gi"); // true
 * ```
 */
export function quantityValue(q: unknown): number {
  if (typeof q === "number") return q;
  if (typeof q !== "string") return NaN;
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:[eE]([+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E)?)$/
    .exec(q.trim());
  if (!m) return NaN;
  const base = Number(m[1]);
  return m[2] !== undefined ? base * 10 ** Number(m[2]) : base * suffixes[m[3] ?? ""];
}
