/**
 * Exact Kubernetes resource quantities (`1Gi`, `500m`, `1e3`) as scaled BigInts (private to
 * the CEL package). Like `resource.ParseQuantity`, precision below 1n is rounded away from zero.
 *
 * @module
 */

/** The exact value `n / 10^scale`, normalized: `scale >= 0`, no trailing zero when `scale > 0`. */
export interface Quantity {
  readonly n: bigint;
  readonly scale: number;
}

/** Kubernetes' error for text that is not a quantity. */
export const QUANTITY_FORMAT_ERROR =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  "": 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const MAX_EXPONENT = 1000;

/** Normalizes `n / 10^scale`. */
export function quantityOf(n: bigint, scale: number): Quantity {
  while (scale < 0) [n, scale] = [n * 10n, scale + 1];
  while (scale > 0 && n % 10n === 0n) [n, scale] = [n / 10n, scale - 1];
  return { n, scale };
}

/**
 * Parses a quantity; `undefined` when the text is not one.
 *
 * @example
 * ```ts
 * import { formatQuantity, parseQuantity } from "./_quantity.ts";
 * formatQuantity(parseQuantity("1.5Ki")!); // "1536"
 * formatQuantity(parseQuantity("250m")!); // "0.25"
 * parseQuantity("1GB"); // undefined
 * ```
 */
export function parseQuantity(text: string): Quantity | undefined {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/.exec(text);
  if (!m) return undefined;
  const [, sign, whole, frac = "", suffix] = m;
  if (whole === "" && frac === "") return undefined;
  let n = BigInt(`${whole || "0"}${frac}`) * (sign === "-" ? -1n : 1n);
  let scale = frac.length;
  if (suffix in BINARY) n *= 1n << BigInt(BINARY[suffix]);
  else if (suffix in DECIMAL) scale -= DECIMAL[suffix];
  else {
    const e = /^[eE]([+-]?[0-9]+)$/.exec(suffix);
    if (!e || Math.abs(Number(e[1])) > MAX_EXPONENT) return undefined;
    scale -= Number(e[1]);
  }
  if (scale > 9) {
    const unit = 10n ** BigInt(scale - 9);
    const q = n / unit;
    n = q * unit === n ? q : q + (n < 0n ? -1n : 1n);
    scale = 9;
  }
  return quantityOf(n, scale);
}

/**
 * The exact decimal text of a quantity (no exponent, no suffix).
 *
 * @example
 * ```ts
 * import { formatQuantity, quantityOf } from "./_quantity.ts";
 * formatQuantity(quantityOf(-125n, 2)); // "-1.25"
 * ```
 */
export function formatQuantity(q: Quantity): string {
  const digits = (q.n < 0n ? -q.n : q.n).toString().padStart(q.scale + 1, "0");
  const body = q.scale === 0
    ? digits
    : `${digits.slice(0, -q.scale)}.${digits.slice(digits.length - q.scale)}`;
  return (q.n < 0n ? "-" : "") + body;
}

const align = (a: Quantity, b: Quantity): [bigint, bigint, number] => {
  const scale = Math.max(a.scale, b.scale);
  return [a.n * 10n ** BigInt(scale - a.scale), b.n * 10n ** BigInt(scale - b.scale), scale];
};

/**
 * -1, 0 or 1 as `a` is less than, equal to or greater than `b`.
 *
 * @example
 * ```ts
 * import { compareQuantity, parseQuantity } from "./_quantity.ts";
 * compareQuantity(parseQuantity("1Gi")!, parseQuantity("1G")!); // 1
 * ```
 */
export function compareQuantity(a: Quantity, b: Quantity): -1 | 0 | 1 {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The exact sum `a + sign * b`.
 *
 * @example
 * ```ts
 * import { addQuantity, formatQuantity, parseQuantity } from "./_quantity.ts";
 * formatQuantity(addQuantity(parseQuantity("1")!, parseQuantity("500m")!, -1)); // "0.5"
 * ```
 */
export function addQuantity(a: Quantity, b: Quantity, sign: 1 | -1 = 1): Quantity {
  const [x, y, scale] = align(a, b);
  return quantityOf(x + BigInt(sign) * y, scale);
}
